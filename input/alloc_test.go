//go:build !race

package input_test

import (
	"testing"

	"github.com/metronome-go/metronome/input"
)

// TestTickFromBacklogAllocatesNothing builds ticks from a 64-poll backlog,
// queries them and records the next backlog, all in steady state.
func TestTickFromBacklogAllocatesNothing(t *testing.T) {
	f := newBacklogFixture(t, 64)
	f.round() // warm up: buffers reach their steady size
	f.round()
	if n := testing.AllocsPerRun(100, f.round); n != 0 {
		t.Errorf("a 64-poll round allocates %v times, want 0", n)
	}
	take := func() {
		f.fill()
		f.q.TakeAll(f.now, &f.tick)
	}
	if n := testing.AllocsPerRun(100, take); n != 0 {
		t.Errorf("TakeAll of a 64-poll backlog allocates %v times, want 0", n)
	}
	poll := func() {
		f.now += 4 * ms
		f.rec.Press(f.now, input.KeyA)
		f.rec.Release(f.now, input.KeyA)
		f.poll(f.now)
	}
	if n := testing.AllocsPerRun(100, poll); n != 0 {
		t.Errorf("recording and polling allocates %v times, want 0", n)
	}
}

// TestAnalogTickAllocatesNothing: the same with a stick moving at every poll
// and two analog actions queried, with their simulation time.
func TestAnalogTickAllocatesNothing(t *testing.T) {
	f := newFixture(t, 64, true)
	f.round()
	f.round()
	if n := testing.AllocsPerRun(100, f.round); n != 0 {
		t.Errorf("a 64-poll round with analog input allocates %v times, want 0", n)
	}
	values := func() {
		for _, a := range f.actions {
			for at, v := range f.tick.Values(a) {
				f.sink += int(at) + int(v)
			}
		}
	}
	if n := testing.AllocsPerRun(100, values); n != 0 {
		t.Errorf("walking Tick.Values allocates %v times, want 0", n)
	}
	var rec input.Recorder
	var snap input.Snapshot
	i := 0
	pad := func() {
		i++
		f.now += 4 * ms
		rec.Gamepad(f.now, true)
		rec.Press(f.now, input.GamepadB)
		rec.Axis(f.now, input.GamepadRightY, float32(i%3)/2)
		rec.Gamepad(f.now, false) // releases and centres: synthetic records
		rec.Flush(f.now, &snap)
	}
	pad()
	if n := testing.AllocsPerRun(100, pad); n != 0 {
		t.Errorf("recording gamepad input allocates %v times, want 0", n)
	}
}
