//go:build !race

package timing_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

func TestTelemetryAllocs(t *testing.T) {
	var tel timing.Telemetry
	rec := pacedFrame(16*ms, 200*time.Microsecond, timing.PaceWaited)
	rec.Ticks[timing.FixedUpdate] = 2
	if n := testing.AllocsPerRun(1000, func() { tel.Record(rec) }); n != 0 {
		t.Errorf("Record allocates %v times per call, want 0", n)
	}
	buf := make([]timing.TelemetryFrame, 0, timing.TelemetryWindow)
	if n := testing.AllocsPerRun(100, func() { buf = tel.AppendWindow(buf[:0]) }); n != 0 {
		t.Errorf("AppendWindow into a full-size buffer allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = tel.Stats() }); n != 0 {
		t.Errorf("Stats allocates %v times, want 0", n)
	}
}

func TestPacerAllocs(t *testing.T) {
	fc := &fixedClock{}
	p, err := timing.NewFramePacer(timing.PacingForRate(60), fc, fc)
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(1000, func() { p.Pace() }); n != 0 {
		t.Errorf("Pace allocates %v times per call, want 0", n)
	}
}

func TestWaiterAllocs(t *testing.T) {
	for name, w := range waiters(t) {
		if n := testing.AllocsPerRun(20, func() {
			_ = w.WaitUntil(timing.Now() + timing.Instant(20*time.Microsecond))
		}); n != 0 {
			t.Errorf("%s: WaitUntil allocates %v times per call, want 0", name, n)
		}
		if n := testing.AllocsPerRun(20, func() {
			w.Wake()
			_ = w.WaitUntil(timing.Now() + timing.Instant(time.Hour))
		}); n != 0 {
			t.Errorf("%s: Wake and an interrupted WaitUntil allocate %v times, want 0", name, n)
		}
	}
}
