package demo

import (
	"fmt"
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

func benchInput() *overlayInput {
	in := &overlayInput{FPS: 59.94, TPS: 60, Bunnies: 12345, Input: []byte("input of tick 300: pressed D x1; down D")}
	in.Timing.Mode = timing.FixedMode
	in.Timing.Recovery = timing.RepayDebt
	in.Timing.Step = 16_666_667
	in.Timing.Debt, in.Timing.DebtTime, in.Timing.Rate = 12, 200*time.Millisecond, 1.25
	in.Timing.Ticks = [timing.NumKinds]uint64{0, 123456, 7}
	in.Timing.Acting, in.Timing.Enabled = timing.MechPacing, timing.MechPacing|timing.MechQuietTicks
	in.Telemetry.WindowPacedFrames = 120
	in.Telemetry.WindowLatenessMedian, in.Telemetry.WindowLatenessP99 = 60*time.Microsecond, 6*time.Millisecond
	return in
}

// BenchmarkOverlayStats formats the overlay's statistics block (refreshed
// four times a second) into a reused buffer, against a baseline that makes
// the same lines with fmt.Appendf, and reports the ratio of their times.
func BenchmarkOverlayStats(b *testing.B) {
	b.ReportAllocs()
	in := benchInput()
	var buf []byte
	measure := func(f func()) time.Duration {
		start := time.Now()
		for range b.N {
			f()
		}
		return time.Since(start)
	}
	var base, ours time.Duration
	for range 3 { // alternate, so load changes touch both alike
		base += measure(func() {
			ts := &in.Timing
			buf = fmt.Appendf(buf[:0], "METRONOME  %s, %s %.2f ms, %s\nFPS %.1f   TPS %.1f   bunnies %d\nupdates: variable %d, fixed %d, catch-up %d\ndebt %d steps (%.2f ms)   rate %.3fx   acting: %s\n",
				in.Mode, ts.Mode, float64(ts.Step)/1e6, ts.Recovery, in.FPS, in.TPS, in.Bunnies, ts.Ticks[0], ts.Ticks[1], ts.Ticks[2], ts.Debt, float64(ts.DebtTime)/1e6, ts.Rate, ts.Acting)
			buf = fmt.Appendf(buf, "dropped %.2f ms   suspended %.2f ms\npacing lateness: median %.2f ms, p99 %.2f ms\npublication skipped: %d frames\n%s\n",
				float64(ts.Dropped)/1e6, float64(ts.Suspended)/1e6, float64(in.Telemetry.WindowLatenessMedian)/1e6, float64(in.Telemetry.WindowLatenessP99)/1e6, in.Runtime.PublicationsSkipped, in.Input)
		})
		ours += measure(func() { buf = appendStats(buf[:0], in) })
	}
	b.ReportMetric(float64(ours.Nanoseconds())/float64(3*b.N), "append-ns/op")
	b.ReportMetric(float64(base.Nanoseconds())/float64(3*b.N), "fmt-baseline-ns/op")
	b.ReportMetric(float64(ours)/float64(base), "append/fmt")
}
