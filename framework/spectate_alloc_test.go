//go:build !race

package framework

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// A host feeding a spectator, and the spectator following it, allocate
// nothing an update once the spectator is live; the spectator reaches
// the host's hashes.
func TestSpectatorUpdateAllocatesNothing(t *testing.T) {
	// Peers 0 and 1 play (0 keeps the log it feeds from); peer 2 watches.
	m := newMoverMatch(t, 3, netsim.Options{Latency: 20 * time.Millisecond, Seed: 5},
		rollback.Options{Window: rollback.DefaultWindow, HashEvery: 10, LogBytes: 1 << 20})
	host := m.runs[0]
	host.spectatorDelay = 3
	host.spectatorEvent(netplay.Event{Peer: 2, Kind: netplay.Joined, Spectator: true})
	specApp := moverApp(t, moverStep)
	fol, err := rollback.NewFollower(specApp, 2, 1, 10, 0, m.clock)
	if err != nil {
		t.Fatal(err)
	}
	spec := &specRun{app: specApp, fol: fol, tr: m.trs[2], msg: make([]byte, 0, rollback.MaxMessage), buf: make([]byte, rollback.MaxMessage),
		step: runStep{half: moverStep / 2, delay: 3}}
	var ctx runtime.TickContext
	update := func() {
		m.update()
		ctx = runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: moverStep, Final: true}}
		if err := spec.update(&ctx, -1); err != nil {
			t.Fatal(err)
		}
	}
	for range 600 {
		update()
	}
	if got := testing.AllocsPerRun(300, update); got != 0 {
		t.Errorf("a host feeding a spectator and the spectator allocate %v times an update, want 0", got)
	}
	tick, hash, ok := fol.LastHash()
	if !ok || tick < 800 {
		t.Fatalf("the spectator is at hash tick %d (ok %v), want it live (past 800)", tick, ok)
	}
	if want, ok := host.app.HashAt(host.sess, tick); !ok || want != hash {
		t.Errorf("spectator's hash at tick %d %016x, the host's %016x (ok %v)", tick, hash, want, ok)
	}
}
