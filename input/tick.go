package input

import (
	"iter"
	"math/bits"
	"time"
	"unicode/utf8"

	"github.com/metronome-go/metronome/timing"
)

// Stats describes one action or button over a tick's observed interval.
//
// Every action has a value: 1 while a button action is down and 0 while it
// is up; for an analog action, the value of its strongest binding, in
// [-1, 1], which is 0 while every bound axis is inside its dead zone and
// every bound button is up. An analog action is down while its value is
// not 0, so presses, releases and held time mean the same for both kinds:
// a stick pushed past its dead zone is pressed, and held until it returns.
type Stats struct {
	// Down reports whether the action is down at the end of the interval:
	// any of its buttons is down, or its value is not 0.
	Down bool
	// WasDown reports whether it was down at the start of the interval.
	WasDown bool
	// Presses counts transitions from up to down within the interval and
	// Releases those from down to up. A tap inside one tick is one press
	// and one release, with Down false: it is never lost.
	Presses, Releases int
	// Held is how long it was down within the interval, measured between
	// record timestamps (clamped to the interval).
	Held time.Duration
	// Value is the value at the end of the interval and StartValue the
	// value at its start.
	Value, StartValue float32
	// Mean is the value averaged over the interval, weighted by time (Held
	// over the interval for a button action); for an empty interval it is
	// Value. [Tick.SimulationTime] is Mean times the update's delta.
	Mean float32
	// Peak is the value of largest magnitude the action took within the
	// interval, start and end included: a flick of the stick that was over
	// before the tick ended still shows.
	Peak float32
}

// Pressed reports whether the action went down at least once in the interval.
func (s Stats) Pressed() bool { return s.Presses > 0 }

// Released reports whether the action went up at least once in the interval.
func (s Stats) Released() bool { return s.Releases > 0 }

// Tick is the input consumed by one update: the records of the polls it took,
// in observation order, the State before and after them and the real
// interval they were observed in, with per-action summaries computed on
// request. A [Queue] fills it with [Queue.TakeAll] or [Queue.TakeSpan];
// replays and tests can fill one directly with [Tick.Fill].
//
// A Tick is reused from update to update and keeps its buffers' capacity, so
// filling and querying it allocate nothing in steady state. It belongs to the
// goroutine that fills it (the simulation goroutine); the slices it returns
// are valid until the next fill. The zero Tick is an empty interval with the
// zero State.
type Tick struct {
	start, end  timing.Instant
	from, state State
	records     []Record
	controls    []int32 // indices of press, release and axis records
	text        []rune
	scrollX     float64
	scrollY     float64
	motionX     float64
	motionY     float64
	polls       int
	actions     *Actions
	fills       uint64
	cache       []cachedStats
	fired       []Action // taps added by [Tick.Fire] since the last fill
}

type cachedStats struct {
	fill    uint64 // fill number the entry was computed for; 0 = never
	version uint64 // binding table version it was computed with
	stats   Stats
	analog  bool
}

// Fill replaces the tick's contents: the interval [start, end), the State
// before it and the records observed in it, in order. Bindings are looked up
// in actions, which may be nil for a tick queried only by button. Records are
// copied; their timestamps are clamped into the interval when durations are
// measured, and an end before start is treated as start. Records should
// chain from from as snapshots do; a press of a button already down or a
// release of one already up is ignored by the summaries. Polls then reads 0
// until [Tick.SetPolls].
func (t *Tick) Fill(actions *Actions, start, end timing.Instant, from State, records []Record) {
	t.records = append(t.records[:0], records...)
	t.finish(actions, start, end, from, 0)
}

// CopyFrom makes t a copy of src that stays valid after src is filled
// again: the same interval, states, records, polls and bindings. It reuses
// t's buffers, so once they have grown it allocates nothing; a rollback or
// sync-test keeps the input of past ticks this way to run them again.
func (t *Tick) CopyFrom(src *Tick) {
	t.records = append(t.records[:0], src.records...)
	t.finish(src.actions, src.start, src.end, src.from, src.polls)
}

// finish computes everything derived from t.records.
func (t *Tick) finish(actions *Actions, start, end timing.Instant, from State, polls int) {
	if end < start {
		end = start
	}
	t.start, t.end, t.from, t.polls, t.actions = start, end, from, polls, actions
	t.fills++
	t.fired = t.fired[:0]
	t.text = t.text[:0]
	t.controls = t.controls[:0]
	t.scrollX, t.scrollY, t.motionX, t.motionY = 0, 0, 0, 0
	s := from
	for i := range t.records {
		r := &t.records[i]
		switch r.Kind {
		case RecordPress, RecordRelease, RecordAxis:
			t.controls = append(t.controls, int32(i))
		case RecordText:
			t.text = append(t.text, r.Rune)
		case RecordScroll:
			t.scrollX += r.X
			t.scrollY += r.Y
		case RecordCursor:
			if !r.Synthetic {
				t.motionX += r.X - s.CursorX
				t.motionY += r.Y - s.CursorY
			}
		}
		s.Apply(r)
	}
	t.state = s
}

// Start returns the beginning of the observed interval.
func (t *Tick) Start() timing.Instant { return t.start }

// End returns the end of the observed interval.
func (t *Tick) End() timing.Instant { return t.end }

// Observed returns the length of the real interval this tick's input covers.
// It can be zero, for instance for a second update taken at the same instant.
func (t *Tick) Observed() time.Duration { return time.Duration(t.end - t.start) }

// SetPolls sets what [Tick.Polls] reports, for a tick rebuilt with
// [Tick.Fill] from a record of one that consumed n polls (a replay).
func (t *Tick) SetPolls(n int) { t.polls = max(n, 0) }

// Polls returns how many completed polls the tick consumed (a coalesced poll
// counts once).
func (t *Tick) Polls() int { return t.polls }

// Records returns the records in observation order. The slice is reused by
// the next fill.
func (t *Tick) Records() []Record { return t.records }

// Runes returns the typed text as runes, in order. The slice is reused by
// the next fill.
func (t *Tick) Runes() []rune { return t.text }

// AppendText appends the typed text, UTF-8 encoded, to dst.
func (t *Tick) AppendText(dst []byte) []byte {
	for _, r := range t.text {
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// Text returns the typed text. It allocates when there is text; use
// [Tick.AppendText] or [Tick.Runes] on allocation-free paths.
func (t *Tick) Text() string {
	if len(t.text) == 0 {
		return ""
	}
	return string(t.text)
}

// State returns the state at the end of the interval.
func (t *Tick) State() State { return t.state }

// StartState returns the state at the start of the interval.
func (t *Tick) StartState() State { return t.from }

// Cursor returns the cursor position at the end of the interval.
func (t *Tick) Cursor() (x, y float64) { return t.state.CursorX, t.state.CursorY }

// Motion returns the cursor's relative motion within the interval (synthetic
// cursor records, which only describe where the cursor was found, excluded).
func (t *Tick) Motion() (dx, dy float64) { return t.motionX, t.motionY }

// Scroll returns the sum of scroll offsets within the interval.
func (t *Tick) Scroll() (dx, dy float64) { return t.scrollX, t.scrollY }

// Window returns the window's facts at the end of the interval (sizes,
// content scale, focus, visibility, mode): as of the latest poll this tick
// consumed.
func (t *Tick) Window() Window { return t.state.Window }

// Gamepad returns the gamepad's connection and raw axis values at the end
// of the interval.
func (t *Tick) Gamepad() GamepadState { return t.state.Gamepad }

// Axis returns the raw value of a gamepad axis at the end of the interval,
// without a dead zone; analog actions ([Tick.Value]) apply their bindings'
// dead zones.
func (t *Tick) Axis(a Axis) float32 {
	if !a.Valid() {
		return 0
	}
	return t.state.Gamepad.Axes[a]
}

// Button returns the summary of one button.
func (t *Tick) Button(b Button) Stats {
	one := [1]Button{b}
	return t.compute(one[:])
}

// Value returns an action's value at the end of the interval (see [Stats]).
func (t *Tick) Value(a Action) float32 { return t.Action(a).Value }

// Values yields the action's value over the interval, one pair per change:
// first the start of the interval with [Stats.StartValue], then the
// timestamp (clamped into the interval) and new value of every record that
// changed it, in order. It is the per-record view behind [Stats.Mean] and
// [Stats.Peak], for a game that wants the shape of a stick movement within
// one tick. The bindings are those current at the call; an unregistered
// action yields nothing.
func (t *Tick) Values(a Action) iter.Seq2[timing.Instant, float32] {
	return func(yield func(timing.Instant, float32) bool) {
		e := t.actions.load().entry(a)
		if e == nil {
			return
		}
		down := t.from.Down
		axes := t.from.Gamepad.Axes
		v := e.value(&down, &axes)
		if !yield(t.start, v) {
			return
		}
		for _, i := range t.controls {
			r := &t.records[i]
			if !applyControl(r, &down, &axes) {
				continue
			}
			if nv := e.value(&down, &axes); nv != v {
				v = nv
				if !yield(min(max(r.Time, t.start), t.end), v) {
					return
				}
			}
		}
	}
}

// value returns the action's value given the buttons down and the axes.
func (e *entry) value(down *ButtonSet, axes *[axisLimit]float32) float32 {
	if e.analog {
		return combine(e.axes, down, axes)
	}
	for _, b := range e.buttons {
		if down.Has(b) {
			return 1
		}
	}
	return 0
}

// applyControl applies a press, release or axis record to down and axes,
// reporting whether it was a valid one.
func applyControl(r *Record, down *ButtonSet, axes *[axisLimit]float32) bool {
	switch r.Kind {
	case RecordPress, RecordRelease:
		if !r.Button.Valid() {
			return false
		}
		if r.Kind == RecordPress {
			down.Add(r.Button)
		} else {
			down.Remove(r.Button)
		}
	case RecordAxis:
		if !r.Axis.Valid() {
			return false
		}
		axes[r.Axis] = r.Axis.clamp(float32(r.X))
	default:
		return false
	}
	return true
}

// Action returns the summary of an action: it is down while any of its
// buttons is down, so pressing a second bound button while the first is
// held is not a new press. The bindings are those current at the call; a
// result is cached until the next fill or rebind. An unregistered action is
// idle.
func (t *Tick) Action(a Action) Stats {
	tab := t.actions.load()
	e := tab.entry(a)
	if e == nil {
		return Stats{}
	}
	i := int(a - 1)
	if i >= len(t.cache) {
		t.cache = append(t.cache, make([]cachedStats, tab.count()-len(t.cache))...)
	}
	c := &t.cache[i]
	if c.fill != t.fills || c.version != tab.version {
		var st Stats
		if e.analog {
			st = t.computeAnalog(e)
		} else {
			st = t.compute(e.buttons)
		}
		*c = cachedStats{fill: t.fills, version: tab.version, stats: st, analog: e.analog}
	}
	if len(t.fired) == 0 {
		return c.stats
	}
	return t.withFired(a, c.stats)
}

// Down reports whether a is down at the end of the interval.
func (t *Tick) Down(a Action) bool { return t.Action(a).Down }

// Pressed reports whether a went down at least once in the interval.
func (t *Tick) Pressed(a Action) bool { return t.Action(a).Presses > 0 }

// Released reports whether a went up at least once in the interval.
func (t *Tick) Released(a Action) bool { return t.Action(a).Releases > 0 }

// Presses returns how many times a went down in the interval.
func (t *Tick) Presses(a Action) int { return t.Action(a).Presses }

// Releases returns how many times a went up in the interval.
func (t *Tick) Releases(a Action) int { return t.Action(a).Releases }

// Held returns how long a was down within the interval.
func (t *Tick) Held(a Action) time.Duration { return t.Action(a).Held }

// SimulationTime is a movement policy: the fraction of the observed interval
// during which a was down, times the update's simulation delta. A 50 ms tap
// observed in a 500 ms interval gives 2 ms of a 20 ms fixed update, or 10 ms
// of a 100 ms recovery update. With a zero observed interval the current
// state decides: simDelta if a is down, else zero. It does not reconstruct
// when within past steps a tap happened, and a tap consumed by one update is
// not given again to the next; use the records for other policies. For a
// button action the result is exact (integer arithmetic, rounded down).
//
// For an analog action it is the integral of the value over the observed
// interval, as a fraction of the interval, times simDelta ([Stats.Mean]
// times simDelta, rounded toward zero): a stick held at half deflection
// to the left for the whole interval gives -10 ms of a 20 ms update, so
// speed times SimulationSeconds moves a player at half speed, the same
// whether the interval held one poll or twelve. With a zero interval the
// current value decides. The result is signed and never exceeds simDelta
// in magnitude.
func (t *Tick) SimulationTime(a Action, simDelta time.Duration) time.Duration {
	s := t.Action(a)
	if t.cachedAnalog(a) {
		return time.Duration(float64(s.Mean) * float64(simDelta))
	}
	iv := t.Observed()
	if iv <= 0 {
		if s.Down {
			return simDelta
		}
		return 0
	}
	neg := simDelta < 0
	d := uint64(simDelta)
	if neg {
		d = uint64(-simDelta)
	}
	hi, lo := bits.Mul64(d, uint64(s.Held))
	q, _ := bits.Div64(hi, lo, uint64(iv)) // Held <= iv, so q <= d: no overflow
	if neg {
		return -time.Duration(q)
	}
	return time.Duration(q)
}

// SimulationSeconds is [Tick.SimulationTime] in float seconds.
func (t *Tick) SimulationSeconds(a Action, simDelta time.Duration) float64 {
	return t.SimulationTime(a, simDelta).Seconds()
}

// cachedAnalog reports whether the cached stats of a (just computed by
// Action) belong to an analog action.
func (t *Tick) cachedAnalog(a Action) bool {
	i := int(a) - 1
	return i >= 0 && i < len(t.cache) && t.cache[i].fill == t.fills && t.cache[i].analog
}

// computeAnalog follows an analog action's value through the button and
// axis records, integrating it over the interval.
func (t *Tick) computeAnalog(e *entry) Stats {
	bs := e.axes
	down := t.from.Down
	axes := t.from.Gamepad.Axes
	v := combine(bs, &down, &axes)
	st := Stats{StartValue: v, Peak: v, WasDown: v != 0}
	since := t.start
	var integral float64 // value times nanoseconds
	for _, i := range t.controls {
		r := &t.records[i]
		if !e.watches(r) || !applyControl(r, &down, &axes) {
			continue
		}
		nv := combine(bs, &down, &axes)
		if nv == v {
			continue
		}
		at := min(max(r.Time, t.start), t.end)
		span := time.Duration(at - since)
		integral += float64(v) * float64(span)
		switch {
		case v == 0:
			st.Presses++
		case nv == 0:
			st.Releases++
			st.Held += span
		default:
			st.Held += span
		}
		if abs32(nv) > abs32(st.Peak) {
			st.Peak = nv
		}
		v, since = nv, at
	}
	span := time.Duration(t.end - since)
	integral += float64(v) * float64(span)
	if v != 0 {
		st.Held += span
	}
	st.Value, st.Down = v, v != 0
	st.Mean = v
	if iv := t.end - t.start; iv > 0 {
		st.Mean = min(max(float32(integral/float64(iv)), -1), 1)
	}
	return st
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// compute folds the press and release records of the buttons in bs.
func (t *Tick) compute(bs []Button) Stats {
	var st Stats
	down := t.from.Down
	n := 0
	for _, b := range bs {
		if b.Valid() && down.Has(b) {
			n++
		}
	}
	st.WasDown = n > 0
	since := t.start
	for _, i := range t.controls {
		r := &t.records[i]
		b := r.Button
		if r.Kind == RecordAxis || !b.Valid() || !bound(bs, b) {
			continue
		}
		at := min(max(r.Time, t.start), t.end)
		if r.Kind == RecordPress {
			if down.Has(b) {
				continue
			}
			down.Add(b)
			if n == 0 {
				st.Presses++
				since = at
			}
			n++
		} else {
			if !down.Has(b) {
				continue
			}
			down.Remove(b)
			n--
			if n == 0 {
				st.Releases++
				st.Held += time.Duration(at - since)
			}
		}
	}
	if n > 0 {
		st.Down = true
		st.Held += time.Duration(t.end - since)
	}
	if st.Down {
		st.Value = 1
	}
	if st.WasDown {
		st.StartValue = 1
	}
	if st.WasDown || st.Presses > 0 {
		st.Peak = 1
	}
	st.Mean = st.Value
	if iv := t.end - t.start; iv > 0 {
		st.Mean = float32(float64(st.Held) / float64(iv))
	}
	return st
}

func bound(bs []Button, b Button) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}
