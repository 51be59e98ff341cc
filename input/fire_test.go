package input_test

import (
	"testing"

	"github.com/metronome-go/metronome/input"
)

// TestFireIsATap checks that a fired action reads as a key tapped inside
// the tick, adds to real presses, is gone after the next fill and is
// refused for an unknown action.
func TestFireIsATap(t *testing.T) {
	actions := input.NewActions()
	start := actions.MustRegister("start", input.KeyEnter)
	other := actions.MustRegister("other", input.KeyA)
	var tick input.Tick
	tick.Fill(actions, 0, 16*ms, input.State{}, []input.Record{press(2*ms, input.KeyEnter)})
	if !tick.Fire(start) {
		t.Fatal("Fire(start) = false, want true")
	}
	s := tick.Action(start)
	if got, want := s.Presses, 2; got != want {
		t.Errorf("Presses = %d, want %d (one key press, one fire)", got, want)
	}
	if got, want := s.Releases, 1; got != want {
		t.Errorf("Releases = %d, want %d", got, want)
	}
	if !s.Down {
		t.Error("Down = false, want true: the key is still held")
	}
	if tick.Pressed(other) {
		t.Error("other pressed: a fire reaches only its own action")
	}
	if tick.Fire(input.Action(99)) {
		t.Error("Fire(unregistered) = true, want false")
	}
	tick.Fill(actions, 16*ms, 32*ms, input.State{}, nil)
	if tick.Pressed(start) {
		t.Error("start still pressed after the next fill")
	}
	tick.Fire(start)
	if st := tick.Action(start); st.Presses != 1 || st.Releases != 1 || st.Held != 0 {
		t.Errorf("fired on an idle tick: %+v, want one press, one release, nothing held", st)
	}
	var copied input.Tick
	copied.CopyFrom(&tick)
	if copied.Pressed(start) {
		t.Error("CopyFrom carried a fire: the system that fired it fires it again on a re-run")
	}
}

func TestClearFired(t *testing.T) {
	actions := input.NewActions()
	start := actions.MustRegister("start", input.KeyEnter)
	var tick input.Tick
	tick.Fill(actions, 0, 16*ms, input.State{}, []input.Record{press(2*ms, input.KeyEnter)})
	tick.Fire(start)
	tick.ClearFired()
	if got := tick.Presses(start); got != 1 {
		t.Errorf("Presses after ClearFired = %d, want 1 (the key's)", got)
	}
}
