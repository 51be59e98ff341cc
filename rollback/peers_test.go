package rollback_test

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

// A dedicated host is peer 0 of a two-player match and plays no player:
// its session only predicts and confirms the players at peers 1 and 2.
// Over a lossy network every peer reaches the same state, the host
// compares its hashes with the players' and the players with the host's,
// and the host's acknowledgements count, so no input it lost is left
// unsent, also when the host starts a second late: the players hold for
// it rather than let an input it lacks leave their rings.
func TestSeatlessPeerFollowsTheMatch(t *testing.T) {
	for _, start := range []time.Duration{0, time.Second} {
		t.Run(start.String(), func(t *testing.T) { seatless(t, start) })
	}
}

// seatless plays the match with the host starting late by start: the
// players must not run so far ahead that the host loses inputs.
func seatless(t *testing.T, start time.Duration) {
	const n, window, delay, ticks = 3, 8, 2, 900
	nw, err := netsim.NewNetwork(n, netsim.Options{Latency: 30 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	players := []rollback.Player{{Peer: 1, Delay: delay}, {Peer: 2, Delay: delay}}
	peers := make([]peer, n)
	for i := range peers {
		sim := newToy(window)
		s, err := rollback.NewSession(sim, rollback.Options{Self: i, Players: players, Actions: 2, Window: window, HashEvery: 10, Clock: timing.NewManualClock(0)})
		if err != nil {
			t.Fatal(err)
		}
		if i != 0 {
			if err := s.AddPeer(0); err != nil {
				t.Fatal(err)
			}
		}
		peers[i] = peer{s, sim}
	}
	const step = time.Second / 60
	msg, buf := make([]byte, 0, 4096), make([]byte, 64<<10)
	var next [n]time.Duration
	next[0] = start
	for now := time.Duration(0); now < 60*time.Second; now += time.Millisecond {
		done := true
		for i, pr := range peers {
			for j := range peers {
				if i == j {
					continue
				}
				l := nw.Link(j, i)
				for k, ok := l.Receive(timing.Instant(now), buf); ok; k, ok = l.Receive(timing.Instant(now), buf) {
					if err := pr.s.ReceiveFrom(j, buf[:k]); err != nil {
						t.Fatalf("peer %d from %d: %v", i, j, err)
					}
				}
			}
			if pr.s.Stats().Confirmed < ticks {
				done = false
			}
			if now < next[i] {
				continue
			}
			next[i] += step
			if i != 0 {
				script(1, i-1, pr.s.Tick()+delay, pr.s.Local(i-1))
			}
			if _, err := pr.s.Advance(); err != nil {
				t.Fatalf("peer %d: %v", i, err)
			}
			msg = pr.s.AppendMessage(msg[:0])
			for j := range peers {
				if j != i {
					nw.Link(i, j).Send(timing.Instant(now), msg)
				}
			}
		}
		if done {
			break
		}
	}
	for i, p := range peers {
		st := p.s.Stats()
		if st.Confirmed < ticks {
			t.Errorf("peer %d confirmed up to tick %d, want %d: an input was never sent again", i, st.Confirmed, ticks)
		}
		if st.Desyncs != 0 || st.Hashes < ticks/10/2 {
			t.Errorf("peer %d: %d desyncs, %d hashes compared; want none and about %d", i, st.Desyncs, st.Hashes, ticks/10)
		}
	}
	// The toy's state at the confirmed tick is not kept; compare the
	// hashes the sessions compared instead (above), and the present.
	if peers[0].sim.pos[0] == 0 && peers[0].sim.pos[1] == 0 {
		t.Error("the host's simulation never moved a player")
	}
}

func TestAddPeerRefuses(t *testing.T) {
	s, err := rollback.NewSession(newToy(8), rollback.Options{Self: 1, Players: []rollback.Player{{Peer: 1}, {Peer: 2}}, Actions: 2, Window: 8})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		peer int
		want string
	}{{-1, "0 to 63"}, {64, "0 to 63"}, {1, "own"}, {2, "already"}} {
		if err := s.AddPeer(c.peer); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("AddPeer(%d): got %v, want an error saying %q", c.peer, err, c.want)
		}
	}
	if err := s.AddPeer(0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Advance(); err != nil {
		t.Fatal(err)
	}
	if err := s.AddPeer(3); err == nil || !strings.Contains(err.Error(), "started") {
		t.Errorf("AddPeer after Advance: got %v, want an error saying the session started", err)
	}
}

// seatlessUpdates returns a dedicated host (peer 0, no player) and its
// two players, and one update of all three: each advances and takes the
// others' messages of two updates before.
func seatlessUpdates(tb testing.TB) ([3]*rollback.Session, func()) {
	players := []rollback.Player{{Peer: 1, Delay: 2}, {Peer: 2, Delay: 2}}
	var ss [3]*rollback.Session
	for i := range ss {
		sim := newToy(8)
		sim.present = nil
		s, err := rollback.NewSession(sim, rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 1, Clock: timing.NewManualClock(0)})
		if err != nil {
			tb.Fatal(err)
		}
		if i != 0 {
			if err := s.AddPeer(0); err != nil {
				tb.Fatal(err)
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
				tb.Fatal(err)
			}
			slot := n % 2
			if old := inflight[i][slot]; len(old) > 0 {
				for j, r := range ss {
					if j != i {
						if err := r.ReceiveFrom(i, old); err != nil {
							tb.Fatal(err)
						}
					}
				}
			}
			inflight[i][slot] = s.AppendMessage(inflight[i][slot][:0])
		}
		n++
	}
	return ss, update
}

// BenchmarkSeatlessUpdate measures one update of a dedicated host and
// its two players, messages included.
func BenchmarkSeatlessUpdate(b *testing.B) {
	b.ReportAllocs()
	_, update := seatlessUpdates(b)
	for range 200 {
		update()
	}
	for b.Loop() {
		update()
	}
}
