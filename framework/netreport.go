package framework

import (
	"fmt"
	"io"
	"math"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// settleAfter is when a match's frame advantage must have settled: issue
// 26 asks for it within one tick 2 s into the match.
const settleAfter = 2 * time.Second

// matchReport gathers, over a headless networked run, what a player of
// the match would have seen of its pacing, for the "pacing:" end line
// that scripts/netem.sh checks under loss, jitter and delay: how evenly
// frames were presented, how soon the frame advantage settled, and
// whether the simulation ever stood still for a whole frame; and the
// "timeline:" line of when the session reached each second's tick. Its two
// halves belong to the two owners: ticks to the simulation, presents to
// the platform thread; the line is written after the session has ended.
type matchReport struct {
	ticks    tickReport
	presents presentReport
}

// tickReport is the simulation side: one call per update.
type tickReport struct {
	clock timing.Clock
	step  time.Duration
	// last is the real time of the latest update that ran a tick; gap the
	// longest real time between two of them, and waits how many of those
	// intervals reached two steps (the simulation stood still a whole
	// frame).
	last  timing.Instant
	ran   bool
	gap   time.Duration
	gapAt time.Duration // simulated time of the tick that ended it
	waits uint64
	// held counts updates the session held at its prediction window's
	// end, and heldLate those after settleAfter.
	held, heldLate uint64
	// outside is the simulated time of the latest tick whose smoothed
	// advantage was more than one tick; worst the largest advantage
	// after settleAfter, in ticks either way.
	outside time.Duration
	worst   float64
	// until ends the advantage's figures a second before the last tick
	// asked for (--ticks): the peers stop at slightly different instants,
	// and the one still running sees the other's tick stand still.
	until time.Duration
	// started tells the platform side that the match ticks, so presents
	// before it (the window opening, the join) are not counted.
	started atomic.Bool
	// stamps are the wall-clock times (Unix microseconds) of the updates
	// that ran each multiple of stampEvery ticks, for the
	// "timeline:" line: two peers on one machine share the wall clock,
	// so the difference of their stamps is their true frame advantage,
	// with no estimate's noise (scripts/netem.sh compares them).
	stamps []int64
}

// stampEvery is how many ticks apart the timeline's stamps are (a second
// at 60 Hz), and maxStamps how many it keeps (ten minutes).
const (
	stampEvery = 60
	maxStamps  = 600
)

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
	if s.match == nil || s.match.Spectator {
		return nil // a spectator: no session to pace
	}
	step := matchStep(s.cfg.Timing)
	r := &matchReport{}
	r.ticks.clock, r.ticks.step = rt.Options().Clock, step
	r.ticks.until = time.Duration(math.MaxInt64)
	r.ticks.stamps = make([]int64, 0, maxStamps) // a tick appends without allocating
	if s.stopAfter > 0 {
		r.ticks.until = time.Duration(s.stopAfter)*step - time.Second
	}
	if r.ticks.clock == nil {
		r.ticks.clock = timing.SystemClock{} // the runtime's default
	}
	p := &r.presents
	p.rt, p.cap = rt, rt.Options().FrameCap
	p.frames = make([]timing.TelemetryFrame, 0, timing.TelemetryWindow)
	if _, err := rt.Services().Attach(runtime.Maintenance, func(timing.Instant) error {
		p.look(r.ticks.started.Load())
		return nil
	}); err != nil {
		return err
	}
	s.report = r
	return nil
}

// tick records one update of the match: t after it ran, with the
// match's figures st. Simulation
// owner.
func (r *tickReport) tick(t *runtime.TickContext, st rollback.PeerStats) {
	r.record(t, int64(math.Round(st.Seconds/r.step.Seconds())), st.Advantage)
}

// record records one update that left the match having run ticks ticks,
// with the smoothed frame advantage.
func (r *tickReport) record(t *runtime.TickContext, ticks int64, advantage float64) {
	at := time.Duration(ticks) * r.step
	if t.Owed.Held != 0 {
		r.held++
		if at >= settleAfter {
			r.heldLate++
		}
		return
	}
	if k := ticks + 1; k%stampEvery == 0 && len(r.stamps) < maxStamps {
		r.stamps = append(r.stamps, time.Now().UnixMicro()) // this update runs tick k
	}
	now := r.clock.Now()
	if r.ran {
		gap := time.Duration(now - r.last)
		if gap > r.gap {
			r.gap, r.gapAt = gap, at
		}
		if gap >= 2*r.step {
			r.waits++
		}
	}
	r.last, r.ran = now, true
	r.started.Store(true)
	if at >= r.until {
		return
	}
	if a := math.Abs(advantage); a > 1 {
		r.outside = at
	}
	if at >= settleAfter {
		r.worst = max(r.worst, math.Abs(advantage))
	}
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
	r.presents.look(r.ticks.started.Load())
	t, p := &r.ticks, &r.presents
	longest := fmt.Sprintf("longest %v with no frame cap", p.longest.Round(10*time.Microsecond))
	if p.cap > 0 {
		longest = fmt.Sprintf("longest %v of cap %v (%.2fx)", p.longest.Round(10*time.Microsecond), p.cap.Round(10*time.Microsecond),
			float64(p.longest)/float64(p.cap))
	}
	settled := t.outside
	if settled > 0 {
		settled += t.step
	}
	fmt.Fprintf(w, "pacing: presents %d, %s; advantage within 1 tick from %.2fs, worst after %v %.2f ticks; ticks longest apart %v (%.2f steps, at %.2fs), %d whole-frame waits; %d held (%d after %v)\n",
		p.counted, longest,
		settled.Seconds(), settleAfter, t.worst,
		t.gap.Round(10*time.Microsecond), float64(t.gap)/float64(t.step), t.gapAt.Seconds(), t.waits, t.held, t.heldLate, settleAfter)
	if len(t.stamps) > 0 {
		fmt.Fprintf(w, "timeline: unix µs at tick %d and every %d ticks after:", stampEvery, stampEvery)
		for _, s := range t.stamps {
			fmt.Fprintf(w, " %d", s)
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
	if ns, ok := s.NetStats(); ok && ns.Seconds > 0 {
		fmt.Fprintln(w, s.netLine(ns))
	}
	s.report.write(w)
}

// netLine is the "net:" line (rollback.PeerStats.NetLine) per real
// second of the match, with netplay's wire figures when it carries it.
func (s *Session) netLine(ns NetStats) string {
	real := time.Duration(0)
	if s.matchStart != 0 {
		real = time.Duration(s.clock().Now() - s.matchStart)
	}
	wire := ""
	if m := s.match.netplay; m != nil {
		secs := real.Seconds()
		if secs <= 0 {
			secs = ns.Seconds
		}
		wire = m.Stats().WireText(secs)
	}
	return ns.NetLine(real, wire)
}

// clock is the session's runtime clock.
func (s *Session) clock() timing.Clock {
	if s.rt != nil {
		if c := s.rt.Options().Clock; c != nil {
			return c
		}
	}
	return timing.SystemClock{}
}
