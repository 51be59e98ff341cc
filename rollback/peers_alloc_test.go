//go:build !race

package rollback_test

import "testing"

// A dedicated host (peer 0, no player) and its two players exchanging
// messages, each held back two updates: steady state allocates nothing on
// either side.
func TestSeatlessUpdateAllocatesNothing(t *testing.T) {
	ss, update := seatlessUpdates(t)
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
