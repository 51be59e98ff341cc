package input

import (
	"math/bits"
	"time"
	"unicode/utf8"

	"github.com/metronome-go/metronome/timing"
)

// Stats describes one action or button over a tick's observed interval.
type Stats struct {
	// Down reports whether the action is down at the end of the interval:
	// any of its buttons is down.
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
	edges       []int32 // indices of press and release records
	text        []rune
	scrollX     float64
	scrollY     float64
	motionX     float64
	motionY     float64
	polls       int
	actions     *Actions
	fills       uint64
	cache       []cachedStats
}

type cachedStats struct {
	fill    uint64 // fill number the entry was computed for; 0 = never
	version uint64 // binding table version it was computed with
	stats   Stats
}

// Fill replaces the tick's contents: the interval [start, end), the State
// before it and the records observed in it, in order. Bindings are looked up
// in actions, which may be nil for a tick queried only by button. Records are
// copied; their timestamps are clamped into the interval when durations are
// measured, and an end before start is treated as start. Records should
// chain from from as snapshots do; a press of a button already down or a
// release of one already up is ignored by the summaries.
func (t *Tick) Fill(actions *Actions, start, end timing.Instant, from State, records []Record) {
	t.records = append(t.records[:0], records...)
	t.finish(actions, start, end, from, 0)
}

// finish computes everything derived from t.records.
func (t *Tick) finish(actions *Actions, start, end timing.Instant, from State, polls int) {
	if end < start {
		end = start
	}
	t.start, t.end, t.from, t.polls, t.actions = start, end, from, polls, actions
	t.fills++
	t.text = t.text[:0]
	t.edges = t.edges[:0]
	t.scrollX, t.scrollY, t.motionX, t.motionY = 0, 0, 0, 0
	s := from
	for i := range t.records {
		r := &t.records[i]
		switch r.Kind {
		case RecordPress, RecordRelease:
			t.edges = append(t.edges, int32(i))
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

// Window returns the window's sizes and focus at the end of the interval:
// as of the latest poll this tick consumed.
func (t *Tick) Window() Window { return t.state.Window }

// Button returns the summary of one button.
func (t *Tick) Button(b Button) Stats {
	one := [1]Button{b}
	return t.compute(one[:])
}

// Action returns the summary of an action: it is down while any of its
// buttons is down, so pressing a second bound button while the first is
// held is not a new press. The bindings are those current at the call; a
// result is cached until the next fill or rebind. An unregistered action is
// idle.
func (t *Tick) Action(a Action) Stats {
	tab := t.actions.load()
	bs := tab.bound(a)
	if bs == nil {
		return Stats{}
	}
	i := int(a - 1)
	if i >= len(t.cache) {
		t.cache = append(t.cache, make([]cachedStats, tab.count()-len(t.cache))...)
	}
	c := &t.cache[i]
	if c.fill != t.fills || c.version != tab.version {
		*c = cachedStats{fill: t.fills, version: tab.version, stats: t.compute(bs)}
	}
	return c.stats
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
// not given again to the next; use the records for other policies. The
// result is exact (integer arithmetic, rounded down) and never exceeds
// simDelta in magnitude.
func (t *Tick) SimulationTime(a Action, simDelta time.Duration) time.Duration {
	s := t.Action(a)
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
	for _, i := range t.edges {
		r := &t.records[i]
		b := r.Button
		if !b.Valid() || !bound(bs, b) {
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
