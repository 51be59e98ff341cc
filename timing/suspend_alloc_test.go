//go:build !race

package timing_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

func TestSuspendAllocatesNothing(t *testing.T) {
	for _, m := range benchModes() {
		t.Run(m.name, func(t *testing.T) {
			s := schStart(t, m.opts)
			now := schEpoch
			i := 0
			allocs := testing.AllocsPerRun(200, func() {
				now += timing.Instant(m.gap(i))
				i++
				if err := s.Suspend(now); err != nil {
					t.Fatal(err)
				}
				now += timing.Instant(time.Millisecond)
				if _, err := s.Advance(now); err != nil {
					t.Fatal(err)
				}
				now += timing.Instant(time.Millisecond)
				if err := s.Resume(now); err != nil {
					t.Fatal(err)
				}
				if _, err := s.Advance(now); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations per suspension, want 0", allocs)
			}
		})
	}
}
