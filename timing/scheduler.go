package timing

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// ErrNotStarted reports a call that needs [Scheduler.Start] first.
var ErrNotStarted = errors.New("timing: scheduler not started")

// Kind says what an update's delta means.
type Kind uint8

const (
	// VariableUpdate carries the whole real time since the previous update.
	VariableUpdate Kind = iota
	// FixedUpdate carries exactly one fixed step.
	FixedUpdate
	// CatchUpUpdate is a larger recovery update: the capped remainder of
	// VariableCatchUp, or several owed steps merged by RepayDebt's variable
	// step (then Update.Steps says how many).
	CatchUpUpdate
)

// NumKinds is the number of update kinds, for tables indexed by Kind.
const NumKinds = 3

func (k Kind) String() string {
	switch k {
	case VariableUpdate:
		return "variable"
	case FixedUpdate:
		return "fixed"
	case CatchUpUpdate:
		return "variable-catch-up"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Update is one simulation update selected by [Scheduler.Advance].
type Update struct {
	Kind Kind
	// Delta is the simulation time this update advances.
	Delta time.Duration
	// Start and End are the span of real time the update stands for.
	// Within a batch the spans are contiguous. Across batches an update
	// starts where the previous one ended, moved on by the time dropped or
	// suspended in between (always the oldest pending time) and moved back
	// by the debt [Scheduler.AdjustDebt] added: in the ledger's terms,
	//
	//	Start = previous End + Δ(Dropped() + Suspended - Adjusted)
	//
	// exactly for a step given as a duration, within a few nanoseconds of
	// rounding for a Rate. So after AdjustDebt(+30ms) the next update
	// starts 30 ms before the previous one ended: that real time is
	// simulated again (a rollback's resimulation, a peer found to be
	// behind) and the spans overlap. After AdjustDebt(-30ms) the next one
	// starts 30 ms after it: that real time stands for no update.
	//
	// A runtime hands each update the input whose timestamps fall in
	// [Start, End); input.Queue.TakeSpan also hands over older records no
	// update took, so neither an overlap nor a gap repeats or loses input.
	// Under RepayDebt a simulation that is ahead has spans that end after
	// the current reading.
	Start, End Instant
	// Number counts updates from 0 at Start.
	Number uint64
	// Steps is the number of fixed steps the update stands for: 1 for a
	// fixed update, 2 or more for a merged RepayDebt update, 0 otherwise.
	Steps int
	// Dropped is the real time the batch dropped, set on its last update
	// only (sum it across updates; never multiply it).
	Dropped time.Duration
	// Final marks the last update of its batch: the one the frame prepared
	// after the batch shows.
	Final bool
	// Quiet marks an update inside a RepayDebt burst that is not the last:
	// cosmetic work may skip it because no frame will show its result.
	Quiet bool
	// Coarse marks a tick that RepayDebt's coarse cosmetic mechanism thins
	// out: cosmetic work skips it. The zero value is an ordinary tick.
	Coarse bool
}

// DeltaSeconds returns Delta in seconds, for physics code that wants floats.
func (u Update) DeltaSeconds() float64 { return u.Delta.Seconds() }

// Span returns the real time the update stands for, End - Start.
func (u Update) Span() time.Duration { return time.Duration(u.End - u.Start) }

// RunCosmetic reports whether cosmetic work should run on this update: it
// is neither quiet nor thinned out by coarse cosmetic.
func (u Update) RunCosmetic() bool { return !u.Coarse && !u.Quiet }

// Batch is the set of updates one Advance selected, oldest first.
type Batch struct {
	// Updates is a view into storage owned by the scheduler, valid until the
	// next call to Advance, Start or SetOptions. Copy what must outlive it.
	Updates []Update
	// Work holds the batch's totals. Its Dropped is the real time dropped
	// and reported by this batch (also on its last update); time dropped
	// by a batch without updates is carried to the next batch that has
	// one. Its Suspended is the real time this Advance recorded as
	// suspended, with what [Scheduler.Suspend] and [Scheduler.Resume]
	// recorded since the previous Advance.
	Work
}

// Work is what one or more scheduler batches did: their updates by kind and
// the real time they dropped and set aside as suspended. A [Batch] carries
// its own; a [FrameRecord] adds up those of the batches run for its frame.
type Work struct {
	// Ticks counts updates by [Kind].
	Ticks              [NumKinds]int
	Dropped, Suspended time.Duration
}

// Add adds the totals of o to w.
func (w *Work) Add(o Work) {
	for k := range w.Ticks {
		w.Ticks[k] += o.Ticks[k]
	}
	w.Dropped += o.Dropped
	w.Suspended += o.Suspended
}

// updates returns the number of updates, of every kind.
func (w Work) updates() int {
	return w.Ticks[VariableUpdate] + w.Ticks[FixedUpdate] + w.Ticks[CatchUpUpdate]
}

type dropCause uint8

const (
	dropExcessLag dropCause = iota
	dropCatchUpCap
	dropCutoff
	dropDropTime
	dropHook
	numDropCauses
)

// Scheduler turns monotonic clock readings into batches of simulation
// updates. It never sleeps, polls or calls the game (except a DebtHook the
// game supplies). It is not safe for concurrent use: one goroutine owns it
// and makes every call. Build it with [NewScheduler]; a zero Scheduler uses
// [DefaultOptions].
type Scheduler struct {
	opts Options
	ph   phase

	started    bool
	start      Instant
	last       Instant // latest reading, the high-water mark
	lastUpdate Instant // variable mode: when the previous update ran
	cursor     mixed   // real time accounted for: start + simulated + dropped + suspended - adjusted
	debt       int64   // whole steps pending, floor (negative when ahead)
	rem        uint64  // pending units beyond debt, [0, t)
	credit     uint64  // pacing credit in phase units
	rate       float64
	alpha      float64
	tick       uint64
	nextDue    Instant
	// limit is the latest reading Advance accepts: every ledger total,
	// the span cursor and Real+Adjusted stay within int64 nanoseconds up
	// to it (see readingLimit).
	limit Instant

	sim             mixed
	dropped         [numDropCauses]mixed
	suspended       int64
	pause           suspension // Suspend and Resume (suspend.go)
	adjusted        int64
	resimTime       int64 // the parts of adjusted by cause (rollback.go)
	advantage       int64
	resimTicks      uint64
	droppedReported int64 // whole ns of dropped time already put on an update

	ticksByKind [NumKinds]uint64
	steps       uint64
	quietTicks  uint64
	mergedSteps uint64
	acting      Mechanism

	cutoffSteps int64
	creditCap   uint64
	stepSeconds float64

	buf [MaxBatch + 1]Update
}

// NewScheduler validates opts and returns a scheduler that waits for
// [Scheduler.Start]. The error joins every problem found.
func NewScheduler(opts Options) (*Scheduler, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	s := &Scheduler{}
	s.apply(opts)
	return s, nil
}

func (s *Scheduler) apply(opts Options) {
	s.opts = opts
	s.ph = newPhase(opts.FixedStep, opts.Rate)
	s.stepSeconds = float64(s.ph.t) / float64(s.ph.p) / 1e9
	s.cutoffSteps = 0
	if opts.Recovery == RepayDebt {
		q, _ := mul64(uint64(opts.Debt.Cutoff), s.ph.p).divmod(s.ph.t)
		s.cutoffSteps = int64(q)
	}
	// Pacing credit holds at most one full batch of steps plus the fraction
	// of a step carried from the previous cycle (advanceRepay drops any
	// whole step left unspent), so a stall does not turn into a burst
	// later, and one interval's credit is never clipped before the batch
	// has spent what it may.
	batch := uint64(opts.MaxFixedUpdates)
	if opts.Recovery == RepayDebt && opts.Debt.VariableStep {
		batch *= uint64(opts.Debt.MaxStepScale)
	}
	s.creditCap = math.MaxUint64
	if c := mul64(batch+1, s.ph.t); c.hi == 0 {
		s.creditCap = c.lo
	}
	s.credit = min(s.credit, s.creditCap)
	if s.rate == 0 {
		s.rate = 1
	}
}

// Options returns the options in force.
func (s *Scheduler) Options() Options { return s.opts }

// SetOptions validates opts and, if they are valid, puts them in force from
// the next Advance. The ledger, the tick count and the debt are kept. A
// change of step or rate converts pending time to the new step exactly,
// except that each ledger total's fraction of a nanosecond is rounded down
// into pending time. On error nothing changes.
func (s *Scheduler) SetOptions(opts Options) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	old := s.ph
	s.apply(opts)
	if !s.started || old == s.ph {
		if s.started {
			s.schedule()
		}
		return nil
	}
	for i := range s.dropped {
		s.dropped[i].rescale(&old, &s.ph)
	}
	s.sim.rescale(&old, &s.ph)
	s.cursor = mixed{ns: int64(s.start)}
	s.cursor.addUnits(s.sim.units(&s.ph), &s.ph)
	for i := range s.dropped {
		s.cursor.addUnits(s.dropped[i].units(&s.ph), &s.ph)
	}
	s.cursor.addNanos(s.suspended - s.adjusted)
	s.repend()
	s.credit = 0
	s.schedule()
	return nil
}

// repend recomputes debt and rem from the cursor: pending = last - cursor.
func (s *Scheduler) repend() {
	t := s.ph.t
	if Instant(s.cursor.ns) < s.last || (Instant(s.cursor.ns) == s.last && s.cursor.frac == 0) {
		// pending >= 0
		u := mul64(uint64(int64(s.last)-s.cursor.ns), s.ph.p).sub(u128{0, s.cursor.frac})
		q, r := u.divmod(t)
		s.debt, s.rem = int64(q), r
		return
	}
	// ahead: pending = -(cursor - last)
	u := mul64(uint64(s.cursor.ns-int64(s.last)), s.ph.p).add64(s.cursor.frac)
	q, r := u.divmod(t)
	s.debt = -int64(q)
	s.rem = 0
	if r > 0 {
		s.debt--
		s.rem = t - r
	}
}

// Start begins the timeline at now and clears every total. It may be called
// again to restart.
func (s *Scheduler) Start(now Instant) {
	opts := s.opts
	if s.ph.t == 0 { // a zero Scheduler
		opts = DefaultOptions()
	}
	*s = Scheduler{}
	s.apply(opts)
	s.started = true
	s.start, s.last, s.lastUpdate = now, now, now
	s.cursor = mixed{ns: int64(now)}
	s.rate = 1
	s.schedule()
}

// Advance accounts for the real time up to now and returns the updates to
// run, oldest first. A reading earlier than the previous one returns an
// error wrapping [ErrClockRegression] and changes nothing; so does an
// interval too large to represent ([ErrOverflow]). Advance before Start
// returns [ErrNotStarted].
//
// Under RepayDebt with DebtOptions.SuspendAfter, a reading that comes more
// than SuspendAfter after the previous one and after NextUpdateAt is a
// suspension: the whole gap since the previous reading is recorded as
// suspended. A wait the scheduler asked for (a long step, a simulation far
// ahead) is never one. Between [Scheduler.Suspend] and [Scheduler.Resume]
// every reading is: Advance selects nothing.
func (s *Scheduler) Advance(now Instant) (Batch, error) {
	if !s.started {
		return Batch{}, ErrNotStarted
	}
	if now > s.limit && now >= s.last {
		return Batch{}, s.limitError("Advance", now)
	}
	e, err := Elapsed(s.last, now)
	if err != nil {
		return Batch{}, fmt.Errorf("timing: Scheduler.Advance: %w", err)
	}
	if s.pause.on {
		return s.advanceSuspended(now), nil
	}
	fixed := s.opts.Mode == FixedMode
	repay := fixed && s.opts.Recovery == RepayDebt
	suspend := false
	if sa := s.opts.Debt.SuspendAfter; repay && sa > 0 && e > sa {
		// A gap is a suspension when the reading comes more than
		// SuspendAfter after the update it was due for, so a long wait
		// the scheduler asked for (far ahead, or a long step) is not one.
		due := max(s.nextDue, s.last)
		suspend = now > due && time.Duration(now-due) > sa
	}
	debt, rem := s.debt, s.rem
	if !suspend {
		q, r := mul64(uint64(e), s.ph.p).add64(rem).divmod(s.ph.t)
		if q > math.MaxInt64 || (debt > 0 && int64(q) > math.MaxInt64-debt) {
			return Batch{}, fmt.Errorf("timing: Scheduler.Advance: %w: %v of debt", ErrOverflow, e)
		}
		debt, rem = debt+int64(q), r
	}

	s.last = now
	s.debt, s.rem = debt, rem
	s.acting = 0
	n := 0
	var suspended int64
	switch {
	case !fixed:
		n = s.advanceVariable(now)
	case s.opts.Recovery == DropExcessLag:
		n = s.advanceDropExcess()
	case s.opts.Recovery == VariableCatchUp:
		n = s.advanceCatchUp()
	default:
		n, suspended = s.advanceRepay(e, suspend)
	}

	b := Batch{Updates: s.buf[:n:n]}
	b.Suspended = time.Duration(suspended + s.takeUnreported())
	for i := range b.Updates {
		b.Ticks[b.Updates[i].Kind]++
	}
	if n > 0 {
		var total int64
		for i := range s.dropped {
			total += s.dropped[i].ns
		}
		b.Dropped = time.Duration(total - s.droppedReported)
		s.droppedReported = total
		s.buf[n-1].Dropped = b.Dropped
		s.buf[n-1].Final = true
	}
	s.schedule()
	return b, nil
}

func (s *Scheduler) pendingUnits() u128 {
	if s.debt < 0 {
		return u128{}
	}
	return mul64(uint64(s.debt), s.ph.t).add64(s.rem)
}

func (s *Scheduler) advanceVariable(now Instant) int {
	if s.debt < 0 || (s.debt == 0 && s.rem == 0) {
		return 0
	}
	if s.opts.Interval > 0 {
		if due, err := s.lastUpdate.Add(s.opts.Interval); err == nil && now < due {
			return 0
		}
	}
	s.emit(0, VariableUpdate, s.pendingUnits(), 0)
	s.debt, s.rem = 0, 0
	s.lastUpdate = now
	return 1
}

func (s *Scheduler) advanceDropExcess() int {
	if s.debt <= 0 {
		return 0
	}
	n := min(s.debt, int64(s.opts.MaxFixedUpdates))
	if excess := s.debt - n; excess > 0 {
		s.dropSteps(dropExcessLag, uint64(excess))
	}
	for i := range int(n) {
		s.emitStep(i)
	}
	s.debt = 0
	return int(n)
}

func (s *Scheduler) advanceCatchUp() int {
	if s.debt <= 0 {
		return 0
	}
	limit := int64(s.opts.MaxFixedUpdates)
	if s.debt <= limit {
		n := int(s.debt)
		for i := range n {
			s.emitStep(i)
		}
		s.debt = 0
		return n
	}
	prefix := s.opts.RecoveryPrefix
	use := mul64(uint64(s.debt-int64(prefix)), s.ph.t).add64(s.rem)
	if s.opts.RecoveryCap > 0 {
		capUnits := mul64(uint64(s.opts.RecoveryCap), s.ph.p)
		if use.cmp(capUnits) > 0 {
			s.drop(dropCatchUpCap, use.sub(capUnits))
			use = capUnits
		}
	}
	for i := range prefix {
		s.emitStep(i)
	}
	s.emit(prefix, CatchUpUpdate, use, 0)
	s.debt, s.rem = 0, 0
	return prefix + 1
}

// emitStep writes a one-step fixed update at index i.
func (s *Scheduler) emitStep(i int) *Update {
	u := &s.buf[i]
	start, simBefore := s.cursor.ns, s.sim.ns
	s.cursor.addStep(&s.ph)
	s.sim.addStep(&s.ph)
	*u = Update{
		Kind:   FixedUpdate,
		Delta:  time.Duration(s.sim.ns - simBefore),
		Start:  Instant(start),
		End:    Instant(s.cursor.ns),
		Number: s.tick,
		Steps:  1,
	}
	s.tick++
	s.steps++
	s.ticksByKind[FixedUpdate]++
	return u
}

// emit writes an update of arbitrary length at index i.
func (s *Scheduler) emit(i int, kind Kind, units u128, steps int) *Update {
	u := &s.buf[i]
	start, simBefore := s.cursor.ns, s.sim.ns
	s.cursor.addUnits(units, &s.ph)
	s.sim.addUnits(units, &s.ph)
	*u = Update{
		Kind:   kind,
		Delta:  time.Duration(s.sim.ns - simBefore),
		Start:  Instant(start),
		End:    Instant(s.cursor.ns),
		Number: s.tick,
		Steps:  steps,
	}
	s.tick++
	s.steps += uint64(steps)
	s.ticksByKind[kind]++
	return u
}

func (s *Scheduler) drop(cause dropCause, units u128) {
	s.cursor.addUnits(units, &s.ph)
	s.dropped[cause].addUnits(units, &s.ph)
}

func (s *Scheduler) dropSteps(cause dropCause, n uint64) {
	s.drop(cause, mul64(n, s.ph.t))
}

// schedule computes NextUpdateAt and Alpha from the current state; while
// suspended nothing is due.
func (s *Scheduler) schedule() {
	s.scheduleDue()
	if s.pause.on {
		s.nextDue = MaxInstant
	}
}

// scheduleDue computes NextUpdateAt and Alpha as if running. The instant
// it picks is one at which Advance selects an update (see NextUpdateAt),
// so it mirrors each policy's selection rule exactly.
func (s *Scheduler) scheduleDue() {
	if s.opts.Mode == VariableMode {
		s.alpha = 0
		// An update needs the interval to have passed and time pending:
		// now if some is, one nanosecond on if none is, and once real
		// time has caught up if a RepayDebt lead was kept by SetOptions.
		first := s.last
		switch {
		case s.debt < 0:
			lead := mul64(uint64(-s.debt), s.ph.t).sub(u128{0, s.rem})
			q, _ := lead.divmod(s.ph.p)
			first = s.last.AddSaturating(time.Duration(min(q, math.MaxInt64-1) + 1))
		case s.debt == 0 && s.rem == 0:
			first = s.last.AddSaturating(1)
		}
		s.nextDue = max(s.lastUpdate.AddSaturating(s.opts.Interval), first)
		s.limit = s.readingLimit()
		return
	}
	t := s.ph.t
	s.alpha = float64(s.rem) / float64(t)
	if s.alpha >= 1 {
		s.alpha = math.Nextafter(1, 0)
	}
	// Units until pending reaches one whole step.
	var untilDue u128
	switch {
	case s.debt >= 1:
	case s.debt == 0:
		untilDue = u128{0, t - s.rem}
	default: // ahead: need (1-debt) steps minus rem
		untilDue = mul64(uint64(1-s.debt), t).sub(u128{0, s.rem})
	}
	wait := ceilNanos(untilDue, s.ph.p)
	if s.opts.Recovery == RepayDebt && s.opts.Debt.Pacing {
		// A paced step needs a whole step of credit, and, once the
		// simulation is no longer ahead, a whole step owed.
		var wc int64
		if s.credit < t {
			wc = s.creditWait(t - s.credit)
		}
		if s.debt < 0 && s.rate < 1 {
			// Ahead and slowed down: credit alone decides, even once
			// real time has caught up (see advanceRepay).
			wait = wc
		} else if s.debt < 0 {
			// Units until the simulation stops being ahead.
			ahead := mul64(uint64(-s.debt), t).sub(u128{0, s.rem})
			if mul64(uint64(wc), s.ph.p).cmp(ahead) < 0 {
				wait = wc // still ahead then: credit alone decides
			} else {
				wait = max(wait, wc)
			}
		} else {
			wait = max(wait, wc)
		}
	}
	s.nextDue = s.last.AddSaturating(time.Duration(wait))
	s.limit = s.readingLimit()
	if s.debt < 0 && s.opts.Recovery == RepayDebt {
		// Ahead, the span cursor stays ahead of the reading: by the lead
		// through a suspension, and under pacing by at most the lead plus
		// the credit held, since credit accrues at no more than real time
		// while ahead (give or take the float rounding of accrue, under
		// 2^-51 of the interval: a few microseconds at most).
		lead := mul64(uint64(-s.debt), t).sub(u128{0, s.rem})
		var slack int64
		if s.opts.Debt.Pacing {
			lead = lead.add64(s.credit)
			slack = accrueSlack
		}
		s.limit = min(s.limit, MaxInstant-Instant(min(ceilNanos(lead, s.ph.p), math.MaxInt64-slack)+slack))
	}
}

// accrueSlack bounds, in nanoseconds, how far float rounding can take the
// credit accrue adds past the exact rate times the interval, for any
// interval an int64 clock holds: two roundings of 2^-53 each of at most
// 2^63 ns.
const accrueSlack = 1 << 13

// readingLimit returns the latest reading whose real time since Start,
// with the debt AdjustDebt added, fits in int64 nanoseconds: the ledger's
// Real + Adjusted, and so every total and the pending time, never wrap.
func (s *Scheduler) readingLimit() Instant {
	return s.start.AddSaturating(time.Duration(math.MaxInt64 - max(s.adjusted, 0)))
}

// limitError reports a reading past s.limit given to the method op,
// naming the bound that holds.
func (s *Scheduler) limitError(op string, now Instant) error {
	why := "Start plus 2^63-1 ns"
	if s.adjusted > 0 {
		why += fmt.Sprintf(" less the %v of debt AdjustDebt added", time.Duration(s.adjusted))
	}
	if s.limit < s.readingLimit() {
		why = "MaxInstant less the lead of a simulation that is ahead, and its pacing credit"
	}
	return fmt.Errorf("timing: Scheduler.%s: %w: reading %d ns is past the range of the ledger started at %d ns; allowed %d ns (the previous reading) to %d ns (%s)",
		op, ErrOverflow, int64(now), int64(s.start), int64(s.last), int64(s.limit), why)
}

// accrue returns the pacing credit e nanoseconds add at the current rate:
// the computation advanceRepay makes, clamped at the credit cap. The
// explicit conversions forbid fused multiply-adds, so every architecture
// computes the same credit (replays depend on it).
func (s *Scheduler) accrue(e int64) uint64 {
	add := float64(s.rate*float64(e)) * float64(s.ph.p)
	if room := s.creditCap - s.credit; add >= float64(room) {
		return room
	}
	return uint64(add)
}

// creditWait returns the fewest nanoseconds after which accrue adds at
// least n units. The float estimate is corrected against accrue itself, so
// the answer holds to the unit whatever the rounding.
func (s *Scheduler) creditWait(n uint64) int64 {
	need := float64(n) / (s.rate * float64(s.ph.p))
	if need >= math.MaxInt64/2 {
		return math.MaxInt64
	}
	e := max(int64(math.Ceil(need)), 1)
	for s.accrue(e) < n {
		e++
	}
	for e > 1 && s.accrue(e-1) >= n {
		e--
	}
	return e
}

func ceilNanos(u u128, p uint64) int64 {
	if u.isZero() {
		return 0
	}
	q, r := u.divmod(p)
	if r > 0 {
		q++
	}
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(q)
}

// NextUpdateAt returns when the next update is due: Advance with that
// reading selects at least one update. It is never before the latest
// reading; equal to it means more is due at once (RepayDebt without
// pacing owing more than one batch, or a SetOptions that made time due).
// When nothing can be due until time passes it is in the future, at least
// one nanosecond on. A runtime may therefore wait until NextUpdateAt and
// call Advance with the clock's reading: on a manual clock that loop gets
// an update every call and never spins. Under RepayDebt's pacing it
// follows the current pace. It saturates at MaxInstant.
//
// Only that reading is promised an update: an earlier one may select
// nothing, and so may a later one under RepayDebt (a simulation that is
// ahead runs on pacing credit only until real time catches up with it,
// then waits for a whole step owed; past the cutoff a policy may drop the
// time instead). A reading later than NextUpdateAt by more than
// DebtOptions.SuspendAfter is a suspension. Between [Scheduler.Suspend]
// and [Scheduler.Resume] it is MaxInstant.
func (s *Scheduler) NextUpdateAt() Instant { return s.nextDue }

// Alpha returns the interpolation factor after the latest Advance: the
// pending remainder divided by one step, in [0, 1). It is 0 in variable
// mode and after a catch-up update.
func (s *Scheduler) Alpha() float64 { return s.alpha }

// Step returns the fixed step rounded to whole nanoseconds (exact when the
// step was given as a duration).
func (s *Scheduler) Step() time.Duration {
	if s.opts.Rate.IsZero() {
		return s.opts.FixedStep
	}
	return s.opts.Rate.Step()
}

// Tick returns the number of updates run since Start.
func (s *Scheduler) Tick() uint64 { return s.tick }
