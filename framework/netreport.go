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
// that scripts/netem.sh checks under loss, jitter and delay
// (rollback.Pacing.WriteLines): the figures the match kept and how
// evenly frames were presented (runtime.PresentWatch), which the
// platform thread follows. The line is written after the session has
// ended.
type matchReport struct {
	pacing   *rollback.Pacing
	presents *runtime.PresentWatch
	cap      time.Duration
	// wall (Unix microseconds) and base are the wall clock and the
	// pacing's clock read together, for the timeline's wall-clock time.
	wall int64
	base timing.Instant
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
	r := &matchReport{pacing: s.play.Pacing(), presents: runtime.NewPresentWatch(rt), cap: rt.Options().FrameCap,
		wall: time.Now().UnixMicro(), base: clock.Now()}
	if _, err := rt.Services().Attach(runtime.Maintenance, func(timing.Instant) error {
		r.presents.Look(r.pacing.Started())
		return nil
	}); err != nil {
		return err
	}
	s.report = r
	return nil
}

// write prints the report's lines, nothing without a report: once the
// session has ended, so both halves are settled.
func (r *matchReport) write(w io.Writer) {
	if r == nil {
		return
	}
	r.presents.Look(r.pacing.Started())
	r.pacing.WriteLines(w, r.presents.Count(), r.presents.Longest(), r.cap, r.wall, r.base)
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
