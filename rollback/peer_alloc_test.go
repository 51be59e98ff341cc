//go:build !race

package rollback_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// A match's update in steady state allocates nothing: two peers over a
// lossy link (receive, local input, advance with rollbacks, send) and the
// host feeding a spectator, who follows it.
func TestPeerAndSpectatorUpdatesAllocateNothing(t *testing.T) {
	m := newPeerMatch(t, netsim.Options{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: 3}, 2, 1, 0, -1)
	for range 600 {
		m.update()
	}
	if got := testing.AllocsPerRun(300, m.update); got != 0 {
		t.Errorf("an update of two peers and a spectator allocates %v times, want 0", got)
	}
	if st := m.peers[0].Stats(); st.Rollbacks == 0 || st.Desyncs != 0 {
		t.Errorf("stats %+v: want rollbacks and no desync", st)
	}
	if st := m.specs[0].Stats(); st.Tick < 700 {
		t.Errorf("the spectator is at tick %d, want it live (past 700)", st.Tick)
	}
}

// Keeping a player's pacing figures allocates nothing.
func TestPacingRecordAllocatesNothing(t *testing.T) {
	clock := timing.NewManualClock(0)
	p := rollback.NewPacing(clock, time.Second/60, 0)
	var tc runtime.TickContext
	if got := testing.AllocsPerRun(1000, func() {
		clock.Advance(time.Second / 60)
		p.Record(&tc, 0.5)
	}); got != 0 {
		t.Errorf("a pacing record allocates %v times, want 0", got)
	}
}
