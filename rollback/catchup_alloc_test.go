//go:build !race

package rollback_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/timing"
)

// A host keeping the confirmed input log and feeding a follower, which
// acknowledges every update: steady state allocates nothing on either
// side.
func TestSteadyFeedAllocatesNothing(t *testing.T) {
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	var ss [2]*rollback.Session
	for i := range ss {
		sim := newToy(8)
		sim.present = nil
		s, err := rollback.NewSession(sim, rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 10, LogBytes: 1 << 20, Clock: timing.NewManualClock(0)})
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = s
	}
	spec := newToy(0)
	spec.present = nil
	fol, err := rollback.NewFollower(spec, 2, 2, 10, 0, timing.NewManualClock(0))
	if err != nil {
		t.Fatal(err)
	}
	feed := ss[0].NewFeed(3)
	msgs := [2][]byte{make([]byte, 0, 4096), make([]byte, 0, 4096)}
	out, ack := make([]byte, 0, 4096), make([]byte, 0, 64)
	update := func() {
		for i, s := range ss {
			script(3, i, s.Tick()+2, s.Local(i))
			if _, err := s.Advance(); err != nil {
				t.Fatal(err)
			}
			msgs[i] = s.AppendMessage(msgs[i][:0])
		}
		for i, s := range ss {
			if err := s.Receive(msgs[1-i]); err != nil {
				t.Fatal(err)
			}
		}
		ack = fol.AppendAck(ack[:0])
		if err := feed.Receive(ack); err != nil {
			t.Fatal(err)
		}
		for {
			m, ok, err := feed.Append(out[:0])
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			if err := fol.Receive(m); err != nil {
				t.Fatal(err)
			}
		}
		feed.Update()
		if _, err := fol.Advance(time.Second, 100); err != nil {
			t.Fatal(err)
		}
	}
	for range 300 {
		update()
	}
	if a := testing.AllocsPerRun(1000, update); a != 0 {
		t.Errorf("%v allocations per update of a host, its peer and a follower, want 0", a)
	}
	if fol.Tick() < ss[0].Stats().Confirmed-4 {
		t.Errorf("follower at tick %d, host confirmed %d", fol.Tick(), ss[0].Stats().Confirmed)
	}
}
