package input_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

const ms = timing.Instant(time.Millisecond)

func press(at timing.Instant, b input.Button) input.Record {
	return input.Record{Time: at, Kind: input.RecordPress, Button: b}
}

func release(at timing.Instant, b input.Button) input.Record {
	return input.Record{Time: at, Kind: input.RecordRelease, Button: b}
}

// TestSimulationTimeSeed000 is the worked example: a 50 ms tap observed in
// a 500 ms interval.
func TestSimulationTimeSeed000(t *testing.T) {
	actions := input.NewActions()
	fire := actions.MustRegister("fire", input.KeySpace)
	var tick input.Tick
	tick.Fill(actions, 1000*ms, 1500*ms, input.State{}, []input.Record{
		press(1200*ms, input.KeySpace), release(1250*ms, input.KeySpace),
	})
	tests := []struct {
		name     string
		simDelta time.Duration
		want     time.Duration
	}{
		{"20 ms fixed update", 20 * time.Millisecond, 2 * time.Millisecond},
		{"100 ms recovery update", 100 * time.Millisecond, 10 * time.Millisecond},
		{"zero delta", 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tick.SimulationTime(fire, tc.simDelta); got != tc.want {
				t.Errorf("SimulationTime(fire, %v) = %v, want %v", tc.simDelta, got, tc.want)
			}
			if got, want := tick.SimulationSeconds(fire, tc.simDelta), tc.want.Seconds(); got != want {
				t.Errorf("SimulationSeconds(fire, %v) = %v, want %v", tc.simDelta, got, want)
			}
		})
	}
	if got, want := tick.Held(fire), 50*time.Millisecond; got != want {
		t.Errorf("Held = %v, want %v (the raw duration is unchanged)", got, want)
	}
	if got, want := tick.Observed(), 500*time.Millisecond; got != want {
		t.Errorf("Observed = %v, want %v", got, want)
	}
}

func TestSimulationTimeZeroInterval(t *testing.T) {
	actions := input.NewActions()
	fire := actions.MustRegister("fire", input.KeySpace)
	var held, up input.State
	held.Down.Add(input.KeySpace)
	tests := []struct {
		name string
		from input.State
		want time.Duration
	}{
		{"held", held, 20 * time.Millisecond},
		{"up", up, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tick input.Tick
			tick.Fill(actions, 100*ms, 100*ms, tc.from, nil)
			if got := tick.SimulationTime(fire, 20*time.Millisecond); got != tc.want {
				t.Errorf("SimulationTime = %v, want %v", got, tc.want)
			}
		})
	}
}

// A copy answers like the original after the original is filled again.
func TestTickCopyFrom(t *testing.T) {
	actions := input.NewActions()
	fire := actions.MustRegister("fire", input.KeySpace)
	var src, dst input.Tick
	src.Fill(actions, 1000*ms, 1500*ms, input.State{}, []input.Record{
		press(1200*ms, input.KeySpace), release(1250*ms, input.KeySpace), {Time: 1300 * ms, Kind: input.RecordText, Rune: 'x'},
	})
	src.SetPolls(3)
	want := src.Action(fire)
	dst.CopyFrom(&src)
	src.Fill(actions, 1500*ms, 1600*ms, input.State{}, nil)
	if got := dst.Action(fire); got != want {
		t.Errorf("copied action: got %+v, want %+v", got, want)
	}
	if got, want := dst.Text(), "x"; got != want {
		t.Errorf("copied text: got %q, want %q", got, want)
	}
	if dst.Start() != 1000*ms || dst.End() != 1500*ms || dst.Polls() != 3 || len(dst.Records()) != 3 {
		t.Errorf("copied interval, polls, records: %v %v %d %d", dst.Start(), dst.End(), dst.Polls(), len(dst.Records()))
	}
}
