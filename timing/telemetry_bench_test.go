package timing_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// BenchmarkTelemetry compares Record, the per-frame cost, with Stats, the
// on-request cost over a full window, and with copying the window out.
func BenchmarkTelemetry(b *testing.B) {
	rec := pacedFrame(16*ms, 150*time.Microsecond, timing.PaceWaited)
	rec.Ticks[timing.FixedUpdate] = 1
	b.Run("Record", func(b *testing.B) {
		var tel timing.Telemetry
		b.ReportAllocs()
		for b.Loop() {
			tel.Record(rec)
		}
	})
	var full timing.Telemetry
	for i := range timing.TelemetryWindow {
		rec.Pace.Lateness = time.Duration(i*7919%500) * time.Microsecond
		full.Record(rec)
	}
	b.Run("Stats", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = full.Stats()
		}
	})
	b.Run("AppendWindow", func(b *testing.B) {
		buf := make([]timing.TelemetryFrame, 0, timing.TelemetryWindow)
		b.ReportAllocs()
		for b.Loop() {
			buf = full.AppendWindow(buf[:0])
		}
	})
}
