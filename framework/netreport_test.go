package framework

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// fakeFrames is a runtime's present count and telemetry ring for
// presentReport.
type fakeFrames struct {
	presented uint64
	frames    []timing.TelemetryFrame
}

func (f *fakeFrames) Stats() runtime.Stats { return runtime.Stats{FramesPresented: f.presented} }

func (f *fakeFrames) TelemetryFrames(dst []timing.TelemetryFrame) []timing.TelemetryFrame {
	return append(dst, f.frames[max(len(f.frames)-timing.TelemetryWindow, 0):]...)
}

// present adds one present interval.
func (f *fakeFrames) present(d time.Duration) {
	f.presented++
	f.frames = append(f.frames, timing.TelemetryFrame{Interval: d})
}

// newTestReport is a report on a manual clock at a 10 ms step.
// The match ends after ticks (0: no end).
func newTestReport(clock *timing.ManualClock, frames frameSource, ticks int64) *matchReport {
	r := &matchReport{pacing: rollback.NewPacing(clock, 10*time.Millisecond, ticks)}
	r.presents.rt, r.presents.cap = frames, 10*time.Millisecond
	r.presents.frames = make([]timing.TelemetryFrame, 0, timing.TelemetryWindow)
	return r
}

// The pacing line gives what the ticks and presents showed: presents
// before the match ticks are not counted, the advantage settles at the
// last tick it was over one tick (up to a second before the end), a gap of two steps is a whole-frame
// wait (a held update leaves one), and held updates count apart after 2 s.
func TestMatchReportLine(t *testing.T) {
	clock := timing.NewManualClock(0)
	frames := &fakeFrames{}
	r := newTestReport(clock, frames, 450) // --ticks 450: the last second is left out
	frames.present(500 * time.Millisecond) // the window opening: before the match
	r.presents.look(r.pacing.Started())
	var advantage float64
	var tc runtime.TickContext
	for i := range 400 {
		gap := 10 * time.Millisecond
		if i == 300 {
			gap = 25 * time.Millisecond // a whole frame's wait and more, at 3 s
		}
		clock.Advance(gap)
		advantage = 0.5
		if i >= 360 {
			advantage = 4 // the other peer has stopped
		}
		if i < 150 {
			advantage = -1.5 // behind until 1.5 s
		}
		tc.Owed.Held = 0
		if i == 250 {
			tc.Owed.Held = 10 * time.Millisecond // held at 2.5 s
		}
		r.pacing.Record(&tc, advantage)
		frames.present(gap + time.Millisecond)
		if i%50 == 0 {
			r.presents.look(r.pacing.Started())
		}
	}
	var b strings.Builder
	r.write(&b)
	got := b.String()
	if _, tl, _ := strings.Cut(got, "ticks after: "); len(strings.Fields(tl)) != 6 {
		t.Errorf("timeline %q: want 6 stamps, ticks 60 to 360", tl)
	}
	for _, want := range []string{
		"presents 400, longest 26ms of cap 10ms (2.60x)",
		"advantage within 1 tick from 1.50s, worst after 2s 0.50 ticks",
		"ticks longest apart 25ms (2.50 steps, at 2.99s), 2 whole-frame waits", // the held update left a gap too
		"1 held (1 after 2s)",
		"\ntimeline: unix µs at tick 60 and every 60 ticks after: ", // 399 ticks ran: 6 stamps
	} {
		if !strings.Contains(got, want) {
			t.Errorf("pacing line %q lacks %q", got, want)
		}
	}
}

// With no report (not a headless match) there is no line.
func TestNoMatchReportNoLine(t *testing.T) {
	var b strings.Builder
	(*matchReport)(nil).write(&b)
	if b.Len() != 0 {
		t.Errorf("a nil report wrote %q", b.String())
	}
}
