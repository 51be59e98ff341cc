//go:build !race

package timing_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

func TestAdvanceAllocatesNothing(t *testing.T) {
	for _, m := range benchModes() {
		t.Run(m.name, func(t *testing.T) {
			s := schStart(t, m.opts)
			now := schEpoch
			i := 0
			allocs := testing.AllocsPerRun(500, func() {
				now += timing.Instant(m.gap(i))
				i++
				if _, err := s.Advance(now); err != nil {
					t.Fatal(err)
				}
				_ = s.NextUpdateAt()
				_ = s.Alpha()
				_ = s.Stats()
				_ = s.Ledger()
			})
			if allocs != 0 {
				t.Errorf("%v allocations per Advance, want 0", allocs)
			}
		})
	}
}

func TestHelpersAllocateNothing(t *testing.T) {
	fc, err := timing.NewFrameClock(100 * time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	var w timing.Stopwatch
	var d timing.Deadline
	now := timing.Instant(0)
	allocs := testing.AllocsPerRun(200, func() {
		now += timing.Instant(time.Millisecond)
		fc.Sample(now)
		w.Start(now)
		_, _ = w.Read(now)
		_ = d.Arm(now, time.Millisecond)
		_ = d.Due(now)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per frame of helpers, want 0", allocs)
	}
}
