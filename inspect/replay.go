package inspect

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// DefaultKeyframeEvery is the widest keyframe interval a zero
// [Options.KeyframeEvery] picks: five seconds at 60 Hz, so a seek
// resimulates at most 299 ticks.
const DefaultKeyframeEvery = 300

// SeekBudget is the resimulation a zero [Options.KeyframeEvery] aims a
// seek at: the keyframes are spaced so that running the ticks from one
// to the next takes about this long, at the speed the first pass
// measures. A seek that runs a millisecond of ticks is seldom caught by
// a busy machine's scheduler in the middle.
const SeekBudget = time.Millisecond

// minKeyframeEvery is the narrowest interval a zero KeyframeEvery picks,
// for a game whose ticks are slow: keyframes cost memory.
const minKeyframeEvery = 10

// Options configure a [Replay]. A zero Options holds the defaults.
type Options struct {
	// KeyframeEvery is the number of ticks between keyframes: 0 picks it
	// from the first pass's speed (SeekBudget of ticks, 10 to
	// DefaultKeyframeEvery, measured again every 64 ticks); at most
	// 100000.
	KeyframeEvery int
}

func (o Options) validate() error {
	if o.KeyframeEvery < 0 || o.KeyframeEvery > 100000 {
		return fmt.Errorf("inspect: Options.KeyframeEvery is %d: want 0 (picked from the replay's speed) to 100000 ticks", o.KeyframeEvery)
	}
	return nil
}

// cachedKeys is how many keyframes a Replay keeps decoded: scrubbing back
// and forth over a few seconds restores them without decoding again.
const cachedKeys = 4

// StepFunc runs one tick of the game on the App a [Replay] inspects: the
// game's Update hook (a framework session's Update).
type StepFunc func(*runtime.TickContext) error

// Replay is the seek engine: it keeps what a replay handed the game every
// tick and a keyframe of the world every so many ticks ([Options]),
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
	every   uint64 // the keyframe interval, picked again every 64 ticks when auto
	auto    bool
	// The first pass's time per tick, measured between Observes.
	lastObs timing.Instant
	costs   [64]time.Duration
	nCosts  int

	// Every tick as the replay ran it, its input's interval, records
	// and polls (rebuilt with input.Tick.Fill from the state the tick
	// before left) and its timeline entry, compactly (ticklog.go).
	log       tickLog
	cursor    logCursor   // Seek's
	other     logCursor   // Timeline's, Input's and Context's
	lt        loggedTick  // scratch
	markCount int         // markers over the session
	states    []tickState // the game's state changes, in tick order
	machines  []stateMachine
	res       []ecs.ResourceValue // Observe's
	in        input.Tick          // the input of tick inAt
	inAt      int64               // -1: in holds no tick's input
	scratch   input.Tick          // Input's, for another tick
	keys      keyStore
	snap      ecs.Snapshot // Observe's, to save keyframes
	wire      []byte       // Observe's, the keyframe's wire form
	cache     [cachedKeys]cachedKey
	nextCache int
	stop      *runtime.StopSignal
	cur       int64 // the world is after this tick; -1 before the first pass
	done      bool
	last      SeekStats
	figures   Figures // the recording's presents and net figures (figures.go)
	sounds    *Sounds // the sounds of each tick (sounds.go); nil when not tapped
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
	// Presented is how many frames the game presented after the tick
	// and before the next one; -1 where the recording does not say (a
	// match's, one from before format 9, or a live game's last tick, whose
	// frames are still being presented).
	Presented int `json:"presented"`
	// Marks are the markers systems set on the tick ([ecs.Sys.Mark]).
	Marks []ecs.Mark `json:"marks,omitempty"`
	// States are the game's states entered on the tick: the state each
	// machine ([ecs.States]) is in on the first tick it is seen, then
	// each transition on the tick it happens (at its start).
	States []StateChange `json:"states,omitempty"`
	// Sounds are the sounds the tick started and stopped, in the order
	// it asked for them (see [Sounds]).
	Sounds []Sound `json:"sounds,omitempty"`
}

// StateChange is a game state machine ([ecs.States]) in a new state.
type StateChange struct {
	// Machine is the type of the machine's states (S of ecs.States[S]),
	// State the state as fmt's %v writes it (its String method, if any).
	Machine string `json:"machine"`
	State   string `json:"state"`
}

// tickState is a StateChange on a tick.
type tickState struct {
	tick uint64
	StateChange
}

// stateMachine is an ecs.States the first pass follows.
type stateMachine struct {
	res         any // the *ecs.States[S] resource
	name        string
	transitions uint64
}

// transitioner is what an ecs.States says of its transitions.
type transitioner interface{ Transitions() uint64 }

// ecsStates is the name ecs.States instances start with.
var ecsStates = reflect.TypeFor[ecs.States[int]]().PkgPath() + ".States["

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
	if err := logTypesErr(); err != nil {
		return nil, err
	}
	if err := app.EnableSnapshots(); err != nil {
		return nil, fmt.Errorf("inspect: %w", err)
	}
	r := &Replay{app: app, step: step, actions: actions, every: uint64(opts.KeyframeEvery), cur: -1, inAt: -1, stop: runtime.NewStopSignal(), keys: newKeyStore()}
	if r.every == 0 {
		r.every, r.auto = minKeyframeEvery, true // until the first measure
	}
	for i := range r.cache {
		r.cache[i].key = -1
	}
	return r, nil
}

// cachedKey is a keyframe decoded.
type cachedKey struct {
	key  int
	snap ecs.Snapshot
}

// measure takes the time since the last Observe as one tick's cost and,
// every 64 ticks, spaces the keyframes so that SeekBudget runs from one
// to the next at the median cost (a live follower's waits for the
// recording are the few slow ones the median leaves out).
func (r *Replay) measure() {
	now := timing.Now()
	if r.lastObs != 0 {
		r.costs[r.nCosts%len(r.costs)] = time.Duration(now - r.lastObs)
		r.nCosts++
		if r.auto && r.nCosts%len(r.costs) == 0 {
			c := r.costs
			slices.Sort(c[:])
			per := max(c[len(c)/2], time.Microsecond/10)
			r.every = uint64(min(max(int64(SeekBudget/per), minKeyframeEvery), DefaultKeyframeEvery))
		}
	}
}

// Observe takes the tick the replay just ran: it keeps its context and
// input for running it again, adds it to the timeline, and saves a
// keyframe every Options.KeyframeEvery ticks. Ticks must come in order
// from 0. Call it after the game's Update, between ticks.
func (r *Replay) Observe(t *runtime.TickContext) error {
	if r.done {
		return errors.New("inspect: Observe after the first pass ended")
	}
	n := r.log.n
	if t.Number != n {
		return fmt.Errorf("inspect: Observe of tick %d after %d ticks: ticks come in order from 0", t.Number, n)
	}
	if r.cur != int64(n)-1 {
		return fmt.Errorf("inspect: Observe of tick %d with the world after tick %d: a seek during the first pass puts it back first", n, r.cur)
	}
	lt := &r.lt
	*lt = loggedTick{ctx: runtime.TickContext{Update: t.Update, Timing: t.Timing, Window: t.Window}, stop: t.StopRequested(),
		recFrom: len(r.log.records), markFrom: len(r.log.marks)}
	var from input.State
	if t.Input != nil {
		lt.start, lt.end, lt.polls = t.Input.Start(), t.Input.End(), t.Input.Polls()
		r.log.records = append(r.log.records, t.Input.Records()...)
		from = t.Input.StartState()
	}
	r.app.World().EachEntity(func(ecs.Entity) bool { lt.entities++; return true })
	m := r.app.Marks()
	r.log.marks = append(r.log.marks, m...)
	r.markCount += len(m)
	r.log.add(lt)
	r.observeStates(n)
	if r.sounds != nil {
		r.sounds.tick = n + 1
	}
	r.cur, r.inAt = int64(n), -1
	r.measure()
	if keys := r.keys.keys; len(keys) == 0 || n-keys[len(keys)-1].tick >= r.every {
		if err := r.app.Save(&r.snap); err != nil {
			return fmt.Errorf("inspect: keyframe at tick %d: %w", n, err)
		}
		var err error
		if r.wire, err = r.snap.AppendBinary(r.wire[:0]); err != nil {
			return fmt.Errorf("inspect: keyframe at tick %d: %w", n, err)
		}
		if r.wire, err = r.keys.add(n, r.wire, from); err != nil {
			return fmt.Errorf("inspect: keyframe at tick %d: %w", n, err)
		}
	}
	r.lastObs = timing.Now() // the keyframe's cost is not a tick's
	return nil
}

// observeStates notes the state machines that are new or made a
// transition on tick n. They are resources of the world, looked for on
// every tick (a game adds them in Setup, but nothing forbids later).
func (r *Replay) observeStates(n uint64) {
	r.res = r.app.World().Resources(r.res[:0])
	for _, res := range r.res {
		tr, ok := res.Value.(transitioner)
		if !ok {
			continue
		}
		t := reflect.TypeOf(res.Value).Elem()
		if !strings.HasPrefix(t.PkgPath()+"."+t.Name(), ecsStates) {
			continue // a game's own type with a Transitions method
		}
		i := slices.IndexFunc(r.machines, func(m stateMachine) bool { return m.res == res.Value })
		if i < 0 {
			cur := reflect.ValueOf(res.Value).MethodByName("Current")
			if !cur.IsValid() || cur.Type().NumOut() != 1 {
				continue
			}
			r.machines = append(r.machines, stateMachine{res: res.Value, name: cur.Type().Out(0).String(), transitions: tr.Transitions()})
			i = len(r.machines) - 1
		} else if tr.Transitions() == r.machines[i].transitions {
			continue
		}
		m := &r.machines[i]
		m.transitions = tr.Transitions()
		cur := reflect.ValueOf(res.Value).MethodByName("Current").Call(nil)[0]
		r.states = append(r.states, tickState{tick: n, StateChange: StateChange{Machine: m.name, State: fmt.Sprint(cur.Interface())}})
	}
}

// keyAt returns the index of the latest keyframe at or before tick t.
func (r *Replay) keyAt(t uint64) int {
	i, _ := slices.BinarySearchFunc(r.keys.keys, t, func(k keyframe, t uint64) int { return cmp.Compare(k.tick, t+1) })
	return i - 1
}

// restore puts the world in keyframe i's state, decoding it unless one
// of the last few restored was i.
func (r *Replay) restore(i int) error {
	c := -1
	for j := range r.cache {
		if r.cache[j].key == i {
			c = j
		}
	}
	if c < 0 {
		c = r.nextCache
		r.nextCache = (r.nextCache + 1) % len(r.cache)
		r.cache[c].key = -1
		wire, err := r.keys.wireOf(i)
		if err != nil {
			return err
		}
		if err := r.app.DecodeSnapshot(&r.cache[c].snap, wire); err != nil {
			return err
		}
		r.cache[c].key = i
	}
	return r.app.Restore(&r.cache[c].snap)
}

// Finish ends the first pass: from then on the Replay seeks. It fails
// when no tick was observed.
func (r *Replay) Finish() error {
	if r.log.n == 0 {
		return errors.New("inspect: the replay ran no tick")
	}
	r.done = true
	// The session's end ran its shutdown systems on the world: put it back
	// at its last tick.
	r.cur = -1
	return r.Seek(r.log.n - 1)
}

// Ticks returns the number of ticks the first pass ran.
func (r *Replay) Ticks() int { return int(r.log.n) }

// Markers returns the number of markers over the session.
func (r *Replay) Markers() int { return r.markCount }

// Current returns the tick whose state the world holds (after that tick).
func (r *Replay) Current() uint64 { return uint64(max(r.cur, 0)) }

// App returns the inspected App, in the state after [Replay.Current].
func (r *Replay) App() *ecs.App { return r.app }

// Actions returns the input actions of the game.
func (r *Replay) Actions() *input.Actions { return r.actions }

// Timeline returns the timeline of ticks from (inclusive) to to
// (exclusive), clamped to the session.
func (r *Replay) Timeline(from, to uint64) []Tick {
	n := r.log.n
	from, to = min(from, n), min(to, n)
	if to < from {
		to = from
	}
	out := make([]Tick, 0, to-from)
	s, _ := slices.BinarySearchFunc(r.states, from, func(c tickState, t uint64) int { return cmp.Compare(c.tick, t) })
	snd := r.sounds.at(from)
	for t := from; t < to; t++ {
		if err := r.log.read(&r.other, t, &r.lt); err != nil {
			break // the log is written here: it cannot be damaged
		}
		tk := r.lt.tick(r.log.marks)
		tk.Presented = -1
		if n, ok := r.figures.ticks.at(t); ok {
			tk.Presented = n
		}
		for ; s < len(r.states) && r.states[s].tick == t; s++ {
			tk.States = append(tk.States, r.states[s].StateChange)
		}
		for ; snd < r.sounds.count() && r.sounds.list[snd].tick == t; snd++ {
			tk.Sounds = append(tk.Sounds, r.sounds.list[snd].Sound)
		}
		out = append(out, tk)
	}
	return out
}

// tick is the timeline's entry for t.
func (t *loggedTick) tick(marks []ecs.Mark) Tick {
	u, s := &t.ctx.Update, &t.ctx.Timing
	tk := Tick{
		Number: u.Number, Kind: u.Kind.String(), Delta: u.Delta, Steps: u.Steps, Final: u.Final, Quiet: u.Quiet, Coarse: u.Coarse,
		Dropped: u.Dropped, Suspended: s.Suspended, Debt: s.Debt, DebtTime: s.DebtTime,
		Rate: s.Rate, Acting: s.Acting.String(), Resimulated: s.Resimulated, Stop: t.stop,
		Records: t.recTo - t.recFrom, Entities: t.entities,
	}
	if t.markTo > t.markFrom {
		tk.Marks = marks[t.markFrom:t.markTo:t.markTo]
	}
	return tk
}

// Input returns the input tick t consumed, nil when t is out of range.
// It stays valid until the next Observe.
func (r *Replay) Input(t uint64) *input.Tick {
	if t >= r.log.n {
		return nil
	}
	if r.inAt >= 0 && uint64(r.inAt) == t {
		return &r.in
	}
	r.build(t, &r.scratch)
	return &r.scratch
}

// fill makes in the input of tick i, which starts from state from, and
// leaves tick i in r.lt.
func (r *Replay) fill(c *logCursor, in *input.Tick, i uint64, from input.State) {
	if err := r.log.read(c, i, &r.lt); err != nil {
		panic(err) // i is in range, and the log is written here
	}
	in.Fill(r.actions, r.lt.start, r.lt.end, from, r.log.records[r.lt.recFrom:r.lt.recTo])
	in.SetPolls(r.lt.polls)
}

// build makes in the input of tick t, from the state before the keyframe
// at or before it through the inputs after it.
func (r *Replay) build(t uint64, in *input.Tick) {
	key := &r.keys.keys[r.keyAt(t)]
	k := key.tick
	c := &r.other
	if in == &r.in {
		c = &r.cursor
	}
	r.fill(c, in, k, key.state)
	for i := k + 1; i <= t; i++ {
		r.fill(c, in, i, in.State())
	}
}

// Context returns the context tick t ran with (its Input nil).
func (r *Replay) Context(t uint64) (runtime.TickContext, bool) {
	if t >= r.log.n {
		return runtime.TickContext{}, false
	}
	if err := r.log.read(&r.other, t, &r.lt); err != nil {
		return runtime.TickContext{}, false
	}
	return r.lt.ctx, true
}

// Seek puts the world in its state after tick t: from where it is when t
// is ahead of it and no keyframe is nearer, otherwise from the latest
// keyframe at or before t. It returns an error naming the range when t
// is beyond the session, and the game's error when a tick fails.
func (r *Replay) Seek(t uint64) error {
	start := timing.Now()
	n := r.log.n
	if n == 0 {
		return errors.New("inspect: Seek before the first tick was observed")
	}
	if t >= n {
		return fmt.Errorf("inspect: tick %d is beyond the session: want 0 to %d", t, n-1)
	}
	ki := r.keyAt(t)
	k := r.keys.keys[ki].tick
	from := r.cur
	if r.cur < 0 || uint64(r.cur) > t || uint64(r.cur) < k || (uint64(r.cur) < t && r.inAt != r.cur) {
		if err := r.restore(ki); err != nil {
			return fmt.Errorf("inspect: keyframe of tick %d: %w", k, err)
		}
		r.cur, from = int64(k), int64(k)
		r.build(k, &r.in)
		r.inAt = r.cur
	}
	ran := 0
	if r.sounds != nil {
		// The ticks run again make the sounds the first pass noted.
		r.sounds.off = true
		defer func() { r.sounds.off = false }()
	}
	for uint64(r.cur) < t {
		i := uint64(r.cur + 1)
		r.fill(&r.cursor, &r.in, i, r.in.State())
		tc := r.lt.ctx
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
	last := int64(r.log.n) - 1
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
	// KeyframeWire is what the keyframes would take as whole snapshots.
	KeyframeWire int `json:"keyframe_wire_bytes"`
	// TickBytes is what the kept ticks take: the compact tick log with
	// its input records and markers, and the keyframes' index.
	TickBytes int `json:"tick_bytes"`
}

// Memory returns the keyframes' count and size and an estimate of the
// kept ticks' size.
func (r *Replay) Memory() Memory {
	m := Memory{Keyframes: len(r.keys.keys)}
	m.KeyframeBytes, m.KeyframeWire = r.keys.bytes()
	m.TickBytes = r.log.bytes() + cap(r.keys.keys)*int(unsafe.Sizeof(keyframe{})) + cap(r.states)*int(unsafe.Sizeof(tickState{}))
	return m
}

// KeyframeEvery returns the keyframe interval: Options.KeyframeEvery, or
// the one picked from the first pass's speed (the latest pick).
func (r *Replay) KeyframeEvery() int { return int(r.every) }
