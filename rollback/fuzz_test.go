package rollback_test

import (
	"testing"
)

// FuzzReceive feeds arbitrary messages to a session between updates: a
// message is taken whole or refused, the session keeps running, and its
// invariants hold: never deeper than the window, never past the window's
// end, the confirmed tick never ahead of the present by more than the
// delay.
func FuzzReceive(f *testing.F) {
	f.Add(message(2, 3))
	f.Add(message(0, 1, [2]uint64{0, 7}))
	f.Add(message(1<<40, 2))
	f.Fuzz(func(t *testing.T, m []byte) {
		a, b := pair(t, 1)
		var msg []byte
		for i := range 30 {
			if _, err := a.Advance(); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Advance(); err != nil {
				t.Fatal(err)
			}
			if i%3 == 0 {
				_ = a.Receive(m)
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
