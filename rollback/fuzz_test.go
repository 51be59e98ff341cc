package rollback_test

import (
	"errors"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
)

// FuzzReceive feeds arbitrary messages to a host and a joiner between
// updates: a message is taken whole or refused, the host keeps running
// (the joiner too, unless a message it took says the host fills its
// player: then it stops with ErrResync), and the host's invariants
// hold: never deeper than the window, never past the window's end, the
// confirmed tick never ahead of the present by more than the delay.
func FuzzReceive(f *testing.F) {
	f.Add(message(2, 3))
	f.Add(message(0, 1, [2]uint64{0, 7}))
	f.Add(message(1<<40, 2))
	f.Add(fillMessage(0, 1, 2))
	f.Fuzz(func(t *testing.T, m []byte) {
		a, b := pair(t, 1)
		var msg []byte
		for i := range 30 {
			if _, err := a.Advance(); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Advance(); errors.Is(err, rollback.ErrResync) {
				return
			} else if err != nil {
				t.Fatal(err)
			}
			switch i % 3 {
			case 0:
				_ = a.Receive(m)
			case 1:
				_ = b.Receive(m)
			}
			msg = b.AppendMessage(msg[:0])
			if err := a.Receive(msg); err != nil {
				t.Fatalf("a genuine message refused: %v", err)
			}
			st := a.Stats()
			if st.MaxDepth > 8 || st.Tick-st.Confirmed > 8 {
				t.Fatalf("depth %d, %d ticks past confirmed; window 8", st.MaxDepth, st.Tick-st.Confirmed)
			}
		}
	})
}

// FuzzCatchUp feeds arbitrary catch-up messages (inputs, snapshot
// chunks) and acknowledgements to followers and a feed: each is taken
// whole or refused, a follower never runs past what it received, and
// one whose state travels loads only a whole, genuine snapshot.
func FuzzCatchUp(f *testing.F) {
	f.Add(catchUpMessage(f))
	f.Add(firstFeedMessage(f, true))
	f.Add([]byte("MA\x02\x05\x00\x00"))
	f.Add([]byte("MA\x02\x00\x01\x01"))
	f.Fuzz(func(t *testing.T, m []byte) {
		spec := newToy(0)
		for _, sim := range []rollback.Simulation{newToy(0), travels{spec, spec}} {
			fol, err := rollback.NewFollower(sim, 2, 2, 10, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			_ = fol.Receive(m)
			if _, err := fol.Advance(time.Second, 10000); err != nil {
				t.Fatal(err)
			}
			st := fol.Stats()
			if st.Tick > st.Received {
				t.Fatalf("follower at tick %d past the %d received", st.Tick, st.Received)
			}
			if st.StateBytes != 0 && st.StateBytes != toyStateBytes {
				t.Fatalf("loaded a snapshot of %d bytes; the toy's are %d", st.StateBytes, toyStateBytes)
			}
		}
		players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 0, Delay: 2}}
		s, err := rollback.NewSession(newToy(8), rollback.Options{Players: players, Actions: 2, Window: 8, LogBytes: 1 << 12})
		if err != nil {
			t.Fatal(err)
		}
		feed := s.NewFeed(0)
		_ = feed.Receive(m)
		for range 3 {
			if _, err := s.Advance(); err != nil {
				t.Fatal(err)
			}
			if msg, ok, err := feed.Append(nil); err != nil {
				t.Fatal(err)
			} else if ok && len(msg) > rollback.MaxMessage {
				t.Fatalf("message of %d bytes", len(msg))
			}
		}
	})
}
