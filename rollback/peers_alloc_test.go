//go:build !race

package rollback_test

import (
	"testing"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/timing"
)

// A dedicated host (peer 0, no player) and its two players exchanging
// messages, each held back two updates: steady state allocates nothing on
// either side.
func TestSeatlessUpdateAllocatesNothing(t *testing.T) {
	players := []rollback.Player{{Peer: 1, Delay: 2}, {Peer: 2, Delay: 2}}
	var ss [3]*rollback.Session
	for i := range ss {
		sim := newToy(8)
		sim.present = nil
		s, err := rollback.NewSession(sim, rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 1, Clock: timing.NewManualClock(0)})
		if err != nil {
			t.Fatal(err)
		}
		if i != 0 {
			if err := s.AddPeer(0); err != nil {
				t.Fatal(err)
			}
		}
		ss[i] = s
	}
	var inflight [3][2][]byte
	for i := range inflight {
		for j := range inflight[i] {
			inflight[i][j] = make([]byte, 0, 4096)
		}
	}
	n := 0
	update := func() {
		for i, s := range ss {
			if i != 0 {
				script(3, i-1, s.Tick()+2, s.Local(i-1))
			}
			if _, err := s.Advance(); err != nil {
				t.Fatal(err)
			}
			slot := n % 2
			if old := inflight[i][slot]; len(old) > 0 {
				for j, r := range ss {
					if j != i {
						if err := r.ReceiveFrom(i, old); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			inflight[i][slot] = s.AppendMessage(inflight[i][slot][:0])
		}
		n++
	}
	for range 200 {
		update()
	}
	if a := testing.AllocsPerRun(500, update); a != 0 {
		t.Errorf("%v allocations per update of a host and two players, want 0", a)
	}
	if st := ss[0].Stats(); st.Hashes == 0 || st.Desyncs != 0 || st.Confirmed < 600 {
		t.Errorf("host: %d hashes compared, %d desyncs, confirmed to %d; want hashes, no desync, 600 or more", st.Hashes, st.Desyncs, st.Confirmed)
	}
}
