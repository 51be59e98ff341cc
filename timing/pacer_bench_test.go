package timing_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// BenchmarkPace measures one pacing decision with a synthetic clock whose
// waits return at once.
func BenchmarkPace(b *testing.B) {
	fc := &fixedClock{}
	p, err := timing.NewFramePacer(timing.PacingForRate(60), fc, fc)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		p.Pace()
	}
}

// BenchmarkWaitOverhead compares the cost of a native WaitUntil whose
// target has passed (timer slack, wake check, one clock read) with a bare
// clock read, the baseline.
func BenchmarkWaitOverhead(b *testing.B) {
	b.Run("baseline=Now", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = timing.Now()
		}
	})
	for name, w := range map[string]timing.Waiter{
		"nanosleep": mustWaiter(b, timing.DefaultWaitSlice),
		"futex":     timing.NewFutexWaiter(),
		"timer":     timing.NewTimerWaiter(nil),
	} {
		b.Run(name+"/passed", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = w.WaitUntil(0)
			}
		})
		b.Run(name+"/woken", func(b *testing.B) {
			b.ReportAllocs()
			far := timing.Now() + timing.Instant(time.Hour)
			for b.Loop() {
				w.Wake()
				_ = w.WaitUntil(far)
			}
		})
	}
}

func mustWaiter(b *testing.B, slice time.Duration) *timing.OSWaiter {
	w, err := timing.NewOSWaiter(slice)
	if err != nil {
		b.Fatal(err)
	}
	return w.(*timing.OSWaiter)
}
