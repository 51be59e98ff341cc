package netplay

import "testing"

// The wire figures are per second, and the drops add up their reasons.
func TestWireText(t *testing.T) {
	var s Stats
	s.WireSent, s.WireReceived = Traffic{Bytes: 10000, Packets: 122}, Traffic{Bytes: 5000, Packets: 61}
	s.Dropped = Drops{Auth: 1, Malformed: 2, Queue: 4}
	want := "wire 5000 B/s sent, 2500 B/s received (61.0 and 30.5 packets a second); drops 7 (auth 1, unknown 0, slot 0, malformed 2, replayed 0, future 0, oversized 0, queue 4)"
	if got := s.WireText(2); got != want {
		t.Errorf("WireText(2):\n got %s\nwant %s", got, want)
	}
}
