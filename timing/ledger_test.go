package timing_test

import (
	"math"
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

func TestLedgerImbalance(t *testing.T) {
	const maxD = time.Duration(math.MaxInt64)
	s := schStart(t, repayOpts())
	schAdvance(t, s, schAt(1500*msec))
	if err := s.AdjustDebt(-30 * msec); err != nil {
		t.Fatal(err)
	}
	schAdvance(t, s, schAt(1517*msec))
	run := s.Ledger()
	plusSim := run
	plusSim.Simulated++
	lessDrop := run
	lessDrop.DroppedCutoff -= 3
	tests := []struct {
		name         string
		l            timing.Ledger
		want         time.Duration
		wantBalanced bool
	}{
		{"zero", timing.Ledger{}, 0, true},
		{"a scheduler's", run, 0, true},
		{"a nanosecond too much simulated", plusSim, -1, false},
		{"three nanoseconds not dropped", lessDrop, 3, false},
		{"every total in play", timing.Ledger{Real: 100, Adjusted: -10, Simulated: 40, DroppedExcessLag: 1, DroppedCatchUpCap: 2,
			DroppedCutoff: 3, DroppedDropTime: 4, DroppedByHook: 5, Suspended: 6, PendingDebt: 20, PendingRemainder: 9}, 0, true},
		{"ahead", timing.Ledger{Real: 10, Adjusted: -50, Simulated: 10, PendingDebt: -48, PendingRemainder: -2}, 0, true},
		// Real+Adjusted wraps to MinInt64 in int64 and so seems to match
		// Simulated: exact arithmetic sees 2^64 apart and saturates.
		{"a wrap that int64 arithmetic hides", timing.Ledger{Real: maxD, Adjusted: 1, Simulated: math.MinInt64}, maxD, false},
		{"sums past int64 that balance", timing.Ledger{Real: maxD, Adjusted: maxD, DroppedExcessLag: maxD, DroppedCutoff: maxD}, 0, true},
		{"sums past int64 that do not", timing.Ledger{Real: maxD, DroppedExcessLag: maxD, DroppedCutoff: maxD, DroppedByHook: 2}, math.MinInt64, false},
		{"a negative interval", timing.Ledger{Real: -5, Simulated: -5}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.l.Imbalance(); got != tt.want {
				t.Errorf("Imbalance() = %v, want %v", got, tt.want)
			}
			if got := tt.l.Balanced(); got != tt.wantBalanced {
				t.Errorf("Balanced() = %v, want %v", got, tt.wantBalanced)
			}
		})
	}
}
