package timing_test

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

func pacedFrame(interval, lateness time.Duration, o timing.PaceOutcome) timing.FrameRecord {
	return timing.FrameRecord{
		Accepted: interval,
		Pace:     timing.PaceResult{Outcome: o, Lateness: lateness, Interval: 16_666_667},
	}
}

func TestTelemetryRingWraps(t *testing.T) {
	var tel timing.Telemetry
	const total = timing.TelemetryWindow + 13
	for i := range total {
		tel.Record(timing.FrameRecord{Accepted: time.Duration(i + 1), Discarded: 1000})
	}
	if got := tel.Len(); got != timing.TelemetryWindow {
		t.Fatalf("Len = %d, want %d", got, timing.TelemetryWindow)
	}
	w := tel.AppendWindow(make([]timing.TelemetryFrame, 0, timing.TelemetryWindow))
	if len(w) != timing.TelemetryWindow {
		t.Fatalf("window has %d frames, want %d", len(w), timing.TelemetryWindow)
	}
	for i, f := range w {
		want := time.Duration(total-timing.TelemetryWindow+i+1) + 1000
		if f.Interval != want {
			t.Fatalf("window[%d].Interval = %v, want %v (oldest first, accepted plus discarded)", i, f.Interval, want)
		}
	}
	s := tel.Stats()
	if s.Frames != total || s.WindowFrames != timing.TelemetryWindow {
		t.Errorf("frames %d, window %d; want %d, %d", s.Frames, s.WindowFrames, total, timing.TelemetryWindow)
	}
	if s.WindowIntervalMin != 1014 || s.WindowIntervalMax != 1133 {
		t.Errorf("window interval min %v max %v, want 1.014µs and 1.133µs", s.WindowIntervalMin, s.WindowIntervalMax)
	}
	// mean of 14..133 is 73.5, rounded down
	if s.WindowIntervalMean != 1073 {
		t.Errorf("window interval mean %v, want 1.073µs", s.WindowIntervalMean)
	}
}

func TestTelemetryPartialWindowAppends(t *testing.T) {
	var tel timing.Telemetry
	for i := range 3 {
		tel.Record(timing.FrameRecord{Accepted: time.Duration(10 * (i + 1))})
	}
	prefix := []timing.TelemetryFrame{{Interval: -1}}
	got := tel.AppendWindow(prefix)
	want := []time.Duration{-1, 10, 20, 30}
	if len(got) != len(want) {
		t.Fatalf("got %d frames, want %d", len(got), len(want))
	}
	for i, f := range got {
		if f.Interval != want[i] {
			t.Errorf("frame %d: interval %v, want %v", i, f.Interval, want[i])
		}
	}
}

func TestTelemetryBaselinesStayOutOfWindow(t *testing.T) {
	var tel timing.Telemetry
	tel.Record(timing.FrameRecord{Baseline: true, Pace: timing.PaceResult{Outcome: timing.PaceBaseline}})
	tel.Record(pacedFrame(16*ms, 100*time.Microsecond, timing.PaceWaited))
	tel.Record(timing.FrameRecord{Regression: true, Pace: timing.PaceResult{Outcome: timing.PaceClockRegression}})
	s := tel.Stats()
	want := timing.TelemetryStats{
		Frames: 3, Baselines: 1, ClockRegressions: 1, Accepted: 16 * ms,
		PacingInterval: 16_666_667, PaceBaseline: 1, PaceWaited: 1, PaceClockRegression: 1,
		LastOutcome:  timing.PaceClockRegression,
		WindowFrames: 1, WindowIntervalMin: 16 * ms, WindowIntervalMean: 16 * ms, WindowIntervalMax: 16 * ms,
		WindowPacedFrames: 1, WindowLatenessMin: 100 * time.Microsecond, WindowLatenessMean: 100 * time.Microsecond,
		WindowLatenessMedian: 100 * time.Microsecond, WindowLatenessP90: 100 * time.Microsecond,
		WindowLatenessP99: 100 * time.Microsecond, WindowLatenessMax: 100 * time.Microsecond,
	}
	if s != want {
		t.Errorf("got  %+v\nwant %+v", s, want)
	}
}

func TestTelemetryTotals(t *testing.T) {
	var tel timing.Telemetry
	tel.Record(timing.FrameRecord{
		Accepted: 10 * ms, Discarded: 5 * ms,
		Work: timing.Work{Ticks: [timing.NumKinds]int{1, 2, 3}, Dropped: 3 * ms, Suspended: 7 * ms},
		Debt: 40 * ms, Rate: 1.25,
		Pace: timing.PaceResult{Outcome: timing.PaceLate, Skipped: 2, EarlyWakes: 0, Lateness: 25 * ms, Interval: 10 * ms},
	})
	tel.Record(timing.FrameRecord{
		Accepted: -5 * ms, Work: timing.Work{Ticks: [timing.NumKinds]int{timing.FixedUpdate: -4}}, Debt: -2 * ms, Rate: math.NaN(),
		Pace: timing.PaceResult{Outcome: timing.PaceWaitLimit, EarlyWakes: 8, Lateness: -ms, Interval: 10 * ms},
	})
	tel.Record(timing.FrameRecord{Accepted: 10 * ms, Debt: -2 * ms, Pace: timing.PaceResult{Outcome: timing.PaceDeadline, Lateness: -3 * ms}})
	s := tel.Stats()
	checks := []struct {
		name      string
		got, want any
	}{
		{"accepted", s.Accepted, 20 * ms},
		{"discarded", s.Discarded, 5 * ms},
		{"debt is the latest", s.Debt, -2 * ms},
		{"NaN rate keeps the last rate", s.Rate, 1.25},
		{"skipped targets", s.SkippedTargets, uint64(2)},
		{"early wakes", s.EarlyWakes, uint64(8)},
		{"late", s.PaceLate, uint64(1)},
		{"wait limit", s.PaceWaitLimit, uint64(1)},
		{"deadline counts as unpaced", s.PaceUnpaced, uint64(1)},
		{"last outcome", s.LastOutcome, timing.PaceNone},
		{"paced frames in window", s.WindowPacedFrames, 2},
		{"lateness min", s.WindowLatenessMin, -ms},
		{"lateness max", s.WindowLatenessMax, 25 * ms},
		{"lateness mean", s.WindowLatenessMean, 12 * ms},
		{"negative accepted is zero", s.WindowIntervalMin, time.Duration(0)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	w := tel.AppendWindow(nil)
	if w[2].Lateness != 0 || w[2].Paced() {
		t.Errorf("unpaced frame in window: %+v, want zero lateness and not paced", w[2])
	}
	if w[0].Ticks != 6 || w[1].Ticks != 0 {
		t.Errorf("window ticks %d and %d, want 6 (every kind) and 0 (negative counts are zero)", w[0].Ticks, w[1].Ticks)
	}
}

func TestTelemetrySaturates(t *testing.T) {
	var tel timing.Telemetry
	huge := time.Duration(1 << 52)
	for range 3 {
		tel.Record(timing.FrameRecord{
			Accepted: huge, Discarded: math.MaxInt64, Work: timing.Work{Ticks: [timing.NumKinds]int{math.MaxInt, math.MaxInt, 1}},
			Pace: timing.PaceResult{Outcome: timing.PaceLate, Skipped: math.MaxInt64, Interval: 1},
		})
	}
	s := tel.Stats()
	const max = timing.MaxTelemetryCount
	if s.Accepted != max || s.Discarded != max || s.SkippedTargets != max {
		t.Errorf("totals did not saturate at 2^53-1: %+v", s)
	}
	if s.Frames != 3 {
		t.Errorf("frames = %d, want 3", s.Frames)
	}
	if s.WindowIntervalMax != max {
		t.Errorf("window interval max %d, want saturated %d", s.WindowIntervalMax, int64(max))
	}
}

func TestTelemetryLatenessPercentiles(t *testing.T) {
	var tel timing.Telemetry
	// 100 paced frames with lateness 1..100 µs in shuffled order, plus
	// unpaced frames that must not count.
	for i := range 100 {
		l := time.Duration((i*37)%100+1) * time.Microsecond
		tel.Record(pacedFrame(16*ms, l, timing.PaceWaited))
		if i%10 == 0 {
			tel.Record(timing.FrameRecord{Accepted: 16 * ms})
		}
	}
	s := tel.Stats()
	us := time.Microsecond
	tests := []struct {
		name      string
		got, want time.Duration
	}{
		{"min", s.WindowLatenessMin, us},
		{"median", s.WindowLatenessMedian, 50 * us},
		{"p90", s.WindowLatenessP90, 90 * us},
		{"p99", s.WindowLatenessP99, 99 * us},
		{"max", s.WindowLatenessMax, 100 * us},
		{"mean", s.WindowLatenessMean, 50500 * time.Nanosecond},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if s.WindowFrames != 110 || s.WindowPacedFrames != 100 {
		t.Errorf("window %d paced %d, want 110 and 100", s.WindowFrames, s.WindowPacedFrames)
	}
}

func TestNearestRank(t *testing.T) {
	d := []time.Duration{10, 20, 30, 40}
	tests := []struct {
		p    float64
		want time.Duration
	}{{0, 10}, {25, 10}, {26, 20}, {50, 20}, {51, 30}, {99, 40}, {100, 40}, {150, 40}, {-5, 10}}
	for _, tt := range tests {
		if got := timing.NearestRank(d, tt.p); got != tt.want {
			t.Errorf("NearestRank(p=%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if got := timing.NearestRank(nil, 50); got != 0 {
		t.Errorf("NearestRank(empty) = %v, want 0", got)
	}
}

func TestTelemetryStatsJSON(t *testing.T) {
	var tel timing.Telemetry
	tel.Record(timing.FrameRecord{Baseline: true, Pace: timing.PaceResult{Outcome: timing.PaceBaseline, Interval: 16_666_667}})
	tel.Record(pacedFrame(16_700_000, 120_000, timing.PaceWaited))
	tel.Record(pacedFrame(16_600_000, 80_000, timing.PaceWaitFailed))
	b, err := json.Marshal(tel.Stats())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"frames": 3.0, "baselines": 1.0, "pacing_interval_ns": 16666667.0,
		"pace_waited": 1.0, "pace_wait_failed": 1.0, "pace_baseline": 1.0,
		"last_outcome": "wait_failed", "window_frames": 2.0,
		"window_interval_min_ns": 16600000.0, "window_interval_mean_ns": 16650000.0, "window_interval_max_ns": 16700000.0,
		"window_lateness_median_ns": 80000.0, "window_lateness_p99_ns": 120000.0, "accepted_ns": 33300000.0,
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	// Debt and Rate are left to the scheduler's statistics.
	if len(m) != 29 {
		t.Errorf("JSON has %d fields, want 29: %s", len(m), b)
	}
	var back timing.TelemetryStats
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("decoding the report: %v", err)
	}
	if back != tel.Stats() {
		t.Errorf("round trip changed the stats:\n got %+v\nwant %+v", back, tel.Stats())
	}
	var o timing.PaceOutcome
	if err := json.Unmarshal([]byte(`"sometimes"`), &o); err == nil {
		t.Error("unknown outcome name decoded without error")
	}
}

func TestTelemetryReset(t *testing.T) {
	var tel timing.Telemetry
	tel.Record(pacedFrame(16*ms, 0, timing.PaceWaited))
	tel.Reset()
	if s := tel.Stats(); s != (timing.TelemetryStats{}) {
		t.Errorf("after Reset: %+v", s)
	}
}

func ExampleTelemetry() {
	var tel timing.Telemetry
	clock := &fixedClock{}
	pacer, _ := timing.NewFramePacer(timing.PacingForRate(60), clock, clock)
	prev := timing.Instant(0)
	for frame := range 30 {
		r := pacer.Pace()
		rec := timing.FrameRecord{Pace: r}
		rec.Ticks[timing.FixedUpdate] = 1
		if frame == 0 {
			rec.Baseline = true
		} else {
			rec.Accepted = time.Duration(r.Wake - prev)
		}
		prev = r.Wake
		tel.Record(rec)
		clock.now += timing.Instant(5 * time.Millisecond) // the frame's work
	}
	s := tel.Stats()
	ticks := 0
	for _, f := range tel.AppendWindow(nil) {
		ticks += f.Ticks
	}
	fmt.Printf("%d frames, %d in the window, %d ticks in it\n", s.Frames, s.WindowFrames, ticks)
	fmt.Printf("interval min %v max %v\n", s.WindowIntervalMin, s.WindowIntervalMax)
	fmt.Printf("lateness median %v p99 %v\n", s.WindowLatenessMedian, s.WindowLatenessP99)
	// Output:
	// 30 frames, 29 in the window, 29 ticks in it
	// interval min 16.666667ms max 16.966667ms
	// lateness median 300µs p99 300µs
}

func TestFrameRecordHelpers(t *testing.T) {
	var r timing.FrameRecord
	r.SetSample(timing.FrameSample{Elapsed: 250 * ms, Discarded: 50 * ms})
	r.Add(timing.Work{Ticks: [timing.NumKinds]int{0, 2, 1}, Dropped: 3 * ms, Suspended: ms})
	r.Add(timing.Work{Ticks: [timing.NumKinds]int{1, 0, 0}, Dropped: ms})
	want := timing.FrameRecord{Accepted: 250 * ms, Discarded: 50 * ms, Work: timing.Work{Ticks: [timing.NumKinds]int{1, 2, 1}, Dropped: 4 * ms, Suspended: ms}}
	if r != want {
		t.Errorf("got  %+v\nwant %+v", r, want)
	}
	r.SetSample(timing.FrameSample{Baseline: true})
	if !r.Baseline || r.Accepted != 0 || r.Discarded != 0 {
		t.Errorf("baseline sample: %+v", r)
	}
}

func TestTelemetryFrameJSON(t *testing.T) {
	b, err := json.Marshal(timing.TelemetryFrame{Interval: 16_666_667, Lateness: -20, Outcome: timing.PaceLate, Ticks: 2, Debt: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"interval_ns":16666667,"lateness_ns":-20,"outcome":"late","ticks":2,"debt_ns":5}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestTelemetryWindowAtEveryFill(t *testing.T) {
	const w = timing.TelemetryWindow
	for _, n := range []int{0, 1, w - 1, w, w + 1, 2*w - 1, 2 * w, 2*w + 1} {
		var tel timing.Telemetry
		for i := range n {
			tel.Record(timing.FrameRecord{Accepted: time.Duration(i)})
		}
		got := tel.AppendWindow(nil)
		if len(got) != min(n, w) {
			t.Fatalf("%d frames: window has %d, want %d", n, len(got), min(n, w))
		}
		for i, f := range got {
			if want := time.Duration(n - len(got) + i); f.Interval != want {
				t.Fatalf("%d frames: window[%d] = %v, want %v", n, i, f.Interval, want)
			}
		}
	}
}
