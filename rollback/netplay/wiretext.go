package netplay

import "fmt"

// WireText says s's traffic per second of secs for a match's "net:" line
// (rollback.PeerStats.NetLine): bytes and packets on the wire each way,
// then the drops, in all and by reason.
func (s Stats) WireText(secs float64) string {
	d := s.Dropped
	return fmt.Sprintf("wire %.0f B/s sent, %.0f B/s received (%.1f and %.1f packets a second); drops %d (auth %d, unknown %d, slot %d, malformed %d, replayed %d, future %d, oversized %d, queue %d)",
		float64(s.WireSent.Bytes)/secs, float64(s.WireReceived.Bytes)/secs, float64(s.WireSent.Packets)/secs, float64(s.WireReceived.Packets)/secs,
		d.Auth+d.Unknown+d.Slot+d.Malformed+d.Replayed+d.Future+d.Oversized+d.Queue, d.Auth, d.Unknown, d.Slot, d.Malformed, d.Replayed, d.Future, d.Oversized, d.Queue)
}
