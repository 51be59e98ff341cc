package framework

import (
	"errors"
	"image"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/xvfb"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/nullrender"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// errNoWindow is what the window's stand-ins answer before it opens.
var errNoWindow = errors.New("framework: the window is not open yet (it opens after the game's Setup, or at Setup.Upload)")

// window is the platform a session runs on, opened after the game's
// Setup and the checks that depend on it, so that a configuration the
// game contradicts is reported with no window, X server or display: the
// runtime is built on stand-ins (ctx), and open puts the window's adapters
// in their place. Platform thread only.
type window struct {
	cfg   config.Config
	lib   *assets.Library
	ctx   *runtime.Adapters // the runtime's context
	input *lateInput        // nil: the input comes from a recording
	xvfb  *xvfb.Display
	open  bool
}

// newWindow returns the window cfg describes, not yet open, with the
// context to build the runtime on. withInput says whether the session
// reads the window's input (a replay reads the recording's).
func newWindow(cfg config.Config, lib *assets.Library, withInput bool) *window {
	w := &window{cfg: cfg, lib: lib}
	w.ctx = &runtime.Adapters{Display: notOpenDisplay{}, Presenter: notOpenPresenter{}, Renderer: notOpenRenderer{nullrender.New()}}
	if withInput {
		w.input = &lateInput{}
		w.ctx.Input = w.input
	}
	return w
}

// openOnce opens the window, with a private X server for a headless
// session on a machine with no display, and hands its adapters to the
// runtime's context. Later calls do nothing.
func (w *window) openOnce() error {
	if w.open {
		return nil
	}
	if w.cfg.Window.Headless && noDisplay() && w.xvfb == nil {
		d, err := startXvfb()
		if err != nil {
			return err
		}
		w.xvfb = d
	}
	ctx, err := openWindow(w.cfg)
	if err != nil {
		return err
	}
	w.open = true
	w.ctx.Display, w.ctx.Presenter, w.ctx.Resources = ctx.Display, ctx.Presenter, ctx.Resources
	// Before the simulation goroutine starts (this runs in InitPlatform),
	// which may read it in a report.
	w.ctx.Platform = ctx.Platform
	w.ctx.Renderer = assets.NewUploadingRenderer(w.lib, ctx.Renderer)
	if w.input != nil {
		w.input.in = ctx.Input
	}
	return nil
}

// close stops the private X server, after the runtime has closed the
// window.
func (w *window) close() {
	if w.xvfb != nil {
		w.xvfb.Close()
	}
}

// lateInput is the runtime's input adapter, the window's once it opens
// (the runtime takes its input adapter when it is built).
type lateInput struct{ in runtime.Input }

func (l *lateInput) Init() error {
	if l.in == nil {
		return nil
	}
	return l.in.Init()
}

func (l *lateInput) Poll(now timing.Instant, dst *input.Snapshot) {
	if l.in == nil {
		dst.Reset()
		dst.Time = now
		return
	}
	l.in.Poll(now, dst)
}

func (l *lateInput) Close() error {
	if l.in == nil {
		return nil
	}
	return l.in.Close()
}

// notOpenDisplay stands in for the display before the window opens; a
// session that fails before then runs its cleanup on it.
type notOpenDisplay struct{}

func (notOpenDisplay) PollEvents()                {}
func (notOpenDisplay) State() runtime.WindowState { return runtime.WindowState{} }
func (notOpenDisplay) Close() error               { return nil }

// notOpenPresenter stands in for the presenter before the window opens.
type notOpenPresenter struct{}

func (notOpenPresenter) Init() error    { return nil }
func (notOpenPresenter) Present() error { return errNoWindow }
func (notOpenPresenter) Close() error   { return nil }

// notOpenRenderer stands in for the renderer before the window opens: it
// creates nothing (a texture made now would not be the window's).
type notOpenRenderer struct{ render2d.Renderer }

func (notOpenRenderer) CreateTexture(*image.RGBA, render2d.TextureOptions) (render2d.TextureHandle, error) {
	return render2d.TextureHandle{}, errNoWindow
}

func (notOpenRenderer) CreateRenderTarget(int, int, render2d.TextureOptions) (render2d.TargetHandle, render2d.TextureHandle, error) {
	return render2d.TargetHandle{}, render2d.TextureHandle{}, errNoWindow
}

func (notOpenRenderer) CreateMaterial(render2d.MaterialDesc) (render2d.MaterialHandle, error) {
	return render2d.MaterialHandle{}, errNoWindow
}
