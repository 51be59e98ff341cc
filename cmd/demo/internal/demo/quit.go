package demo

import (
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
)

// The close confirm's text and layers (above the loading screen).
const (
	confirmText              = "Quit without saving?\nEsc or close again = quit, any other key = stay (F5 saves)"
	layerConfirmBack   int16 = 30
	layerConfirmText   int16 = 31
	confirmW, confirmH       = 560, 64
)

// confirmPart marks the close confirm's entities.
type confirmPart struct{}

// quitState is the demo's side of negotiated shutdown: what was saved and
// whether the confirm is up. Simulation owner (the shutdown policy runs
// there too).
type quitState struct {
	// saved is the bunny count at the start or the latest save: the demo's
	// stand-in for a game's unsaved progress.
	saved  int
	asking bool
	texts  *ecs.Filter2[ecs.Transform, ecs.Text]
	backs  *ecs.Filter2[ecs.Transform, ecs.Sprite]
}

// setupQuit installs the session's shutdown policy, so that the window's
// close button and the quit action are put to the game instead of ending
// it at once. Platform thread, in Setup (before the session runs).
func (g *Game) setupQuit() error {
	w := g.app.World()
	g.quit = quitState{
		saved: g.opts.Sprites,
		texts: ecs.NewFilter2[ecs.Transform, ecs.Text](w).With(ecs.TypeOf[confirmPart]()),
		backs: ecs.NewFilter2[ecs.Transform, ecs.Sprite](w).With(ecs.TypeOf[confirmPart]()),
	}
	return g.rt.Shutdown().SetPolicy(g.shutdownPolicy)
}

// Unsaved reports whether the bunny count changed since the start or the
// latest save. Simulation owner.
func (g *Game) Unsaved() bool { return g.bunnies.Count() != g.quit.saved }

// Confirming reports whether the close confirm is on screen. Simulation
// owner (or between a Sim's steps).
func (g *Game) Confirming() bool { return g.quit.asking }

// Save takes the current bunny count as saved. Simulation owner.
func (g *Game) Save() {
	g.quit.saved = g.bunnies.Count()
	if g.overlay != nil {
		g.overlay.dirty = true
	}
}

// shutdownPolicy decides an ordinary shutdown request (the close button,
// the quit action), on the simulation owner before an update: with nothing
// unsaved it accepts at once; otherwise it defers the request and puts up
// the confirm, and a second request while the confirm is up (Repeats > 0)
// accepts. The confirm's other answer, staying, is the controls system's
// Refuse.
func (g *Game) shutdownPolicy(req runtime.ShutdownRequest) runtime.ShutdownDecision {
	if req.Repeats > 0 || !g.Unsaved() {
		g.quit.asking = false
		return runtime.ShutdownAccept
	}
	g.quit.asking = true
	return runtime.ShutdownDefer
}

// quitControls serves the quit action and the confirm: the quit action
// asks the session to end through the shutdown endpoint (so the policy
// decides, as for the close button), and while the confirm is up any other
// key or button press refuses the request. Simulation owner, from the
// controls system.
func (g *Game) quitControls(ctx *ecs.Sys, in *input.Tick) {
	q := &g.quit
	ep := g.rt.Shutdown()
	if q.asking {
		if _, open := ep.Deferred(); !open {
			q.asking = false // answered elsewhere, or the session is stopping
		}
	}
	quits := in.Presses(g.act.quit)
	if quits > 0 {
		_ = ep.Request(runtime.ReasonQuit) // ErrClosed: already stopping
	} else if q.asking && otherPresses(in) > 0 {
		if ep.Refuse() == nil {
			q.asking = false
		}
	}
	if in.Presses(g.act.save) > 0 {
		g.Save()
	}
	g.layoutConfirm(ctx)
}

// otherPresses counts the tick's key and button presses.
func otherPresses(in *input.Tick) int {
	n := 0
	for _, r := range in.Records() {
		if r.Kind == input.RecordPress && !r.Synthetic {
			n++
		}
	}
	return n
}

// spawnConfirm queues the confirm's backdrop and text, hidden. They show
// what the platform asked (a close), which a replay does not repeat, so
// they stay out of the world hash.
func (g *Game) spawnConfirm(ctx *ecs.Sys) {
	back := ctx.Commands.Spawn()
	ecs.With(back, ecs.At(0, 0))
	s := solid(render2d.Color{R: 0.35, G: 0.08, B: 0.08, A: 0.95}, confirmW, confirmH, layerConfirmBack)
	s.Hidden = true
	ecs.With(back, s)
	ecs.With(back, confirmPart{})
	ecs.With(back, ecs.Unhashed{})
	text := ctx.Commands.Spawn()
	ecs.With(text, ecs.At(0, 0))
	ecs.With(text, ecs.Text{Font: g.font, Color: textColor, Layer: layerConfirmText, Content: confirmText, Hidden: true})
	ecs.With(text, confirmPart{})
	ecs.With(text, ecs.Unhashed{})
}

// layoutConfirm shows the confirm, centred, while it is up.
func (g *Game) layoutConfirm(ctx *ecs.Sys) {
	w, h := g.arena(ctx)
	x, y := (w-confirmW)/2, (h-confirmH)/2
	hidden := !g.quit.asking
	bq := g.quit.backs.Query()
	for bq.Next() {
		t, s := bq.Get()
		t.Position, s.Hidden = geom.Vec2{X: x, Y: y}, hidden
		t.Teleport()
	}
	tq := g.quit.texts.Query()
	for tq.Next() {
		t, text := tq.Get()
		t.Position, text.Hidden = geom.Vec2{X: x + 14, Y: y + 10}, hidden
		t.Teleport()
	}
}
