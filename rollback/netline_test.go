package rollback

import (
	"testing"
	"time"
)

// The net: line counts per real second, falls back to the simulated time
// without one, and takes the transport's wire figures when it has them.
func TestNetLine(t *testing.T) {
	var s PeerStats
	s.Tick, s.Seconds, s.BytesSent, s.BytesReceived, s.Sent, s.Received = 1200, 20, 40000, 20000, 1200, 600
	s.Rollbacks, s.MaxDepth, s.Held, s.Resyncs, s.RTT = 50, 5, 3, 1, 150*time.Millisecond
	for _, c := range []struct {
		real time.Duration
		wire string
		want string
	}{
		{40 * time.Second, "", "net: 1200 ticks in 20.0 s (40.0 s real); messages 1000 B/s sent, 500 B/s received (30.0 and 15.0 a second); 1.25 rollbacks a second, deepest 5 ticks; 3 held; 1 resyncs; round trip 150ms"},
		{0, "", "net: 1200 ticks in 20.0 s (0.0 s real); messages 2000 B/s sent, 1000 B/s received (60.0 and 30.0 a second); 2.50 rollbacks a second, deepest 5 ticks; 3 held; 1 resyncs; round trip 150ms"},
		{40 * time.Second, "wire 9 B/s", "net: 1200 ticks in 20.0 s (40.0 s real); wire 9 B/s; 1.25 rollbacks a second, deepest 5 ticks; 3 held; 1 resyncs; round trip 150ms"},
	} {
		if got := s.NetLine(c.real, c.wire); got != c.want {
			t.Errorf("NetLine(%v, %q):\n got %s\nwant %s", c.real, c.wire, got, c.want)
		}
	}
}

// The confirmed line is what scripts compare between two processes.
func TestConfirmedLine(t *testing.T) {
	if got, want := ConfirmedLine(1199, 0x0123456789abcdef), "confirmed tick 1199 hash 0123456789abcdef"; got != want {
		t.Errorf("ConfirmedLine = %q, want %q", got, want)
	}
}
