package timing

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// TelemetryWindow is how many recent measured frames [Telemetry] keeps: two
// seconds at 60 Hz, twelve at the 10 Hz hidden-window rate.
const TelemetryWindow = 120

// maxTelemetryCount is where telemetry totals stop: 2^53-1, the largest
// integer a JSON reader using binary64 numbers represents exactly. Totals
// saturate there instead of wrapping or losing precision.
const maxTelemetryCount = 1<<53 - 1

// FrameRecord is what the runtime knows about one frame start. It is plain
// values, so any loop can fill it; negative durations and counts where only
// non-negative ones make sense are taken as zero.
type FrameRecord struct {
	// Accepted is the interval since the previous frame that the frame
	// clock passed on; Discarded the excess beyond its clamp. Their sum is
	// the raw frame interval.
	Accepted, Discarded time.Duration
	// Baseline marks the frame clock's first sample (start-up, reset) and
	// Regression a reading below the previous one. Neither carries an
	// interval: they are counted and kept out of the window.
	Baseline, Regression bool
	// Pace is the pacing call that started this frame; the zero value
	// means the frame was not paced. Results that start no frame
	// (PaceDeadline, PaceInterrupted) are counted as unpaced.
	Pace PaceResult
	// Work is what the scheduler's batches did for this frame: add each
	// batch's with Add.
	Work
	// Debt is the simulation's debt after the frame (negative when
	// ahead), and Rate its speed relative to real time (1 is real time).
	// Both are gauges: the latest value is reported, except that a Rate
	// that is not a positive finite number (0 for unknown) keeps the
	// previous one.
	Debt time.Duration
	Rate float64
}

// SetSample copies a [FrameClock] sample into the record.
func (r *FrameRecord) SetSample(s FrameSample) {
	r.Accepted, r.Discarded = s.Elapsed, s.Discarded
	r.Baseline, r.Regression = s.Baseline, s.Regression
}

// TelemetryFrame is one measured frame in the window. It encodes to JSON
// with snake_case names and durations in integer nanoseconds.
type TelemetryFrame struct {
	// Interval is the raw interval since the previous frame (accepted plus
	// discarded).
	Interval time.Duration `json:"interval_ns"`
	// Lateness is the pacing lateness (wake minus target), zero when the
	// frame was not paced.
	Lateness time.Duration `json:"lateness_ns"`
	Outcome  PaceOutcome   `json:"outcome"`
	// Ticks is the number of simulation updates the frame ran.
	Ticks int `json:"ticks"`
	// Debt is the simulation debt after the frame.
	Debt time.Duration `json:"debt_ns"`
}

// Paced reports whether a pacing call with a target started this frame.
func (f TelemetryFrame) Paced() bool { return f.Outcome.Started() }

// Telemetry records what happened at each frame start: saturating totals
// and a ring of the last [TelemetryWindow] measured frames. Recording is
// constant time and allocates nothing; [Telemetry.Stats] does the sorting
// and averaging when someone asks.
//
// Only measured frames enter the window: a baseline or regression sample
// carries no interval and is counted instead. The window's mean is for
// display; minimum, maximum and percentiles stand beside it so that
// averaging cannot hide a hitch.
//
//	var tel timing.Telemetry
//	// each frame:
//	rec := timing.FrameRecord{Pace: paceResult}
//	rec.SetSample(frameClock.Sample(now))
//	rec.Add(batch.Work)
//	tel.Record(rec)
//	// when asked:
//	report, _ := json.Marshal(tel.Stats())
//
// The zero value is ready to use. A Telemetry is not safe for concurrent
// use: its owner records and reads it, or guards it with a mutex.
type Telemetry struct {
	frames, baselines, regressions uint64
	accepted, discarded            uint64
	skipped, earlyWakes            uint64
	outcomes                       [numPaceOutcomes]uint64
	last                           PaceOutcome
	interval                       time.Duration
	debt                           time.Duration
	rate                           float64
	ring                           [TelemetryWindow]TelemetryFrame
	head, n                        int
}

func telAdd(a, b uint64) uint64 {
	if b > maxTelemetryCount-a {
		return maxTelemetryCount
	}
	return a + b
}

func telNonNeg[T time.Duration | int](v T) uint64 {
	if v < 0 {
		return 0
	}
	return uint64(v)
}

// Record adds one frame start. It runs in constant time and allocates
// nothing.
func (t *Telemetry) Record(f FrameRecord) {
	t.frames = telAdd(t.frames, 1)
	t.accepted = telAdd(t.accepted, telNonNeg(f.Accepted))
	t.discarded = telAdd(t.discarded, telNonNeg(f.Discarded))
	t.debt = f.Debt
	if f.Rate > 0 && !math.IsInf(f.Rate, 0) {
		t.rate = f.Rate
	}

	o := f.Pace.Outcome
	if !o.Started() {
		o = PaceNone
	}
	t.outcomes[o] = telAdd(t.outcomes[o], 1)
	t.last = o
	if o != PaceNone {
		t.skipped = telAdd(t.skipped, telNonNeg(time.Duration(f.Pace.Skipped)))
		t.earlyWakes = telAdd(t.earlyWakes, telNonNeg(f.Pace.EarlyWakes))
		if f.Pace.Interval > 0 {
			t.interval = f.Pace.Interval
		}
	}

	switch {
	case f.Baseline:
		t.baselines = telAdd(t.baselines, 1)
		return
	case f.Regression:
		t.regressions = telAdd(t.regressions, 1)
		return
	}
	var ticks uint64
	for _, n := range f.Ticks {
		ticks = telAdd(ticks, telNonNeg(n))
	}
	fr := TelemetryFrame{
		Interval: time.Duration(min(telAdd(telNonNeg(f.Accepted), telNonNeg(f.Discarded)), math.MaxInt64)),
		Outcome:  o,
		Ticks:    int(min(ticks, math.MaxInt32)),
		Debt:     f.Debt,
	}
	if o != PaceNone {
		fr.Lateness = f.Pace.Lateness
	}
	t.ring[t.head] = fr
	t.head = (t.head + 1) % TelemetryWindow
	if t.n < TelemetryWindow {
		t.n++
	}
}

// Reset forgets everything recorded.
func (t *Telemetry) Reset() { *t = Telemetry{} }

// Len returns how many measured frames the window holds.
func (t *Telemetry) Len() int { return t.n }

// AppendWindow appends the window's frames to dst, oldest first, and
// returns the extended slice. With cap(dst) >= TelemetryWindow it allocates
// nothing, so a graph can reuse one buffer every frame.
func (t *Telemetry) AppendWindow(dst []TelemetryFrame) []TelemetryFrame {
	start := (t.head - t.n + TelemetryWindow) % TelemetryWindow
	if end := start + t.n; end <= TelemetryWindow {
		return append(dst, t.ring[start:end]...)
	}
	dst = append(dst, t.ring[start:]...)
	return append(dst, t.ring[:t.head]...)
}

// TelemetryStats is a snapshot of [Telemetry], computed on request. It
// encodes to JSON with snake_case names; durations are integer nanoseconds
// (the _ns fields) and every count is at most 2^53-1 (exact in a float64).
//
// The simulation's totals (updates by kind, time dropped and suspended)
// are the scheduler's, in [Stats]; the telemetry keeps only each frame's
// count of updates, in its window. Debt and Rate are the scheduler's as of
// the latest frame ([Stats.DebtTime] and [Stats.Rate]), so JSON leaves them
// to the scheduler's statistics.
//
// Window statistics cover the measured frames in the window; lateness
// statistics only those of them a pacing call started. Median and
// percentiles use the nearest-rank method (the value at rank ceil(p*n)).
type TelemetryStats struct {
	Frames           uint64        `json:"frames"`
	Baselines        uint64        `json:"baselines"`
	ClockRegressions uint64        `json:"clock_regressions"`
	Accepted         time.Duration `json:"accepted_ns"`
	Discarded        time.Duration `json:"discarded_ns"`

	Debt time.Duration `json:"-"`
	Rate float64       `json:"-"`

	PacingInterval      time.Duration `json:"pacing_interval_ns"`
	PaceUnpaced         uint64        `json:"pace_unpaced"`
	PaceBaseline        uint64        `json:"pace_baseline"`
	PaceWaited          uint64        `json:"pace_waited"`
	PaceLate            uint64        `json:"pace_late"`
	PaceRescheduled     uint64        `json:"pace_rescheduled"`
	PaceWaitFailed      uint64        `json:"pace_wait_failed"`
	PaceWaitLimit       uint64        `json:"pace_wait_limit"`
	PaceClockRegression uint64        `json:"pace_clock_regression"`
	PaceOverflow        uint64        `json:"pace_overflow"`
	SkippedTargets      uint64        `json:"skipped_targets"`
	EarlyWakes          uint64        `json:"early_wakes"`
	LastOutcome         PaceOutcome   `json:"last_outcome"`

	WindowFrames       int           `json:"window_frames"`
	WindowIntervalMin  time.Duration `json:"window_interval_min_ns"`
	WindowIntervalMean time.Duration `json:"window_interval_mean_ns"`
	WindowIntervalMax  time.Duration `json:"window_interval_max_ns"`

	WindowPacedFrames    int           `json:"window_paced_frames"`
	WindowLatenessMin    time.Duration `json:"window_lateness_min_ns"`
	WindowLatenessMean   time.Duration `json:"window_lateness_mean_ns"`
	WindowLatenessMedian time.Duration `json:"window_lateness_median_ns"`
	WindowLatenessP90    time.Duration `json:"window_lateness_p90_ns"`
	WindowLatenessP99    time.Duration `json:"window_lateness_p99_ns"`
	WindowLatenessMax    time.Duration `json:"window_lateness_max_ns"`
}

// MarshalText encodes the outcome as its [PaceOutcome.String] name.
func (o PaceOutcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText decodes a name written by MarshalText.
func (o *PaceOutcome) UnmarshalText(b []byte) error {
	for i, name := range paceOutcomeNames {
		if name == string(b) {
			*o = PaceOutcome(i)
			return nil
		}
	}
	return fmt.Errorf("timing: unknown pace outcome %q", b)
}

// Stats computes the statistics of everything recorded so far.
func (t *Telemetry) Stats() TelemetryStats {
	s := TelemetryStats{
		Frames:              t.frames,
		Baselines:           t.baselines,
		ClockRegressions:    t.regressions,
		Accepted:            time.Duration(t.accepted),
		Discarded:           time.Duration(t.discarded),
		Debt:                t.debt,
		Rate:                t.rate,
		PacingInterval:      t.interval,
		PaceUnpaced:         t.outcomes[PaceNone],
		PaceBaseline:        t.outcomes[PaceBaseline],
		PaceWaited:          t.outcomes[PaceWaited],
		PaceLate:            t.outcomes[PaceLate],
		PaceRescheduled:     t.outcomes[PaceRescheduled],
		PaceWaitFailed:      t.outcomes[PaceWaitFailed],
		PaceWaitLimit:       t.outcomes[PaceWaitLimit],
		PaceClockRegression: t.outcomes[PaceClockRegression],
		PaceOverflow:        t.outcomes[PaceOverflow],
		SkippedTargets:      t.skipped,
		EarlyWakes:          t.earlyWakes,
		LastOutcome:         t.last,
		WindowFrames:        t.n,
	}
	var intervals, lateness [TelemetryWindow]time.Duration
	paced := 0
	start := (t.head - t.n + TelemetryWindow) % TelemetryWindow
	for i := range t.n {
		f := t.ring[(start+i)%TelemetryWindow]
		intervals[i] = f.Interval
		if f.Paced() {
			lateness[paced] = f.Lateness
			paced++
		}
	}
	s.WindowIntervalMin, s.WindowIntervalMean, s.WindowIntervalMax = minMeanMax(intervals[:t.n])
	s.WindowPacedFrames = paced
	if paced > 0 {
		l := lateness[:paced]
		slices.Sort(l)
		s.WindowLatenessMin, s.WindowLatenessMean, s.WindowLatenessMax = minMeanMax(l)
		s.WindowLatenessMedian = NearestRank(l, 50)
		s.WindowLatenessP90 = NearestRank(l, 90)
		s.WindowLatenessP99 = NearestRank(l, 99)
	}
	return s
}

// minMeanMax returns zeros for an empty slice. The mean is rounded toward
// negative infinity and computed without overflow.
func minMeanMax(d []time.Duration) (lo, mean, hi time.Duration) {
	if len(d) == 0 {
		return 0, 0, 0
	}
	n := time.Duration(len(d))
	lo, hi = d[0], d[0]
	var q, r time.Duration
	for _, v := range d {
		lo, hi = min(lo, v), max(hi, v)
		qv, rv := v/n, v%n
		if rv < 0 {
			qv, rv = qv-1, rv+n
		}
		q += qv
		r += rv
	}
	return lo, q + r/n, hi
}

// NearestRank returns the p-th percentile (0 < p <= 100) of sorted, an
// ascending slice, by the nearest-rank method: the smallest value with at
// least p percent of the values at or below it. It returns zero for an
// empty slice and clamps p into range.
func NearestRank(sorted []time.Duration, p float64) time.Duration {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	k := int(math.Ceil(p / 100 * float64(n)))
	return sorted[min(max(k, 1), n)-1]
}
