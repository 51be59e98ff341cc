package framework

import (
	"fmt"
	"io"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// matchReport gathers, over a headless networked run, what a player of
// the match would have seen of its pacing, for the "pacing:" end line
// that scripts/netem.sh checks under loss, jitter and delay: the figures
// the match kept (rollback.Pacing: how soon the frame advantage settled,
// held updates, whole-frame waits, the instants of each second's tick
// for the "timeline:" line) and how evenly frames were presented, which
// the platform thread follows. The line is written after the session
// has ended.
type matchReport struct {
	pacing   *rollback.Pacing
	presents presentReport
	// wall (Unix microseconds) and base are the wall clock and the
	// pacing's clock read together: the timeline is written in wall-clock
	// time, which two peers on one machine share whatever their clocks'
	// origins.
	wall int64
	base timing.Instant
}

// presentReport is the platform side, read from the runtime's frame
// telemetry once per loop cycle.
type presentReport struct {
	rt     frameSource
	cap    time.Duration
	seen   uint64 // FramesPresented at the latest look
	frames []timing.TelemetryFrame
	// longest is the longest interval between two presents since the
	// match began to tick.
	longest time.Duration
	counted uint64
}

// frameSource is where presentReport reads the presents: a
// *runtime.GameRuntime.
type frameSource interface {
	Stats() runtime.Stats
	TelemetryFrames(dst []timing.TelemetryFrame) []timing.TelemetryFrame
}

// reportMatch starts the report of a headless match: the presents are
// read on every platform cycle of rt. Platform thread, before the session
// runs.
func (s *Session) reportMatch(rt *runtime.GameRuntime) error {
	if s.play == nil || s.play.Pacing() == nil {
		return nil // a spectator: no session to pace
	}
	var clock timing.Clock = timing.SystemClock{} // the pacing's, as the session's runtime gives it
	if c := rt.Options().Clock; c != nil {
		clock = c
	}
	r := &matchReport{pacing: s.play.Pacing(), wall: time.Now().UnixMicro(), base: clock.Now()}
	p := &r.presents
	p.rt, p.cap = rt, rt.Options().FrameCap
	p.frames = make([]timing.TelemetryFrame, 0, timing.TelemetryWindow)
	if _, err := rt.Services().Attach(runtime.Maintenance, func(timing.Instant) error {
		p.look(r.pacing.Started())
		return nil
	}); err != nil {
		return err
	}
	s.report = r
	return nil
}

// look takes the presents made since the last look from the telemetry
// ring; counting says whether the match has begun to tick. Platform
// thread.
func (p *presentReport) look(counting bool) {
	n := p.rt.Stats().FramesPresented
	fresh := n - p.seen
	p.seen = n
	if fresh == 0 || !counting {
		return
	}
	p.frames = p.rt.TelemetryFrames(p.frames[:0])
	from := max(len(p.frames)-int(min(fresh, uint64(len(p.frames)))), 0)
	if p.counted == 0 {
		from++ // the first present counted follows one from before the match
	}
	for _, f := range p.frames[min(from, len(p.frames)):] {
		p.longest = max(p.longest, f.Interval)
	}
	p.counted += fresh
}

// write prints the report's line, nothing without a report: once the
// session has ended, so both halves are settled.
//
//	pacing: presents 3580, longest 17.2ms of cap 16.7ms (1.03x); advantage within 1 tick from 0.45s, worst after 2s 0.61 ticks; ticks longest apart 17.5ms (1.05 steps, at 12.40s), 0 whole-frame waits; 0 held (0 after 2s)
//	timeline: unix µs at tick 60 and every 60 ticks after: 1764760011000000 1764760012000150 ...
//
// With no frame cap the presents read "longest 17.2ms with no frame cap".
func (r *matchReport) write(w io.Writer) {
	if r == nil {
		return
	}
	p := &r.presents
	p.look(r.pacing.Started())
	longest := fmt.Sprintf("longest %v with no frame cap", p.longest.Round(10*time.Microsecond))
	if p.cap > 0 {
		longest = fmt.Sprintf("longest %v of cap %v (%.2fx)", p.longest.Round(10*time.Microsecond), p.cap.Round(10*time.Microsecond),
			float64(p.longest)/float64(p.cap))
	}
	pc := r.pacing
	fmt.Fprintf(w, "pacing: presents %d, %s; advantage within 1 tick from %.2fs, worst after %v %.2f ticks; ticks longest apart %v (%.2f steps, at %.2fs), %d whole-frame waits; %d held (%d after %v)\n",
		p.counted, longest,
		pc.SettledFrom().Seconds(), rollback.SettleAfter, pc.Worst,
		pc.Gap.Round(10*time.Microsecond), float64(pc.Gap)/float64(pc.Step()), pc.GapAt.Seconds(), pc.Waits, pc.Held, pc.HeldLate, rollback.SettleAfter)
	if len(pc.Stamps) > 0 {
		fmt.Fprintf(w, "timeline: unix µs at tick %d and every %d ticks after:", rollback.StampEvery, rollback.StampEvery)
		for _, s := range pc.Stamps {
			fmt.Fprintf(w, " %d", r.wall+int64(s-r.base)/1000)
		}
		fmt.Fprintln(w)
	}
}

// writeEnd writes a headless match's last lines: how it ended (the
// confirmed line of a finished match, the outcome in words otherwise),
// the "net:" line of its traffic and rollbacks, and the pacing report.
// After the session.
func (s *Session) writeEnd(w io.Writer) {
	if line, ok := s.finalLine(); ok {
		fmt.Fprintln(w, line)
	}
	if ns, ok := s.NetStats(); ok && ns.Seconds > 0 && s.play != nil {
		fmt.Fprintln(w, s.play.NetLine())
	}
	s.report.write(w)
}
