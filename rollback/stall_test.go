package rollback_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

// A peer that stops for 5 s (no updates, nothing received) while the
// other plays on: the other holds at its window, the stalled one then
// runs its owed updates, and the two go on in step with no desync. With
// two peers nothing confirmed leaves the messages during a stall, since
// neither runs more than its window past the other's inputs.
func TestAStalledPeerRecovers(t *testing.T) {
	nw, err := netsim.NewNetwork(2, netsim.Options{Latency: 30 * time.Millisecond, Loss: 0.05, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	var ss [2]*rollback.Session
	for i := range ss {
		if ss[i], err = rollback.NewSession(newToy(8), rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 10, Clock: timing.NewManualClock(0)}); err != nil {
			t.Fatal(err)
		}
	}
	msg, buf := make([]byte, 0, 4096), make([]byte, 64<<10)
	next := [2]time.Duration{}
	for now := time.Duration(0); now < 20*time.Second; now += time.Millisecond {
		at := timing.Instant(now)
		stalled := now > 3*time.Second && now < 8*time.Second
		for i, s := range ss {
			if i == 1 && stalled {
				continue
			}
			for n, ok := nw.Link(1-i, i).Receive(at, buf); ok; n, ok = nw.Link(1-i, i).Receive(at, buf) {
				if err := s.Receive(buf[:n]); err != nil {
					t.Fatalf("peer %d: %v", i, err)
				}
			}
			for now >= next[i] {
				next[i] += time.Second / 60
				script(1, i, s.Tick()+2, s.Local(i))
				if _, err := s.Advance(); err != nil {
					t.Fatal(err)
				}
				msg = s.AppendMessage(msg[:0])
				nw.Link(i, 1-i).Send(at, msg)
			}
		}
	}
	for i, s := range ss {
		st := s.Stats()
		if st.Desyncs != 0 || st.Hashes < 80 || st.Confirmed < 900 {
			t.Errorf("peer %d: %d desyncs in %d hashes, confirmed up to %d; want none, most of 90 and 900", i, st.Desyncs, st.Hashes, st.Confirmed)
		}
		t.Logf("peer %d: %+v", i, st)
	}
	// Peer 0 held through most of the 5 s (300 updates) its peer stalled.
	if held := ss[0].Stats().Held; held < 250 {
		t.Errorf("peer 0 held %d updates while peer 1 stalled for 300; want at least 250", held)
	}
}
