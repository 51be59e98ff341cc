//go:build !race

package rollback_test

import (
	"io"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Local seats with a bot fill the players without allocating.
func TestSeatsAllocateNothing(t *testing.T) {
	var players rollback.Players
	s := rollback.NewSeats(&players, [][]input.Action{{1, 2}, {1, 2}}, 3)
	var in input.Tick
	tc := runtime.TickContext{Update: timing.Update{Delta: time.Second / 60}}
	if got := testing.AllocsPerRun(100, func() { s.Update(&tc); s.Fill(&in) }); got != 0 {
		t.Errorf("an update and fill of the seats allocates %v times, want 0", got)
	}
}

// A networked update that records the match (its settled ticks with
// every player's input, a checkpoint every tick, its pacing) allocates
// nothing in steady state, with rollbacks.
func TestRecorderAllocatesNothing(t *testing.T) {
	m := newRecordedMatch(t, netsim.Options{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: 4}, 1, 0, io.Discard)
	for range 600 {
		m.update()
	}
	if got := testing.AllocsPerRun(300, m.update); got != 0 {
		t.Errorf("a recorded networked update allocates %v times, want 0", got)
	}
	for i, s := range m.sides {
		if st := s.Stats(); st.Rollbacks == 0 || st.Desyncs != 0 {
			t.Errorf("peer %d: stats %+v: want rollbacks and no desync", i, st)
		}
		if w := m.ws[i]; w.Ticks() < 800 || w.Checkpoints() < 800 {
			t.Errorf("peer %d recorded %d ticks and %d checkpoints in 900 updates", i, w.Ticks(), w.Checkpoints())
		}
	}
}

// A match under --inspect records into an inspect.Live (the inspector's
// follower reads it from there): with no page open, a recorded update
// allocates no more than one recorded to nowhere, nothing. Both peers'
// recordings go into the one Live here: only the allocations count.
func TestRecorderIntoTheInspectorAllocatesNothing(t *testing.T) {
	live := inspect.NewLive()
	defer live.Close()
	m := newRecordedMatch(t, netsim.Options{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: 4}, 1, 0, live)
	for range 600 {
		m.update()
	}
	if got := testing.AllocsPerRun(300, m.update); got != 0 {
		t.Errorf("a networked update recorded for the inspector allocates %v times, want 0", got)
	}
	for _, w := range m.ws {
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if live.Recorded() == 0 {
		t.Errorf("nothing reached the inspector's Live")
	}
}
