package runtimetest

import (
	"slices"
	"sync"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Hook, when set on a fake, runs at the start of each of its methods with
// the method's name ("PollEvents", "Init", "Render", "Present", "Close", ...),
// on the goroutine that called it. An error it returns becomes the
// method's result where the method returns one; a panic in it propagates
// as if the adapter had panicked. Tests use it to log calls and inject
// failures.
type Hook func(method string) error

func (h Hook) call(method string) error {
	if h == nil {
		return nil
	}
	return h(method)
}

// Spender is a clock on which work can take time: [Clock] waits on the
// owner's waiter, [BubbleClock] sleeps in its synctest bubble.
type Spender interface {
	Spend(owner Owner, d time.Duration)
}

// Spend sleeps for d inside the clock's synctest bubble: work taking d.
// The owner does not matter there.
func (c *BubbleClock) Spend(_ Owner, d time.Duration) {
	if d > 0 {
		time.Sleep(d)
	}
}

// spend stands for work of duration d by owner: on a clock that can spend
// time it does; on any other clock it keeps the CPU busy for d of real
// time, as real work would (on the real clock that is the same thing).
func spend(clock timing.Clock, owner Owner, d time.Duration) {
	if s, ok := clock.(Spender); ok {
		s.Spend(owner, d)
		return
	}
	Busy(d)
}

// Busy keeps the calling goroutine's CPU busy for d of real time: a
// stand-in for real work in benchmarks on the real clock.
func Busy(d time.Duration) {
	if d <= 0 {
		return
	}
	end := timing.Now().AddSaturating(d)
	for timing.Now() < end {
	}
}

// DefaultWindow is the window a [Display] starts with: 640x360 logical
// units, a framebuffer of the same size, a content scale of 1, focused,
// shown and not fullscreen.
var DefaultWindow = runtime.WindowState{Window: input.Window{
	Size: input.Size{Width: 640, Height: 360}, Framebuffer: input.Size{Width: 640, Height: 360},
	Scale: input.Scale{X: 1, Y: 1}, Focused: true,
}}

// Display is a fake [runtime.Display] and [runtime.FullscreenDisplay]: a
// window whose state a test scripts. Scripted changes ([Display.Resize],
// [Display.Hide], [Display.Minimize], [Display.Focus],
// [Display.RequestClose], ...) take effect at the first PollEvents at or
// after their instant, in time order (ties in the order they were
// scripted); [Display.Set] changes the state at once. Safe for use from any
// goroutine.
type Display struct {
	Hook Hook

	clock      timing.Clock
	mu         sync.Mutex
	state      runtime.WindowState
	events     []windowEvent
	seq        int
	polls      int
	closeAfter int
	// release: a close press is reported; the next PollEvents lets go.
	release    bool
	fullscreen []bool // every SetFullscreen, in order
}

type windowEvent struct {
	at    timing.Instant
	seq   int
	apply func(*runtime.WindowState)
	press bool // a close press (RequestClose)
}

// NewDisplay returns a display showing [DefaultWindow] whose scripted
// events are due by clock's readings.
func NewDisplay(clock timing.Clock) *Display {
	return &Display{clock: clock, state: DefaultWindow}
}

// At schedules f to change the window state at the first poll at or after
// at. It returns d for chaining.
func (d *Display) At(at timing.Instant, f func(*runtime.WindowState)) *Display {
	return d.schedule(windowEvent{at: at, apply: f})
}

func (d *Display) schedule(e windowEvent) *Display {
	d.mu.Lock()
	defer d.mu.Unlock()
	e.seq = d.seq
	d.seq++
	i, _ := slices.BinarySearchFunc(d.events, e, func(a, b windowEvent) int {
		if a.at != b.at {
			return cmpInstant(a.at, b.at)
		}
		return a.seq - b.seq
	})
	d.events = slices.Insert(d.events, i, e)
	return d
}

func cmpInstant(a, b timing.Instant) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Resize makes the window w logical units and fb pixels at at.
func (d *Display) Resize(at timing.Instant, w, fb input.Size) *Display {
	return d.At(at, func(s *runtime.WindowState) { s.Size, s.Framebuffer = w, fb })
}

// Hide hides the window at at.
func (d *Display) Hide(at timing.Instant) *Display {
	return d.At(at, func(s *runtime.WindowState) { s.Hidden = true })
}

// Minimize minimises (true) or restores the window at at.
func (d *Display) Minimize(at timing.Instant, minimized bool) *Display {
	return d.At(at, func(s *runtime.WindowState) { s.Minimized = minimized })
}

// ContentScale changes the window's content scale at at, as moving it to a
// screen of another density does.
func (d *Display) ContentScale(at timing.Instant, scale input.Scale) *Display {
	return d.At(at, func(s *runtime.WindowState) { s.Scale = scale })
}

// Show shows the window again at at.
func (d *Display) Show(at timing.Instant) *Display {
	return d.At(at, func(s *runtime.WindowState) { s.Hidden = false })
}

// Focus gives (true) or takes (false) keyboard focus at at.
func (d *Display) Focus(at timing.Instant, focused bool) *Display {
	return d.At(at, func(s *runtime.WindowState) { s.Focused = focused })
}

// RequestClose is the user pressing the window's close button at at,
// reported as a real adapter reports it: CloseRequested is true at the
// first poll at or after at and false again at the next, so each call is
// one request (a press due while the previous one is still reported waits
// for the poll after it, and two presses due at the same poll are one).
// For a close intent that stays set, script CloseRequested with
// [Display.At].
func (d *Display) RequestClose(at timing.Instant) *Display {
	return d.schedule(windowEvent{at: at, press: true, apply: func(s *runtime.WindowState) {
		s.CloseRequested = true
		d.release = true // under d.mu: events apply inside PollEvents
	}})
}

// CloseAfterPolls makes the window ask to close at its n-th PollEvents
// (n > 0).
func (d *Display) CloseAfterPolls(n int) {
	d.mu.Lock()
	d.closeAfter = n
	d.mu.Unlock()
}

// Set changes the window state at once.
func (d *Display) Set(f func(*runtime.WindowState)) {
	d.mu.Lock()
	f(&d.state)
	d.mu.Unlock()
}

// PollEvents applies the scripted events that are due.
func (d *Display) PollEvents() {
	_ = d.Hook.call("PollEvents")
	d.mu.Lock()
	defer d.mu.Unlock()
	d.polls++
	released := d.release
	if released {
		d.state.CloseRequested, d.release = false, false
	}
	n := 0
	if len(d.events) > 0 {
		now := d.clock.Now()
		for n < len(d.events) && d.events[n].at <= now {
			if d.events[n].press && released {
				break // this poll reports the previous press's release
			}
			d.events[n].apply(&d.state)
			n++
		}
	}
	d.events = slices.Delete(d.events, 0, n)
	if d.closeAfter > 0 && d.polls >= d.closeAfter {
		d.state.CloseRequested = true
	}
}

// State returns the current window state.
func (d *Display) State() runtime.WindowState {
	_ = d.Hook.call("State")
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.state
}

// SetFullscreen implements [runtime.FullscreenDisplay]: the window is
// fullscreen (or not) from the next State on. Each call is kept for
// [Display.FullscreenCalls].
func (d *Display) SetFullscreen(on bool) error {
	if err := d.Hook.call("SetFullscreen"); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.state.Fullscreen = on
	d.fullscreen = append(d.fullscreen, on)
	return nil
}

// FullscreenCalls returns the argument of every SetFullscreen, in order.
func (d *Display) FullscreenCalls() []bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.fullscreen)
}

// Polls returns how many times PollEvents ran.
func (d *Display) Polls() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.polls
}

// Close implements [runtime.Display].
func (d *Display) Close() error { return d.Hook.call("Close") }

// Presenter is a fake [runtime.Presenter] that records the instant of
// every present. Cost is the time a present takes (see [Spender]; on the
// real clock it is busy time).
type Presenter struct {
	Hook Hook
	Cost time.Duration
	// Discard counts presents without keeping their instants, so that a
	// long run allocates nothing.
	Discard bool

	clock    timing.Clock
	mu       sync.Mutex
	count    int
	presents []timing.Instant
}

// NewPresenter returns a presenter that reads clock.
func NewPresenter(clock timing.Clock) *Presenter { return &Presenter{clock: clock} }

// Init implements [runtime.Presenter].
func (p *Presenter) Init() error { return p.Hook.call("Init") }

// Present records the present's instant (taken when it starts).
func (p *Presenter) Present() error {
	if err := p.Hook.call("Present"); err != nil {
		return err
	}
	var now timing.Instant
	if !p.Discard {
		now = p.clock.Now()
	}
	spend(p.clock, Platform, p.Cost)
	p.mu.Lock()
	p.count++
	if !p.Discard {
		p.presents = append(p.presents, now)
	}
	p.mu.Unlock()
	return nil
}

// Close implements [runtime.Presenter].
func (p *Presenter) Close() error { return p.Hook.call("Close") }

// Presents returns how many frames were presented.
func (p *Presenter) Presents() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count
}

// Instants returns the instant of every present, in order.
func (p *Presenter) Instants() []timing.Instant {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.presents)
}

// Renderer is a [rendertest.Recorder] as a session's renderer: it keeps a
// copy of every rendered frame in Frames (also after the runtime closes
// it), and Cost is the time a render takes (see [Spender]; on the real
// clock it is busy time). Read Frames after Run returns.
type Renderer struct {
	*rendertest.Recorder
	Hook Hook
	Cost time.Duration
	// Discard checks and counts frames without copying them, so that a
	// long run allocates nothing; Frames stays empty.
	Discard bool

	clock    timing.Clock
	mu       sync.Mutex
	sizes    []input.Size
	rendered int
}

// NewRenderer returns a renderer with a framebuffer of the default
// window's size and textures up to 4096 texels on a side.
func NewRenderer(clock timing.Clock) *Renderer {
	fb := DefaultWindow.Framebuffer
	return &Renderer{Recorder: rendertest.NewRecorder(fb.Width, fb.Height, 4096), clock: clock}
}

// SetFramebufferSize records the size and passes it on.
func (r *Renderer) SetFramebufferSize(w, h int) {
	_ = r.Hook.call("SetFramebufferSize")
	r.mu.Lock()
	r.sizes = append(r.sizes, input.Size{Width: w, Height: h})
	r.mu.Unlock()
	r.Recorder.SetFramebufferSize(w, h)
}

// FramebufferSizes returns every size the runtime set, in order.
func (r *Renderer) FramebufferSizes() []input.Size {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.sizes)
}

// Render records f.
func (r *Renderer) Render(f *render2d.Frame) error {
	if err := r.Hook.call("Render"); err != nil {
		return err
	}
	spend(r.clock, Platform, r.Cost)
	r.mu.Lock()
	r.rendered++
	r.mu.Unlock()
	if r.Discard {
		return render2d.ValidateFrame(f, r.Recorder)
	}
	return r.Recorder.Render(f)
}

// Rendered returns how many frames Render was given.
func (r *Renderer) Rendered() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rendered
}

// Close implements [render2d.Renderer]; the recorded frames stay.
func (r *Renderer) Close() error {
	if err := r.Hook.call("Close"); err != nil {
		return err
	}
	return r.Recorder.Close()
}

// Input is a [runtime.Input] over a scripted source: script buttons,
// cursor, scroll and text on its Script. The window's sizes and focus come
// from the [Display] (the runtime sends the display's window with every
// poll), so script those there.
type Input struct {
	*inputtest.Script
	Hook Hook
}

// NewInput returns an input adapter over an empty script.
func NewInput() *Input { return &Input{Script: inputtest.NewScript()} }

// Init implements [runtime.Input].
func (i *Input) Init() error { return i.Hook.call("Init") }

// Close implements [runtime.Input].
func (i *Input) Close() error { return i.Hook.call("Close") }

// Fakes are the adapters of a context made by [NewAdapters].
type Fakes struct {
	Clock     timing.Clock
	Display   *Display
	Presenter *Presenter
	Renderer  *Renderer
	Input     *Input
}

// Discard makes the presenter and the renderer count without keeping
// anything, for benchmarks and allocation tests.
func (f *Fakes) Discard() {
	f.Presenter.Discard = true
	f.Renderer.Discard = true
}

// NewAdapters assembles a [runtime.Adapters] of fakes on clock: a
// [Display] showing [DefaultWindow], a [Presenter], a [Renderer] and an
// [Input] over an empty script. Pass the same clock in runtime.Options.
func NewAdapters(clock timing.Clock) (*runtime.Adapters, *Fakes) {
	f := &Fakes{
		Clock:     clock,
		Display:   NewDisplay(clock),
		Presenter: NewPresenter(clock),
		Renderer:  NewRenderer(clock),
		Input:     NewInput(),
	}
	return &runtime.Adapters{Display: f.Display, Input: f.Input, Renderer: f.Renderer, Presenter: f.Presenter}, f
}

// Options returns [runtime.DefaultOptions] on clock in mode.
func Options(clock timing.Clock, mode runtime.Mode) runtime.Options {
	o := runtime.DefaultOptions()
	o.Clock = clock
	o.Mode = mode
	return o
}
