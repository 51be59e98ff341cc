package timing

import (
	"errors"
	"fmt"
	"time"
)

// Bounds of a [PacingPolicy].
const (
	minPacingInterval = time.Nanosecond
	maxPacingInterval = time.Second
	// maxPacingLateness bounds PacingPolicy.MaxLateness. Past a minute a
	// stall is never worth catching up with the old phase.
	maxPacingLateness = time.Minute
	// maxEarlyWakes is how many times one call waits and wakes before its
	// target before it starts the frame anyway (outcome [PaceWaitLimit]).
	maxEarlyWakes = 8
)

// ErrWaitInterrupted is returned by a wait that [Waiter.Wake] cut short. A
// [FramePacer] answers it with [PaceInterrupted] and keeps its target.
var ErrWaitInterrupted = errors.New("timing: wait interrupted")

// PacingPolicy says how often a [FramePacer] starts frames.
type PacingPolicy struct {
	// Interval between frame targets, from 1 ns to 1 s.
	Interval time.Duration
	// MaxLateness is how late a frame may start and still keep the
	// schedule's phase (missed targets are skipped). A later frame
	// re-anchors the schedule at its actual start. From 0 to 1 minute; zero
	// re-anchors on every late frame.
	MaxLateness time.Duration
}

// PacingForRate returns the policy for hz frames per second: the interval
// rounded to whole nanoseconds (60 Hz is 16,666,667 ns) and a lateness bound
// of four intervals. A rate outside 1 to 1,000,000,000 gives a policy that
// [PacingPolicy.Validate] rejects.
func PacingForRate(hz int) PacingPolicy {
	if hz <= 0 || hz > int(time.Second) {
		return PacingPolicy{}
	}
	iv := (time.Second + time.Duration(hz/2)) / time.Duration(hz)
	return PacingPolicy{Interval: iv, MaxLateness: 4 * iv}
}

// Validate reports every out-of-range field at once.
func (p PacingPolicy) Validate() error {
	var errs []error
	if p.Interval < minPacingInterval || p.Interval > maxPacingInterval {
		errs = append(errs, fmt.Errorf("timing: pacing Interval %v is out of range [%v, %v]", p.Interval, minPacingInterval, maxPacingInterval))
	}
	if p.MaxLateness < 0 || p.MaxLateness > maxPacingLateness {
		errs = append(errs, fmt.Errorf("timing: pacing MaxLateness %v is out of range [0s, %v]", p.MaxLateness, maxPacingLateness))
	}
	return errors.Join(errs...)
}

// PaceOutcome says how one call to [FramePacer.Pace] or
// [FramePacer.PaceUntil] ended.
type PaceOutcome uint8

const (
	// PaceNone is the zero value: no pacing preceded the frame.
	PaceNone PaceOutcome = iota
	// PaceBaseline: no schedule existed (first call, Reset, SetPolicy); the
	// schedule is anchored at the reading and the frame starts at once.
	PaceBaseline
	// PaceWaited: the frame started at or after its target, within the
	// lateness bound, after zero or more waits.
	PaceWaited
	// PaceLate: the target had already passed on the first reading; the
	// frame starts at once and missed targets are skipped.
	PaceLate
	// PaceRescheduled: the frame started later than the lateness bound; the
	// schedule is re-anchored at the frame's start.
	PaceRescheduled
	// PaceWaitFailed: the wait returned an error; the frame starts at once,
	// possibly early, and the schedule keeps its phase.
	PaceWaitFailed
	// PaceWaitLimit: the wait returned early eight times in one call (the
	// most a call waits again); the frame starts anyway, possibly early,
	// and the schedule keeps its phase.
	PaceWaitLimit
	// PaceClockRegression: a reading went below the previous one, or the
	// target was more than two intervals away; the schedule is re-anchored
	// at the reading and the frame starts at once.
	PaceClockRegression
	// PaceOverflow: the next target would leave the Instant range; the
	// frame starts at once and the next call anchors a new schedule.
	PaceOverflow
	// PaceDeadline: the caller's deadline came before the frame target. No
	// frame starts; the target is kept for the next call.
	PaceDeadline
	// PaceInterrupted: the wait returned ErrWaitInterrupted. No frame
	// starts; the target is kept for the next call.
	PaceInterrupted

	numPaceOutcomes
)

var paceOutcomeNames = [numPaceOutcomes]string{
	"none", "baseline", "waited", "late", "rescheduled", "wait_failed",
	"wait_limit", "clock_regression", "overflow", "deadline", "interrupted",
}

// String returns the outcome's snake_case name, as used in telemetry JSON.
func (o PaceOutcome) String() string {
	if o < numPaceOutcomes {
		return paceOutcomeNames[o]
	}
	return fmt.Sprintf("PaceOutcome(%d)", uint8(o))
}

// Started reports whether a frame starts after a call with this outcome.
// Only PaceDeadline and PaceInterrupted (and the zero PaceNone) return false.
func (o PaceOutcome) Started() bool {
	return o != PaceNone && o != PaceDeadline && o != PaceInterrupted && o < numPaceOutcomes
}

// PaceResult reports one pacing call.
type PaceResult struct {
	Outcome PaceOutcome
	// Target is the frame target this call aimed at. For a baseline or a
	// regression it is the reading the schedule was anchored at.
	Target Instant
	// Wake is the last clock reading of the call: the frame's start.
	Wake Instant
	// Lateness is Wake-Target: negative for a frame started early
	// (WaitFailed, WaitLimit) and for Deadline and Interrupted.
	Lateness time.Duration
	// Skipped counts the missed targets passed over without a frame while
	// keeping the phase; a re-anchored schedule skips nothing, it restarts.
	Skipped int64
	// Waits counts calls to the clock's WaitUntil; EarlyWakes those that
	// returned before the time they were asked for.
	Waits      int
	EarlyWakes int
	// Next is the target of the next frame, or Wake when the next call will
	// anchor a new schedule (after PaceOverflow).
	Next Instant
	// Interval is the policy interval in force.
	Interval time.Duration
	// Err is the wait's error for PaceWaitFailed and PaceInterrupted.
	Err error
}

// FramePacer decides when each frame starts: it waits toward absolute
// targets one interval apart, never spins and never bursts.
//
// The next target follows the previous target, not the wake, so an
// oversleep delays one frame only. A frame that is already late starts at
// once; missed targets are skipped while the lateness stays within
// MaxLateness and beyond it the schedule is re-anchored, so a stall never
// becomes a run of back-to-back frames.
//
// Each call waits at most until its target, rereading the clock after every
// return of the wait; after eight early returns it starts the
// frame anyway, and a failed wait starts it at once, so no call spins. A
// reading below the previous one, or a target more than two intervals
// ahead of the clock, cannot come from a monotonic clock: the pacer
// re-anchors instead of waiting, so no call waits more than two intervals.
//
// A loop on the native clock:
//
//	runtime.LockOSThread() // the waiter lowers this thread's timer slack
//	w, _ := timing.NewOSWaiter(timing.DefaultWaitSlice)
//	pacer, err := timing.NewFramePacer(timing.PacingForRate(60), timing.SystemClock{}, w)
//	if err != nil {
//		return err
//	}
//	for running {
//		r := pacer.Pace()
//		if !r.Outcome.Started() {
//			continue // interrupted by w.Wake: check why, then pace again
//		}
//		frame() // and record r in a Telemetry
//	}
//
// A FramePacer belongs to one goroutine (the loop it paces); it allocates
// nothing per call.
type FramePacer struct {
	policy   PacingPolicy
	clock    Clock
	waiter   Waiter
	anchored bool
	target   Instant
	seen     bool
	last     Instant
}

// NewFramePacer validates policy and returns a pacer that reads clock and
// waits on waiter, one of clock's waiters. The first call to Pace anchors
// the schedule.
//
// A wait may return early (the pacer reads the clock again and counts an
// early wake), return [ErrWaitInterrupted] (or an error wrapping it) when
// woken on purpose, or fail with any other error (the pacer starts the
// frame at once).
func NewFramePacer(policy PacingPolicy, clock Clock, waiter Waiter) (*FramePacer, error) {
	err := policy.Validate()
	if clock == nil {
		err = errors.Join(err, errors.New("timing: pacing clock is nil"))
	}
	if waiter == nil {
		err = errors.Join(err, errors.New("timing: pacing waiter is nil"))
	}
	if err != nil {
		return nil, err
	}
	return &FramePacer{policy: policy, clock: clock, waiter: waiter}, nil
}

// SetPolicy validates and installs a new policy and drops the schedule, so
// the next frame starts at once (as when a window is hidden or shown and the
// rate changes). On error the pacer is unchanged.
func (p *FramePacer) SetPolicy(policy PacingPolicy) error {
	if err := policy.Validate(); err != nil {
		return err
	}
	p.policy = policy
	p.Reset()
	return nil
}

// Reset drops the schedule: the next call anchors a new one and starts the
// frame at once. Use it when the old phase should not carry over: start-up,
// resuming from suspension, a window becoming visible or hidden.
func (p *FramePacer) Reset() {
	p.anchored = false
	p.seen = false
}

// Target returns the next frame target, and false when no schedule exists
// (the next call starts a frame at once).
func (p *FramePacer) Target() (Instant, bool) { return p.target, p.anchored }

// Pace waits until the next frame target and returns how it went. The
// outcome always starts a frame unless the wait was interrupted
// ([PaceInterrupted]).
func (p *FramePacer) Pace() PaceResult { return p.PaceUntil(MaxInstant) }

// PaceUntil is Pace with an earlier way out: when deadline comes before the
// frame target it returns [PaceDeadline] at the deadline without starting a
// frame, and the target stays for the next call. A runtime waits this way
// until the earliest of its own deadlines (input poll, maintenance) and the
// frame target. A deadline at or before the current reading returns at once;
// a caller that keeps passing past deadlines is spinning.
func (p *FramePacer) PaceUntil(deadline Instant) PaceResult {
	now := p.clock.Now()
	iv := p.policy.Interval
	if !p.anchored {
		return p.anchor(now, PaceBaseline, PaceResult{})
	}
	if p.seen && now < p.last {
		return p.anchor(now, PaceClockRegression, PaceResult{})
	}
	p.last, p.seen = now, true
	r := PaceResult{Target: p.target, Interval: iv}
	if ahead := paceDiff(p.target, now); ahead > 2*iv {
		return p.anchor(now, PaceClockRegression, r)
	}
	if now >= p.target {
		r.Outcome = PaceLate
		if now == p.target {
			r.Outcome = PaceWaited
		}
		return p.start(now, r)
	}
	for {
		if now >= deadline {
			return p.hold(now, PaceDeadline, r)
		}
		until := min(p.target, deadline)
		r.Waits++
		err := p.waiter.WaitUntil(until)
		next := p.clock.Now()
		if next < now {
			return p.anchor(next, PaceClockRegression, r)
		}
		now = next
		p.last = now
		if err != nil {
			r.Err = err
			if errors.Is(err, ErrWaitInterrupted) {
				return p.hold(now, PaceInterrupted, r)
			}
			r.Outcome = PaceWaitFailed
			return p.start(now, r)
		}
		if now >= p.target {
			r.Outcome = PaceWaited
			return p.start(now, r)
		}
		if now < until {
			r.EarlyWakes++
			if r.EarlyWakes >= maxEarlyWakes {
				r.Outcome = PaceWaitLimit
				return p.start(now, r)
			}
		}
	}
}

// hold returns without starting a frame.
func (p *FramePacer) hold(now Instant, o PaceOutcome, r PaceResult) PaceResult {
	r.Outcome = o
	r.Wake = now
	r.Lateness = paceDiff(now, r.Target)
	r.Next = p.target
	return r
}

// start begins a frame at now aimed at r.Target and advances the schedule.
func (p *FramePacer) start(now Instant, r PaceResult) PaceResult {
	iv := p.policy.Interval
	r.Wake = now
	r.Lateness = paceDiff(now, r.Target)
	if r.Lateness > p.policy.MaxLateness {
		return p.anchor(now, PaceRescheduled, r)
	}
	if r.Lateness > 0 {
		r.Skipped = int64(r.Lateness / iv)
	}
	// Skipped+1 intervals past the target is at most MaxLateness+Interval
	// past now, so only an Instant range near its end can overflow.
	next, err := r.Target.Add(time.Duration(r.Skipped+1) * iv)
	if err != nil {
		return p.overflow(now, r)
	}
	p.target = next
	r.Next = next
	return r
}

// anchor starts a frame at now and begins a new schedule there. It keeps the
// counts already in r; Target becomes now and lateness is zero, except for
// PaceRescheduled which reports the target it missed.
func (p *FramePacer) anchor(now Instant, o PaceOutcome, r PaceResult) PaceResult {
	r.Outcome = o
	r.Interval = p.policy.Interval
	r.Wake = now
	if o != PaceRescheduled {
		r.Target = now
		r.Lateness = 0
	}
	p.last, p.seen = now, true
	next, err := now.Add(p.policy.Interval)
	if err != nil {
		return p.overflow(now, r)
	}
	p.anchored = true
	p.target = next
	r.Next = next
	return r
}

func (p *FramePacer) overflow(now Instant, r PaceResult) PaceResult {
	r.Outcome = PaceOverflow
	r.Wake = now
	r.Next = now
	p.anchored = false
	return r
}

// paceDiff returns a-b, saturated to the Duration range instead of wrapping.
func paceDiff(a, b Instant) time.Duration {
	d := a - b
	switch {
	case b < 0 && d < a: // a - (negative) wrapped below
		return time.Duration(MaxInstant)
	case b > 0 && d > a: // a - (positive) wrapped above
		return -time.Duration(MaxInstant) - 1
	}
	return time.Duration(d)
}
