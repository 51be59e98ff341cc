package runtime_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// journal records the calls the runtime makes, from any goroutine, in the
// order they happen.
type journal struct {
	mu     sync.Mutex
	events []string
}

func (j *journal) add(e string) {
	if j == nil {
		return // benchmarks run without a journal
	}
	j.mu.Lock()
	j.events = append(j.events, e)
	j.mu.Unlock()
}

func (j *journal) list() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.events)
}

// without returns the events not in drop.
func without(events []string, drop ...string) []string {
	var out []string
	for _, e := range events {
		if !slices.Contains(drop, e) {
			out = append(out, e)
		}
	}
	return out
}

// loopEvents are the events a running loop repeats.
var loopEvents = []string{"PollEvents", "Update", "PrepareFrame", "Render", "Present"}

// fault is an injected failure: an error, or a panic when panics is set.
type fault struct {
	err    error
	panics bool
}

// faults maps a hook or adapter method name to its injected failure.
type faults map[string]fault

func (f faults) hit(name string) error {
	x, ok := f[name]
	if !ok {
		return nil
	}
	if x.panics {
		panic(x.err)
	}
	return x.err
}

type bubbleClock = runtimetest.BubbleClock

func newBubbleClock() *bubbleClock { return runtimetest.NewBubbleClock() }

// spend stands for work that takes d. Inside a synctest bubble the sleep
// returns as soon as every goroutine is blocked, with the fake clock moved
// on by d: nothing waits in real time.
func spend(d time.Duration) {
	if d > 0 {
		time.Sleep(d)
	}
}

// hook journals the calls of one fake and injects the faults named after
// them: prefix.Method, or the bare method name for those in bare.
func (r *rig) hook(prefix string, bare ...string) runtimetest.Hook {
	return func(m string) error {
		switch m {
		case "State", "SetFramebufferSize":
			return r.f.hit(prefix + "." + m)
		}
		name := prefix + "." + m
		if slices.Contains(bare, m) {
			name = m
		}
		r.j.add(name)
		if m == "Render" && r.onRender != nil {
			r.onRender()
		}
		return r.f.hit(name)
	}
}

// setHidden hides or shows the rig's window at once.
func (r *rig) setHidden(h bool) {
	r.display.Set(func(s *runtime.WindowState) { s.Hidden = h })
}

// sequences returns the sequence numbers of the rendered frames.
func (r *rig) sequences() []uint64 {
	var out []uint64
	for _, f := range r.renderer.Frames {
		out = append(out, f.Sequence)
	}
	return out
}

// tickRecord is a copy of what a tick carried.
type tickRecord struct {
	number            uint64
	kind              timing.Kind
	delta, observed   time.Duration
	dropped           time.Duration
	final, quiet      bool
	presses, releases int
	window            input.Size
}

// fakeGame logs every hook, injects faults, spends configured time and
// stops itself after a number of updates.
type fakeGame struct {
	j           *journal
	f           faults
	stopAfter   int
	updateCost  time.Duration
	prepareCost time.Duration
	watch       input.Button
	onUpdate    func(g *fakeGame, t *runtime.TickContext)
	onPlatform  func(g *fakeGame, plat *runtime.Platform) error
	onSim       func(g *fakeGame, sim *runtime.Simulation) error
	onQuiesce   func(g *fakeGame)
	onDeinit    func(g *fakeGame)

	rt       *runtime.GameRuntime // set by the rig
	plat     *runtime.Platform
	sim      *runtime.Simulation
	mu       sync.Mutex
	ticks    []tickRecord
	updates  atomic.Int64
	prepared atomic.Int64
}

func (g *fakeGame) InitPlatform(plat *runtime.Platform) error {
	g.j.add("InitPlatform")
	g.plat = plat
	if g.onPlatform != nil {
		if err := g.onPlatform(g, plat); err != nil {
			return err
		}
	}
	return g.f.hit("InitPlatform")
}

func (g *fakeGame) InitSimulation(sim *runtime.Simulation) error {
	g.j.add("InitSimulation")
	g.sim = sim
	if g.onSim != nil {
		if err := g.onSim(g, sim); err != nil {
			return err
		}
	}
	return g.f.hit("InitSimulation")
}

func (g *fakeGame) Update(t *runtime.TickContext) error {
	g.j.add("Update")
	n := g.updates.Add(1)
	rec := tickRecord{
		number: t.Number, kind: t.Kind, delta: t.Delta, observed: t.Input.Observed(),
		dropped: t.Dropped, final: t.Final, quiet: t.Quiet, window: t.Window.Size,
	}
	if t.Input != nil && g.watch != input.ButtonNone {
		s := t.Input.Button(g.watch)
		rec.presses, rec.releases = s.Presses, s.Releases
	}
	g.mu.Lock()
	g.ticks = append(g.ticks, rec)
	g.mu.Unlock()
	if g.onUpdate != nil {
		g.onUpdate(g, t)
	}
	spend(g.updateCost)
	if g.stopAfter > 0 && n >= int64(g.stopAfter) {
		if err := t.RequestStop(); err != nil {
			return err
		}
	}
	return g.f.hit("Update")
}

func (g *fakeGame) PrepareFrame(w *render2d.FrameWriter) error {
	g.j.add("PrepareFrame")
	g.prepared.Add(1)
	pw := w.BeginPass(render2d.PassDesc{Clear: true})
	pw.Draw(render2d.DrawPacket2D{Layer: int16(g.updates.Load())})
	w.Frame().Span.Step = 0 // nothing moves: present each frame once
	spend(g.prepareCost)
	return g.f.hit("PrepareFrame")
}

func (g *fakeGame) Quiesce() error {
	g.j.add("Quiesce")
	if g.onQuiesce != nil {
		g.onQuiesce(g)
	}
	return g.f.hit("Quiesce")
}

func (g *fakeGame) DeinitSimulation() error {
	g.j.add("DeinitSimulation")
	return g.f.hit("DeinitSimulation")
}

func (g *fakeGame) DeinitPlatform() error {
	g.j.add("DeinitPlatform")
	if g.onDeinit != nil {
		g.onDeinit(g)
	}
	return g.f.hit("DeinitPlatform")
}

func (g *fakeGame) records() []tickRecord {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.ticks)
}

// rig is a game on the test kit's fakes, journaled and with faults.
type rig struct {
	j         *journal
	f         faults
	game      *fakeGame
	display   *runtimetest.Display
	presenter *runtimetest.Presenter
	renderer  *runtimetest.Renderer
	input     *runtimetest.Input
	ctx       *runtime.Adapters
	clock     *bubbleClock
	opts      runtime.Options
	// onRender, when set, is called by Render on the platform thread.
	onRender func()
}

func newRig(mode runtime.Mode, f faults) *rig {
	if f == nil {
		f = faults{}
	}
	j := &journal{}
	r := &rig{j: j, f: f}
	r.game = &fakeGame{j: j, f: f}
	r.clock = newBubbleClock()
	ctx, fakes := runtimetest.NewAdapters(r.clock)
	r.ctx, r.display, r.presenter, r.renderer = ctx, fakes.Display, fakes.Presenter, fakes.Renderer
	r.display.Set(func(s *runtime.WindowState) { s.Framebuffer = input.Size{Width: 1280, Height: 720} })
	r.display.Hook = r.hook("display", "PollEvents")
	r.presenter.Hook = r.hook("presenter", "Present")
	r.renderer.Hook = r.hook("renderer", "Render")
	r.ctx.Input = nil
	r.opts = runtimetest.Options(r.clock, mode)
	return r
}

// withInput attaches a scripted source.
func (r *rig) withInput(script *inputtest.Script) *rig {
	r.input = &runtimetest.Input{Script: script, Hook: r.hook("input")}
	r.ctx.Input = r.input
	return r
}

func (r *rig) build() (*runtime.GameRuntime, error) {
	rt, err := runtime.New(r.game, r.ctx, r.opts)
	r.game.rt = rt
	return rt, err
}

// run builds and runs the session, returning Run's error.
func (r *rig) run() (*runtime.GameRuntime, error) {
	rt, err := r.build()
	if err != nil {
		return nil, fmt.Errorf("New: %w", err)
	}
	return rt, rt.Run()
}

var errInjected = errors.New("injected")
