//go:build !race

package timing_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// The platform thread waits once per frame: every system's native wait,
// and a Wake that cuts one short, must allocate nothing.
func TestWaitUntilAllocatesNothing(t *testing.T) {
	for name, w := range waiters(t) {
		allocs := testing.AllocsPerRun(50, func() {
			if err := w.WaitUntil(timing.Now() + timing.Instant(50*time.Microsecond)); err != nil {
				t.Fatalf("%s: WaitUntil: %v", name, err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: WaitUntil allocates %v times per wait, want 0", name, allocs)
		}
		allocs = testing.AllocsPerRun(50, func() {
			w.Wake()
			if err := w.WaitUntil(timing.Now() + timing.Instant(time.Second)); err != timing.ErrWaitInterrupted {
				t.Fatalf("%s: WaitUntil after Wake = %v, want ErrWaitInterrupted", name, err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: Wake and WaitUntil allocate %v times, want 0", name, allocs)
		}
	}
}
