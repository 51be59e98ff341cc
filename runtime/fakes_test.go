package runtime_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
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

// fakeDisplay is a window that closes itself after a number of polls when
// asked to, and can be hidden.
type fakeDisplay struct {
	j          *journal
	f          faults
	mu         sync.Mutex
	state      runtime.WindowState
	polls      int
	closeAfter int
}

func (d *fakeDisplay) PollEvents() {
	d.j.add("PollEvents")
	d.mu.Lock()
	d.polls++
	if d.closeAfter > 0 && d.polls >= d.closeAfter {
		d.state.CloseRequested = true
	}
	d.mu.Unlock()
}

func (d *fakeDisplay) State() runtime.WindowState {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.state
}

func (d *fakeDisplay) setHidden(h bool) {
	d.mu.Lock()
	d.state.Hidden = h
	d.mu.Unlock()
}

func (d *fakeDisplay) Close() error { d.j.add("display.Close"); return d.f.hit("display.Close") }

type fakePresenter struct {
	j        *journal
	f        faults
	cost     time.Duration
	presents atomic.Int64
}

func (p *fakePresenter) Init() error { p.j.add("presenter.Init"); return p.f.hit("presenter.Init") }
func (p *fakePresenter) Present() error {
	p.j.add("Present")
	spend(p.cost)
	p.presents.Add(1)
	return p.f.hit("Present")
}
func (p *fakePresenter) Close() error { p.j.add("presenter.Close"); return p.f.hit("presenter.Close") }

// fakeRenderer records frame sequence numbers instead of drawing.
type fakeRenderer struct {
	*rendertest.Recorder
	j      *journal
	f      faults
	cost   time.Duration
	mu     sync.Mutex
	seqs   []uint64
	fbSize [2]int
	// onRender, when set, is called by Render on the platform thread.
	onRender func()
}

func newFakeRenderer(j *journal, f faults) *fakeRenderer {
	return &fakeRenderer{Recorder: rendertest.NewRecorder(1, 1, 64), j: j, f: f}
}

func (r *fakeRenderer) SetFramebufferSize(w, h int) {
	r.mu.Lock()
	r.fbSize = [2]int{w, h}
	r.mu.Unlock()
}

func (r *fakeRenderer) Render(f *render2d.Frame) error {
	r.j.add("Render")
	if r.onRender != nil {
		r.onRender()
	}
	spend(r.cost)
	r.mu.Lock()
	r.seqs = append(r.seqs, f.Sequence)
	r.mu.Unlock()
	return r.f.hit("Render")
}

func (r *fakeRenderer) Close() error {
	r.j.add("renderer.Close")
	if err := r.f.hit("renderer.Close"); err != nil {
		return err
	}
	return r.Recorder.Close()
}

func (r *fakeRenderer) sequences() []uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.seqs)
}

// fakeInput is a scripted source with attach and detach.
type fakeInput struct {
	input.Source
	j *journal
	f faults
}

func (i *fakeInput) Init() error  { i.j.add("input.Init"); return i.f.hit("input.Init") }
func (i *fakeInput) Close() error { i.j.add("input.Close"); return i.f.hit("input.Close") }

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
	onPlatform  func(g *fakeGame, rt *runtime.GameRuntime) error
	onSim       func(g *fakeGame, rt *runtime.GameRuntime) error
	onQuiesce   func(g *fakeGame)
	onDeinit    func(g *fakeGame)

	rt       *runtime.GameRuntime
	mu       sync.Mutex
	ticks    []tickRecord
	updates  atomic.Int64
	prepared atomic.Int64
}

func (g *fakeGame) InitPlatform(rt *runtime.GameRuntime) error {
	g.j.add("InitPlatform")
	g.rt = rt
	if g.onPlatform != nil {
		if err := g.onPlatform(g, rt); err != nil {
			return err
		}
	}
	return g.f.hit("InitPlatform")
}

func (g *fakeGame) InitSimulation(rt *runtime.GameRuntime) error {
	g.j.add("InitSimulation")
	if g.onSim != nil {
		if err := g.onSim(g, rt); err != nil {
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

// rig is a game on fake adapters.
type rig struct {
	j         *journal
	f         faults
	game      *fakeGame
	display   *fakeDisplay
	presenter *fakePresenter
	renderer  *fakeRenderer
	script    *scriptSource
	ctx       *runtime.Context
	clock     *bubbleClock
	opts      runtime.Options
}

// scriptSource wraps the scripted input so tests can script it through the
// rig.
type scriptSource = fakeInput

func newRig(mode runtime.Mode, f faults) *rig {
	if f == nil {
		f = faults{}
	}
	j := &journal{}
	r := &rig{j: j, f: f}
	r.game = &fakeGame{j: j, f: f}
	r.display = &fakeDisplay{j: j, f: f, state: runtime.WindowState{Window: input.Window{Size: input.Size{Width: 640, Height: 360}, Framebuffer: input.Size{Width: 1280, Height: 720}, Focused: true}}}
	r.presenter = &fakePresenter{j: j, f: f}
	r.renderer = newFakeRenderer(j, f)
	r.clock = newBubbleClock()
	r.opts = runtime.DefaultOptions()
	r.opts.Mode = mode
	r.opts.Clock = r.clock
	return r
}

// withInput attaches a scripted source.
func (r *rig) withInput(src input.Source) *rig {
	r.script = &fakeInput{Source: src, j: r.j, f: r.f}
	return r
}

func (r *rig) build() (*runtime.GameRuntime, error) {
	r.ctx = &runtime.Context{Display: r.display, Presenter: r.presenter, Renderer: r.renderer}
	if r.script != nil {
		r.ctx.Input = r.script
	}
	return runtime.New(r.game, r.ctx, r.opts)
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
