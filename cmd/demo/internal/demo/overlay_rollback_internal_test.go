package demo

import (
	"strings"
	"testing"
	"time"
)

// The overlay shows rollback's share of the debt once there is one, and
// nothing of it in a session without rollback.
func TestOverlayShowsRollbackDebt(t *testing.T) {
	in := overlayInput{FPS: 60, TPS: 60}
	if s := string(appendStats(nil, &in)); strings.Contains(s, "rollback") {
		t.Errorf("a session without rollback shows %q", s)
	}
	in.Timing.Resimulated = 42
	in.Timing.Ledger.Resimulation = 3 * time.Millisecond
	in.Timing.Ledger.Advantage = -33 * time.Millisecond
	s := string(appendStats(nil, &in))
	if !strings.Contains(s, "rollback: resimulated 42 ticks (3") || !strings.Contains(s, "advantage debt -33") {
		t.Errorf("overlay %q does not show 42 resimulated ticks, 3 ms and -33 ms of advantage", s)
	}
}
