package rollback

import (
	"fmt"
	"strings"
	"time"
)

// NetLine says s as a match's "net:" end line, per real second of the
// match (real; the simulated time when real is 0): ticks and time, the
// traffic, then rollbacks, the deepest rollback, held ticks, resyncs and
// the round trip. wire is the transport's own account of its traffic
// (netplay.Stats.WireText: bytes on the wire, drops by reason); without
// one the line counts the match's messages instead. Kept beside
// PeerStats so a new counter and its words change in one package.
//
//	net: 1200 ticks in 20.0 s (20.1 s real); wire ...; 2.10 rollbacks a second, deepest 5 ticks; 3 held; 0 resyncs; round trip 150ms
func (s PeerStats) NetLine(real time.Duration, wire string) string {
	secs := real.Seconds()
	if secs <= 0 {
		secs = s.Seconds
	}
	var b strings.Builder
	fmt.Fprintf(&b, "net: %d ticks in %.1f s (%.1f s real); ", s.Tick, s.Seconds, real.Seconds())
	if wire != "" {
		b.WriteString(wire)
		b.WriteString("; ")
	} else {
		fmt.Fprintf(&b, "messages %.0f B/s sent, %.0f B/s received (%.1f and %.1f a second); ",
			float64(s.BytesSent)/secs, float64(s.BytesReceived)/secs, float64(s.Sent)/secs, float64(s.Received)/secs)
	}
	fmt.Fprintf(&b, "%.2f rollbacks a second, deepest %d ticks; %d held; %d resyncs; round trip %v", float64(s.Rollbacks)/secs, s.MaxDepth, s.Held, s.Resyncs, s.RTT)
	return b.String()
}

// ConfirmedLine is the line a headless match ends with when it finished,
// for a script to compare two processes: the last confirmed tick hashed
// and its world hash, the same on every peer of a match in sync.
//
//	confirmed tick 1199 hash 0123456789abcdef
func ConfirmedLine(tick int64, hash uint64) string {
	return fmt.Sprintf("confirmed tick %d hash %016x", tick, hash)
}
