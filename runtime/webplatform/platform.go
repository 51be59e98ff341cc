//go:build js && wasm

package webplatform

import (
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/pagemark"
	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
	"github.com/metronome-go/metronome/window"
)

// Config describes the page's canvas: the platform-independent
// [window.Options], whose Validate is the one statement of their ranges,
// and the canvas's id. The canvas's CSS size is the window's logical size
// (Width x Height, in CSS pixels, which are the page's screen
// coordinates), so [window.MaxSide] bounds it as it bounds a desktop
// window. Of the rest a page uses Title (the document's title) and
// Fullscreen (asked for at the first user gesture: browsers refuse it
// without one); Resizable, MinSize, MaxSize, AspectRatio and VSync are the
// page's style and the browser's (the canvas follows its element, and
// requestAnimationFrame paces presents), and are still validated. Use
// [DefaultConfig]: a zero size is invalid.
type Config struct {
	// Options are the window's. Width and Height are the canvas's CSS
	// size when the page gives it none (a canvas the page's style sizes
	// keeps that size and follows it). Default 1280 x 720.
	window.Options
	// Canvas is the id of the canvas element to draw into. When the page
	// has none, New appends one to the body. Default "metronome".
	Canvas string
}

// DefaultConfig returns [window.DefaultOptions] on a canvas with the id
// "metronome".
func DefaultConfig() Config { return Config{Options: window.DefaultOptions(), Canvas: "metronome"} }

// Validate reports every invalid field at once: the window's
// ([window.Options.Validate], *option.Error values) and an empty Canvas.
func (c Config) Validate() error {
	errs := []error{c.Options.Validate()}
	if c.Canvas == "" {
		errs = append(errs, &option.Error{Pkg: "webplatform", Field: "Config.Canvas", Value: "", Problem: "is empty",
			Allowed: `the id of a canvas element, such as "metronome"`})
	}
	return errors.Join(errs...)
}

// New finds (or makes) the canvas, opens a WebGL2 renderer on it and
// returns a context holding the display, the input source, the renderer
// and the presenter. A browser without WebGL2 gets an error wrapping
// [glrender.ErrNoWebGL2], also written on the page. Platform goroutine
// (the program's main goroutine) only.
func New(cfg Config) (*runtime.Adapters, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	doc := js.Global().Get("document")
	if cfg.Title != "" {
		doc.Set("title", cfg.Title)
	}
	canvas := doc.Call("getElementById", cfg.Canvas)
	if canvas.IsNull() {
		canvas = doc.Call("createElement", "canvas")
		canvas.Set("id", cfg.Canvas)
		doc.Get("body").Call("appendChild", canvas)
	}
	if canvas.Get("clientWidth").Int() == 0 || canvas.Get("clientHeight").Int() == 0 {
		st := canvas.Get("style")
		st.Set("width", fmt.Sprintf("%dpx", cfg.Width))
		st.Set("height", fmt.Sprintf("%dpx", cfg.Height))
	}
	canvas.Set("tabIndex", 0) // focusable, so that it gets the keys
	d := newDisplay(canvas, cfg.Fullscreen)
	pagemark.Mark("metronome:canvas")
	rend, err := glrender.New(canvas)
	pagemark.Mark("metronome:renderer")
	if err == nil {
		// Before the game's clock starts: a browser translates each
		// program at its first draw, which would stall the first frames.
		if err = rend.WarmUp(); err != nil {
			rend.Close()
		}
		pagemark.Mark("metronome:warm-end")
	}
	if err != nil {
		if errors.Is(err, glrender.ErrNoWebGL2) {
			showMessage(err.Error())
		}
		d.Close()
		return nil, err
	}
	src := newSource(d)
	h := newHook(d, src)
	return &runtime.Adapters{
		Display:   d,
		Input:     src,
		Renderer:  h.renderer(rend),
		Presenter: &Presenter{hook: h},
		Platform: runtime.PlatformReport{
			Device:   rend.Device(),
			DrawPath: rend.DrawPath().String(),
			// 5 steps take 0.5 ms at Chromium's 100 µs; 100,000 reads
			// bound a stopped clock to a few ms.
			ClockResolution: timing.Resolution(timing.Now, 5, 100_000),
		},
	}, nil
}

// showMessage writes msg on the page, where the player sees it (the
// canvas would stay blank).
func showMessage(msg string) {
	if f := js.Global().Get("metronomeMessage"); f.Type() == js.TypeFunction {
		f.Invoke(msg)
		return
	}
	doc := js.Global().Get("document")
	p := doc.Call("createElement", "p")
	p.Set("textContent", msg)
	doc.Get("body").Call("appendChild", p)
}

// Display follows the canvas and the page: sizes (the canvas's CSS size
// is the window size, times devicePixelRatio its framebuffer), focus,
// visibility and fullscreen. It implements [runtime.Display] and
// [runtime.FullscreenDisplay]. Its methods run on the platform
// goroutine.
type Display struct {
	canvas js.Value
	doc    js.Value
	state  runtime.WindowState
	funcs  []listener
	events []event // what the page's listeners saw since the last poll
	// wantFullscreen asks for fullscreen at the next user gesture.
	wantFullscreen bool
	closed         bool
}

// listener is one event listener New installed, removed by Close.
type listener struct {
	target js.Value
	name   string
	fn     js.Func
}

func newDisplay(canvas js.Value, fullscreen bool) *Display {
	d := &Display{canvas: canvas, doc: js.Global().Get("document"), wantFullscreen: fullscreen}
	d.resize()
	d.state.Hidden = d.doc.Get("visibilityState").String() == "hidden"
	d.state.Focused = d.doc.Call("hasFocus").Bool()
	win := js.Global()
	d.listen(d.doc, "visibilitychange", func(js.Value) {
		d.state.Hidden = d.doc.Get("visibilityState").String() == "hidden"
	})
	d.listen(win, "focus", func(js.Value) { d.state.Focused = true; d.push(event{kind: evFocus, on: true}) })
	d.listen(win, "blur", func(js.Value) { d.state.Focused = false; d.push(event{kind: evFocus}) })
	d.listen(d.doc, "fullscreenchange", func(js.Value) {
		d.state.Fullscreen = !d.doc.Get("fullscreenElement").IsNull()
	})
	return d
}

// listen adds an event listener that runs fn; Close removes it.
func (d *Display) listen(target js.Value, name string, fn func(e js.Value)) {
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			fn(args[0])
		}
		return nil
	})
	target.Call("addEventListener", name, f, map[string]any{"passive": false})
	d.funcs = append(d.funcs, listener{target, name, f})
}

// push queues an event for the input source's next poll. A listener runs
// while the Go program is parked (wasm has one thread, and the browser
// calls listeners only between Go's blocking points), so the queue needs
// no lock.
func (d *Display) push(e event) { d.events = append(d.events, e) }

// resize gives the canvas the framebuffer its CSS size and the device
// pixel ratio ask for.
func (d *Display) resize() {
	w, h := d.canvas.Get("clientWidth").Int(), d.canvas.Get("clientHeight").Int()
	dpr := js.Global().Get("devicePixelRatio").Float()
	if !(dpr > 0) {
		dpr = 1
	}
	fw, fh := int(float64(w)*dpr+0.5), int(float64(h)*dpr+0.5)
	if fw != d.state.Framebuffer.Width || fh != d.state.Framebuffer.Height {
		d.canvas.Set("width", fw)
		d.canvas.Set("height", fh)
	}
	s := runtime.WindowState{Window: d.state.Window}
	s.Size = input.Size{Width: w, Height: h}
	s.Framebuffer = input.Size{Width: fw, Height: fh}
	s.Scale = input.Scale{X: float32(dpr), Y: float32(dpr)}
	if s.Size != d.state.Size {
		d.push(event{kind: evSize, x: float64(w), y: float64(h)})
	}
	if s.Framebuffer != d.state.Framebuffer {
		d.push(event{kind: evFramebuffer, x: float64(fw), y: float64(fh)})
	}
	d.state.Window = s.Window
}

// PollEvents follows the canvas's size: the page's listeners have already
// run (the browser ran them while the program waited).
func (d *Display) PollEvents() {
	if !d.closed {
		d.resize()
	}
}

// State returns the page's facts. A page is never asked to close: the
// player closes the tab, which ends the program with it.
func (d *Display) State() runtime.WindowState { return d.state }

// SetFullscreen asks the browser to show the canvas fullscreen (true) or
// leave fullscreen. Browsers grant it only during a user gesture: a
// request outside one is kept and made at the next key or click. The
// window's facts say when the browser has done it. It implements
// [runtime.FullscreenDisplay].
func (d *Display) SetFullscreen(on bool) error {
	d.wantFullscreen = on
	if !on {
		if !d.doc.Get("fullscreenElement").IsNull() {
			d.doc.Call("exitFullscreen")
		}
		return nil
	}
	d.requestFullscreen()
	return nil
}

func (d *Display) requestFullscreen() {
	if !d.wantFullscreen || !d.doc.Get("fullscreenElement").IsNull() {
		return
	}
	if f := d.canvas.Get("requestFullscreen"); f.Type() == js.TypeFunction {
		p := d.canvas.Call("requestFullscreen")
		// A refusal (no gesture) rejects the promise; keep the wish for
		// the next gesture rather than report an uncaught rejection.
		p.Call("catch", js.FuncOf(func(js.Value, []js.Value) any { return nil }))
	}
}

// Close removes every listener. Repeated calls do nothing.
func (d *Display) Close() error {
	if d.closed {
		return nil
	}
	d.closed = true
	for _, l := range d.funcs {
		l.target.Call("removeEventListener", l.name, l.fn)
		l.fn.Release()
	}
	d.funcs = nil
	return nil
}

// eventInstant is the instant on timing's clock of a DOM event's
// timeStamp. Both count from the page's time origin: timing.Now is
// performance.now() in the wasm runtime (wasm_exec.js's nanotime), and an
// event's timeStamp is a performance.now() reading taken when the event
// happened, so the event is now minus the difference, never after now.
func eventInstant(e js.Value, perf js.Value) timing.Instant {
	now := timing.Now()
	ts := e.Get("timeStamp").Float()
	ago := perf.Call("now").Float() - ts
	if !(ago > 0) { // also NaN: an event with no timestamp is now
		return now
	}
	return now.AddSaturating(-time.Duration(ago * float64(time.Millisecond)))
}

// Presenter shows each frame by giving the browser back its event loop
// until the next animation frame: requestAnimationFrame paces presents as
// vsync does on the desktop. It implements [runtime.Presenter] and
// [runtime.RefreshPresenter].
type Presenter struct {
	hook    *hook
	raf     js.Func
	frames  chan float64
	timer   *time.Timer
	refresh time.Duration
	last    float64
	// presented is set at the first Present.
	presented bool
}

// hiddenWait bounds a present's wait for an animation frame: a tab hidden
// between the poll and the present gets none until it is shown again, and
// the runtime must keep its own slow cycles meanwhile.
const hiddenWait = 250 * time.Millisecond

// Init measures the interval between animation frames (the display's
// refresh as the browser paces it): the shortest of six, counting those
// the page saw while the module loaded when it kept them.
func (p *Presenter) Init() error {
	p.frames = make(chan float64, 1)
	p.raf = js.FuncOf(func(_ js.Value, args []js.Value) any {
		t := 0.0
		if len(args) > 0 {
			t = args[0].Float()
		}
		select {
		case p.frames <- t:
		default:
		}
		return nil
	})
	p.timer = time.NewTimer(hiddenWait)
	seen := 0
	p.refresh, seen = pageRefresh()
	if seen >= pageRefreshIntervals {
		p.hook.setRefresh(p.refresh)
		return nil
	}
	// The shortest of the intervals still to see: a busy page (still
	// compiling, loading) makes some intervals longer than the refresh,
	// never shorter.
	prev, ok := p.next()
	for ; seen < pageRefreshIntervals; seen++ {
		if !ok {
			break // hidden: the refresh stays what the page saw, if anything
		}
		var t float64
		if t, ok = p.next(); ok {
			if d := time.Duration((t - prev) * float64(time.Millisecond)); d > 0 && (p.refresh == 0 || d < p.refresh) {
				p.refresh = d
			}
			prev = t
		}
	}
	p.hook.setRefresh(p.refresh)
	return nil
}

// pageRefreshIntervals is how many intervals between animation frames
// the refresh is the shortest of.
const pageRefreshIntervals = 6

// pageRefresh returns the refresh the page measured while the module
// loaded (cmd/webgame's page keeps metronomeRefresh: the shortest interval
// between animation frames, and how many it saw) and how many intervals
// it saw, and stops its measuring; 0, 0 when the page measured none.
// Init measures only the intervals still missing: on a busy machine
// drawing WebGL in software each animation frame can take a second, and
// a module that loads quickly leaves the page few of them (the page
// measured at least six in under a third of the loads of a busy machine,
// and Init then waited seven frames before the first present: 1.5-3 s at
// load 17-20).
func pageRefresh() (time.Duration, int) {
	r := js.Global().Get("metronomeRefresh")
	if r.Type() != js.TypeObject {
		return 0, 0
	}
	r.Set("stop", true)
	ms, n := r.Get("ms"), r.Get("intervals")
	if ms.Type() != js.TypeNumber || n.Type() != js.TypeNumber || n.Int() < 1 || !(ms.Float() > 0 && ms.Float() < 1000) {
		return 0, 0
	}
	r.Set("taken", true)
	return time.Duration(ms.Float() * float64(time.Millisecond)), n.Int()
}

// next waits for the next animation frame and returns its timestamp, or
// false after hiddenWait without one.
func (p *Presenter) next() (float64, bool) {
	// A frame that came after an earlier wait gave up is stale: without
	// dropping it this present would not wait at all.
	select {
	case <-p.frames:
	default:
	}
	js.Global().Call("requestAnimationFrame", p.raf)
	if !p.timer.Stop() {
		select {
		case <-p.timer.C:
		default:
		}
	}
	p.timer.Reset(hiddenWait)
	select {
	case t := <-p.frames:
		p.last = t
		return t, true
	case <-p.timer.C:
		return 0, false
	}
}

// RefreshInterval returns the interval between animation frames measured
// at Init, 0 if the page was hidden then.
func (p *Presenter) RefreshInterval() time.Duration { return p.refresh }

// Present waits for the next animation frame; the browser composites the
// canvas the renderer drew before it.
func (p *Presenter) Present() error {
	if !p.presented {
		// The first frame is drawn: what follows is the browser's wait
		// for an animation frame to composite it.
		p.presented = true
		pagemark.Mark("metronome:first-drawn")
	}
	p.next()
	// The frame is the browser's: collection may start (gcstart.go).
	gcStart.end()
	p.hook.presented(p.last)
	return nil
}

// Close releases the animation frame callback.
func (p *Presenter) Close() error {
	gcStart.end()
	if p.timer != nil {
		p.timer.Stop()
	}
	p.raf.Release()
	return nil
}
