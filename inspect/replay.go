package inspect

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// DefaultKeyframeEvery is the keyframe interval of a zero
// [Options.KeyframeEvery]: five seconds at 60 Hz, so a seek resimulates
// at most 299 ticks.
const DefaultKeyframeEvery = 300

// Options configure a [Replay]. A zero Options holds the defaults.
type Options struct {
	// KeyframeEvery is the number of ticks between keyframes: 0 means
	// DefaultKeyframeEvery; at most 100000.
	KeyframeEvery int
}

func (o Options) validate() error {
	if o.KeyframeEvery < 0 || o.KeyframeEvery > 100000 {
		return fmt.Errorf("inspect: Options.KeyframeEvery is %d: want 0 (the default, %d) to 100000 ticks", o.KeyframeEvery, DefaultKeyframeEvery)
	}
	return nil
}

// StepFunc runs one tick of the game on the App a [Replay] inspects: the
// game's Update hook (a framework session's Update).
type StepFunc func(*runtime.TickContext) error

// Replay is the seek engine: it keeps what a replay handed the game every
// tick and a keyframe of the world every [Options.KeyframeEvery] ticks,
// and reaches any tick by restoring the nearest keyframe at or before it
// and running the ticks between again. The first pass is the replay
// itself: call [Replay.Observe] after every tick it runs; then [Replay.Seek]
// moves anywhere in it.
//
// A Replay and the App it holds belong to one goroutine at a time (the
// replay's simulation owner during the first pass, the [Server]'s lock
// after).
type Replay struct {
	app     *ecs.App
	step    StepFunc
	actions *input.Actions
	every   uint64

	ticks []runtime.TickContext // as the replay ran them, without Input
	// The input of each tick as the runtime built it: its interval,
	// records and polls (rebuilt with input.Tick.Fill from the state the
	// tick before left), and the state before each keyframe's tick.
	spans     []inputSpan
	keyStates []input.State
	in        input.Tick // the input of tick inAt
	inAt      int64      // -1: in holds no tick's input
	scratch   input.Tick // Input's, for another tick
	info      []Tick
	marks     []ecs.Mark // every tick's markers, Tick.marks indexes them
	keys      [][]byte   // wire form of the world after tick i*every
	snap      ecs.Snapshot
	stop      *runtime.StopSignal
	cur       int64 // the world is after this tick; -1 before the first pass
	done      bool
	last      SeekStats
}

// Tick is one tick of the timeline: what the runtime's update was, what
// the scheduler said of it, and what the game marked.
type Tick struct {
	Number    uint64        `json:"tick"`
	Kind      string        `json:"kind"`
	Delta     time.Duration `json:"delta_ns"`
	Steps     int           `json:"steps"`
	Final     bool          `json:"final"`
	Quiet     bool          `json:"quiet"`
	Coarse    bool          `json:"coarse"`
	Dropped   time.Duration `json:"dropped_ns"`
	Suspended time.Duration `json:"suspended_ns"`
	Debt      int64         `json:"debt_steps"`
	DebtTime  time.Duration `json:"debt_ns"`
	Rate      float64       `json:"rate"`
	Acting    string        `json:"acting"`
	// Resimulated is the scheduler's count of ticks run again after
	// rollbacks, so far.
	Resimulated uint64 `json:"resimulated"`
	Records     int    `json:"input_records"`
	Entities    int    `json:"entities"`
	Stop        bool   `json:"stop"`
	// Marks are the markers systems set on the tick ([ecs.Sys.Mark]).
	Marks []ecs.Mark `json:"marks,omitempty"`
}

// SeekStats says what the latest [Replay.Seek] did.
type SeekStats struct {
	Tick uint64 `json:"tick"`
	// From is the tick whose state the seek started from (a keyframe or
	// the state it was in), Resimulated the ticks it ran.
	From        int64         `json:"from"`
	Resimulated int           `json:"resimulated"`
	Elapsed     time.Duration `json:"elapsed_ns"`
}

// NewReplay prepares a seek engine over app, which step runs one tick of
// and whose actions name the input. It enables app's snapshots, failing
// with their refusals (ecs.App.EnableSnapshots).
func NewReplay(app *ecs.App, step StepFunc, actions *input.Actions, opts Options) (*Replay, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if app == nil || step == nil {
		return nil, errors.New("inspect: NewReplay needs an App and a step function")
	}
	if err := app.EnableSnapshots(); err != nil {
		return nil, fmt.Errorf("inspect: %w", err)
	}
	every := opts.KeyframeEvery
	if every == 0 {
		every = DefaultKeyframeEvery
	}
	return &Replay{app: app, step: step, actions: actions, every: uint64(every), cur: -1, inAt: -1, stop: runtime.NewStopSignal()}, nil
}

// Observe takes the tick the replay just ran: it keeps its context and
// input for running it again, adds it to the timeline, and saves a
// keyframe every Options.KeyframeEvery ticks. Ticks must come in order
// from 0. Call it after the game's Update, between ticks.
func (r *Replay) Observe(t *runtime.TickContext) error {
	if r.done {
		return errors.New("inspect: Observe after the first pass ended")
	}
	n := uint64(len(r.ticks))
	if t.Number != n {
		return fmt.Errorf("inspect: Observe of tick %d after %d ticks: ticks come in order from 0", t.Number, n)
	}
	if r.cur != int64(n)-1 {
		return fmt.Errorf("inspect: Observe of tick %d with the world after tick %d: a seek during the first pass puts it back first", n, r.cur)
	}
	tc := *t
	tc.Stop, tc.Owed = nil, runtime.Owed{}
	var sp inputSpan
	var from input.State
	if t.Input != nil {
		sp = inputSpan{start: t.Input.Start(), end: t.Input.End(), polls: t.Input.Polls()}
		if recs := t.Input.Records(); len(recs) > 0 {
			sp.records = append([]input.Record(nil), recs...)
		}
		from = t.Input.StartState()
	}
	r.spans = append(r.spans, sp)
	if n%r.every == 0 {
		r.keyStates = append(r.keyStates, from)
	}
	tc.Input = nil
	r.ticks = append(r.ticks, tc)
	info := Tick{
		Number: t.Number, Kind: t.Kind.String(), Delta: t.Delta, Steps: t.Steps, Final: t.Final, Quiet: t.Quiet, Coarse: t.Coarse,
		Dropped: t.Update.Dropped, Suspended: t.Timing.Suspended, Debt: t.Timing.Debt, DebtTime: t.Timing.DebtTime,
		Rate: t.Timing.Rate, Acting: t.Timing.Acting.String(), Resimulated: t.Timing.Resimulated, Stop: t.StopRequested(),
	}
	if t.Input != nil {
		info.Records = len(t.Input.Records())
	}
	r.app.World().EachEntity(func(ecs.Entity) bool { info.Entities++; return true })
	if m := r.app.Marks(); len(m) > 0 {
		info.Marks = append([]ecs.Mark(nil), m...)
	}
	r.info = append(r.info, info)
	r.cur, r.inAt = int64(n), -1
	if n%r.every == 0 {
		if err := r.app.Save(&r.snap); err != nil {
			return fmt.Errorf("inspect: keyframe at tick %d: %w", n, err)
		}
		b, err := r.snap.AppendBinary(nil)
		if err != nil {
			return fmt.Errorf("inspect: keyframe at tick %d: %w", n, err)
		}
		r.keys = append(r.keys, b)
	}
	return nil
}

// Finish ends the first pass: from then on the Replay seeks. It fails
// when no tick was observed.
func (r *Replay) Finish() error {
	if len(r.ticks) == 0 {
		return errors.New("inspect: the replay ran no tick")
	}
	r.done = true
	// The session's end ran its shutdown systems on the world: put it back
	// at its last tick.
	r.cur = -1
	return r.Seek(uint64(len(r.ticks) - 1))
}

// Ticks returns the number of ticks the first pass ran.
func (r *Replay) Ticks() int { return len(r.ticks) }

// Current returns the tick whose state the world holds (after that tick).
func (r *Replay) Current() uint64 { return uint64(max(r.cur, 0)) }

// App returns the inspected App, in the state after [Replay.Current].
func (r *Replay) App() *ecs.App { return r.app }

// Actions returns the input actions of the game.
func (r *Replay) Actions() *input.Actions { return r.actions }

// Timeline returns the timeline of ticks from (inclusive) to to
// (exclusive), clamped to the session.
func (r *Replay) Timeline(from, to uint64) []Tick {
	n := uint64(len(r.info))
	from, to = min(from, n), min(to, n)
	if to < from {
		to = from
	}
	return r.info[from:to]
}

// Input returns the input tick t consumed, nil when t is out of range.
// It stays valid until the next Observe.
func (r *Replay) Input(t uint64) *input.Tick {
	if t >= uint64(len(r.spans)) {
		return nil
	}
	if r.inAt >= 0 && uint64(r.inAt) == t {
		return &r.in
	}
	r.build(t, &r.scratch)
	return &r.scratch
}

// inputSpan is what a tick's input is rebuilt from.
type inputSpan struct {
	start, end timing.Instant
	polls      int
	records    []input.Record
}

// fill makes in the input of tick i, which starts from state from.
func (r *Replay) fill(in *input.Tick, i uint64, from input.State) {
	sp := &r.spans[i]
	in.Fill(r.actions, sp.start, sp.end, from, sp.records)
	in.SetPolls(sp.polls)
}

// build makes in the input of tick t, from the state before the keyframe
// at or before it through the inputs after it.
func (r *Replay) build(t uint64, in *input.Tick) {
	k := t / r.every * r.every
	r.fill(in, k, r.keyStates[t/r.every])
	for i := k + 1; i <= t; i++ {
		r.fill(in, i, in.State())
	}
}

// Context returns the context tick t ran with (its Input nil).
func (r *Replay) Context(t uint64) (runtime.TickContext, bool) {
	if t >= uint64(len(r.ticks)) {
		return runtime.TickContext{}, false
	}
	return r.ticks[t], true
}

// Seek puts the world in its state after tick t: from where it is when t
// is ahead of it and no keyframe is nearer, otherwise from the latest
// keyframe at or before t. It returns an error naming the range when t
// is beyond the session, and the game's error when a tick fails.
func (r *Replay) Seek(t uint64) error {
	start := timing.Now()
	n := uint64(len(r.ticks))
	if n == 0 {
		return errors.New("inspect: Seek before the first tick was observed")
	}
	if t >= n {
		return fmt.Errorf("inspect: tick %d is beyond the session: want 0 to %d", t, n-1)
	}
	k := t / r.every * r.every // the keyframe's tick
	from := r.cur
	if r.cur < 0 || uint64(r.cur) > t || uint64(r.cur) < k || (uint64(r.cur) < t && r.inAt != r.cur) {
		if err := r.app.DecodeSnapshot(&r.snap, r.keys[t/r.every]); err != nil {
			return fmt.Errorf("inspect: keyframe of tick %d: %w", k, err)
		}
		if err := r.app.Restore(&r.snap); err != nil {
			return fmt.Errorf("inspect: keyframe of tick %d: %w", k, err)
		}
		r.cur, from = int64(k), int64(k)
		r.build(k, &r.in)
		r.inAt = r.cur
	}
	ran := 0
	for uint64(r.cur) < t {
		i := uint64(r.cur + 1)
		tc := r.ticks[i]
		r.fill(&r.in, i, r.in.State())
		tc.Input = &r.in
		tc.Stop = r.stop
		if err := r.step(&tc); err != nil {
			r.cur, r.inAt = -1, -1
			return fmt.Errorf("inspect: running tick %d again: %w", i, err)
		}
		r.cur, r.inAt = int64(i), int64(i)
		ran++
	}
	r.last = SeekStats{Tick: t, From: from, Resimulated: ran, Elapsed: time.Duration(timing.Now() - start)}
	return nil
}

// resume puts the world back after the latest observed tick, where the
// first pass left it, when a seek during the pass (a live game's page)
// moved it.
func (r *Replay) resume() error {
	last := int64(len(r.ticks)) - 1
	if r.done || last < 0 || r.cur == last {
		return nil
	}
	return r.Seek(uint64(last))
}

// LastSeek returns what the latest Seek did.
func (r *Replay) LastSeek() SeekStats { return r.last }

// Memory is what a Replay holds besides the game.
type Memory struct {
	Keyframes     int `json:"keyframes"`
	KeyframeBytes int `json:"keyframe_bytes"`
	// TickBytes estimates the kept tick contexts and their input.
	TickBytes int `json:"tick_bytes"`
}

// Memory returns the keyframes' count and size and an estimate of the
// kept ticks' size.
func (r *Replay) Memory() Memory {
	m := Memory{Keyframes: len(r.keys)}
	for _, k := range r.keys {
		m.KeyframeBytes += cap(k)
	}
	m.TickBytes = cap(r.ticks)*int(unsafe.Sizeof(runtime.TickContext{})) + cap(r.spans)*int(unsafe.Sizeof(inputSpan{}))
	for i := range r.spans {
		m.TickBytes += cap(r.spans[i].records) * int(unsafe.Sizeof(input.Record{}))
	}
	m.TickBytes += cap(r.keyStates) * int(unsafe.Sizeof(input.State{}))
	m.TickBytes += cap(r.info) * int(unsafe.Sizeof(Tick{}))
	return m
}
