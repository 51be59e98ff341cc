package demo

import (
	_ "embed"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Default costs of the injected loads.
const (
	DefaultSlowUpdate = 25 * time.Millisecond // per update: more than a 60 Hz step
	DefaultSlowRender = 40 * time.Millisecond // per platform cycle
	// SuspensionLength is the "laptop asleep" gap: longer than the debt
	// policy's default 5 s suspension threshold.
	SuspensionLength = 6 * time.Second
)

// Stalls are the one-off update stalls of keys 1 to 3.
var Stalls = [3]time.Duration{100 * time.Millisecond, 500 * time.Millisecond, 3 * time.Second}

// Options configure a Game.
type Options struct {
	// Sprites is the number of bunnies at the start; SpriteSize their size
	// in pixels (default 26).
	Sprites, SpriteSize int
	// Seed seeds the ECS random source.
	Seed uint64
	// Bench leaves out the player, the overlay and the panel: only the
	// bunnies are drawn. The measured run starts after WarmupFrames.
	Bench bool
	// BenchCompare, with Bench, switches interpolation on and off every
	// BenchSlice of the measured run and measures each variant by the
	// frames it presented ([Game.BenchVariants]).
	BenchCompare bool
	// Still keeps the bunnies where they spawned, for reproducible
	// screenshots.
	Still bool
	// RunFor and Frames stop the session after that much time (measured
	// on the platform thread from the first cycle, or from the end of the
	// warm-up in Bench mode) or that many presented frames; zero: no limit.
	// (framework.RunOptions has limits of its own that count from the
	// start; these serve the benchmark, which must not count its warm-up.)
	RunFor time.Duration
	Frames int
	// Sleep blocks the calling goroutine for d; the injected loads use it.
	// Nil is time.Sleep. Tests advance a manual clock instead.
	Sleep func(d time.Duration)
	// SlowUpdate and SlowRender are the costs of the persistent loads;
	// zero means DefaultSlowUpdate and DefaultSlowRender.
	SlowUpdate, SlowRender time.Duration
	// AtlasImages is how many generated images of AtlasSize texels a side
	// (default DefaultAtlasSize) the demo loads in the background at the
	// start, behind a loading screen, and then shows as the scene's
	// background; zero loads nothing and shows no loading screen.
	AtlasImages, AtlasSize int
	// AtlasGate, when not nil, runs on the worker before each atlas
	// image i is drawn: a test holds the load there to see its progress
	// tick by tick, whatever the speed of the machine.
	AtlasGate func(i int)
}

// WarmupFrames are presented before a benchmark starts measuring (shader
// compilation and buffer growth happen in the first frames).
const WarmupFrames = 5

// BenchSlice is how long a comparing benchmark runs each variant before
// switching to the other: short, so that both see the same drift in the
// machine's load, and long enough for many frames at benchmark sizes.
const BenchSlice = 250 * time.Millisecond

// Game is the demo: bunnies, a player, the timing overlay and the
// resilience panel, built from ECS systems when the framework calls its
// Setup (see Game.Framework).
//
// Setup runs on the platform thread, the ECS systems on the simulation
// owner. Methods documented as safe from any goroutine may be called while
// the session runs.
type Game struct {
	app  *ecs.App
	lib  *assets.Library
	opts Options
	rt   *runtime.GameRuntime
	// sim is the session's simulation handles, from its Startup on;
	// read from any goroutine (Inject).
	sim     atomic.Pointer[runtime.Simulation]
	actions *input.Actions
	act     actions

	bunnyImg, playerImg       assets.Image
	bunnyRegion, playerRegion assets.Region
	font                      assets.Font

	bunnies   *ecs.Filter2[ecs.Transform, Velocity]
	shots     *ecs.Filter2[ecs.Transform, Velocity]
	players   *ecs.Filter3[ecs.Transform, ecs.Sprite, Player]
	playerMap ecs.Map[Player]
	shotMap   ecs.Map[Shot]

	// scene is the scene's state outside its entities (a hashed
	// resource, so replays and sync-test see it).
	scene *sceneState

	sound  soundState
	sounds gameSounds
	atlas  *atlasLoad // nil: no background load
	quit   quitState
	// A fullscreen switch on its way to the platform thread, and the
	// mode it asked for. Simulation owner.
	fsPending *runtime.Future[struct{}]
	fsOn      bool

	panel   *Panel
	overlay *overlay
	hidden  bool

	// interp is whether frames are to be interpolated (the panel's switch,
	// the benchmark's alternation), applied to the ECS app by a system;
	// probe watches the presents.
	interp atomic.Bool
	probe  *presentProbe

	load loadState

	// Platform-thread bookkeeping of the run limits and the benchmark.
	runMu                   sync.Mutex
	started, measuring      bool
	startAt, lastAt         timing.Instant
	startFrames, lastFrames uint64
	sliceAt                 timing.Instant
}

// loadState is the injected load, set by the simulation's key handling and
// read on both threads.
type loadState struct {
	pendingStall atomic.Int64 // one-off update stall, consumed by the next update
	slowUpdate   atomic.Bool
	slowRender   atomic.Bool
	stalls       atomic.Uint64 // stalls served
}

// actions are the demo's input actions.
type actions struct {
	left, right, up, down, dash, fire input.Action
	add, remove, addAt, removeAt      input.Action
	prev, next, less, more            input.Action
	load                              [6]input.Action
	hide, quit, save, fullscreen      input.Action
}

// New checks opts and returns the demo; Game.Framework describes it to the
// framework, which builds it when the session starts.
func New(opts Options) (*Game, error) {
	var errs []error
	if opts.Sprites < 0 || opts.Sprites > MaxSprites {
		errs = append(errs, fmt.Errorf("demo: Options.Sprites is %d; allowed: 0 to %d", opts.Sprites, MaxSprites))
	}
	if opts.SpriteSize == 0 {
		opts.SpriteSize = 26
	}
	if opts.SpriteSize < 1 || opts.SpriteSize > 256 {
		errs = append(errs, fmt.Errorf("demo: Options.SpriteSize is %d; allowed: 1 to 256", opts.SpriteSize))
	}
	if opts.RunFor < 0 || opts.Frames < 0 {
		errs = append(errs, fmt.Errorf("demo: run limits %v and %d frames; allowed: 0 or more", opts.RunFor, opts.Frames))
	}
	if opts.AtlasSize == 0 {
		opts.AtlasSize = DefaultAtlasSize
	}
	if opts.AtlasImages < 0 || opts.AtlasImages > MaxAtlasImages {
		errs = append(errs, fmt.Errorf("demo: Options.AtlasImages is %d; allowed: 0 to %d", opts.AtlasImages, MaxAtlasImages))
	}
	if opts.AtlasSize < 1 || opts.AtlasSize > 1024 {
		errs = append(errs, fmt.Errorf("demo: Options.AtlasSize is %d; allowed: 1 to 1024", opts.AtlasSize))
	}
	if opts.SlowUpdate < 0 || opts.SlowRender < 0 {
		errs = append(errs, fmt.Errorf("demo: load costs %v and %v; allowed: 0 or more", opts.SlowUpdate, opts.SlowRender))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if opts.Sleep == nil {
		opts.Sleep = time.Sleep
	}
	if opts.SlowUpdate == 0 {
		opts.SlowUpdate = DefaultSlowUpdate
	}
	if opts.SlowRender == 0 {
		opts.SlowRender = DefaultSlowRender
	}
	return &Game{opts: opts}, nil
}

// Framework returns the demo as a framework game.
func (g *Game) Framework() framework.Game {
	fg := frameworkGame()
	fg.Seed, fg.Setup = g.opts.Seed, g.setupGame
	return fg
}

// configTOML is the demo's configuration, compiled in so that it applies
// wherever the demo runs: in a page (which has no working directory to
// find a file in) and from any directory, not only from the one holding
// the file. A config.toml beside the executable or --config overrides it.
//
//go:embed config.toml
var configTOML []byte

// frameworkGame is what the demo tells the framework before a session
// exists: what the configuration layers need.
func frameworkGame() framework.Game {
	return framework.Game{Title: "Metronome demo", Config: configTOML}
}

// setupGame builds the scene on the framework's ECS app: actions, textures,
// systems and the platform service that serves the run limits and the
// slow-render load. Platform thread.
func (g *Game) setupGame(s *framework.Setup) error {
	g.app, g.lib, g.rt, g.actions = s.App, s.Assets, s.Runtime, s.Actions
	g.interp.Store(s.Config.Render.Interpolation)
	if err := g.registerActions(s.Actions); err != nil {
		return err
	}
	var err error
	// The benchmark draws bunnies from a texture of about their size, as
	// cmd/bunnymark does, so that both measure the same texture sampling.
	texels := 32
	if g.opts.Bench {
		texels = min(g.opts.SpriteSize, 32)
	}
	if g.bunnyImg, err = g.lib.AddImage("bunny", bunnyImage(texels)); err != nil {
		return err
	}
	if g.playerImg, err = g.lib.AddImage("player", playerImage(32)); err != nil {
		return err
	}
	if !g.opts.Bench {
		if g.font, err = g.lib.DefaultFont(14); err != nil {
			return err
		}
		if err := g.setupSound(s); err != nil {
			return err
		}
	}
	if !g.opts.Bench && g.opts.AtlasImages > 0 {
		if err := g.reserveAtlas(); err != nil {
			return err
		}
	}
	// Upload now, so the sprites' regions resolve when the scene is built
	// (and the reserved pages get their textures before the first present).
	if err := s.Upload(); err != nil {
		return err
	}
	if g.bunnyRegion, err = g.lib.Region(g.bunnyImg); err != nil {
		return err
	}
	if g.playerRegion, err = g.lib.Region(g.playerImg); err != nil {
		return err
	}
	if !g.opts.Bench && g.opts.AtlasImages > 0 {
		// The load's jobs hand their results to the simulation owner,
		// whose handles exist from InitSimulation on: start it there.
		g.app.AddSystem(ecs.Startup, ecs.System{Name: "atlas load", Run: func(c *ecs.Sys) {
			g.sim.Store(s.Simulation())
			c.Fail(g.startAtlasLoad(s.Adapters.Renderer))
		}})
	} else {
		g.app.AddSystem(ecs.Startup, ecs.System{Name: "simulation handles", Run: func(*ecs.Sys) { g.sim.Store(s.Simulation()) }})
	}

	w := g.app.World()
	g.bunnies = ecs.NewFilter2[ecs.Transform, Velocity](w).With(ecs.TypeOf[Bunny]())
	g.shots = ecs.NewFilter2[ecs.Transform, Velocity](w).With(ecs.TypeOf[Shot]())
	g.players = ecs.NewFilter3[ecs.Transform, ecs.Sprite, Player](w)
	g.playerMap = ecs.NewMap[Player](w)
	g.shotMap = ecs.NewMap[Shot](w)
	g.scene = &sceneState{}
	ecs.AddResource(w, g.scene)
	ecs.HashResource[sceneState](w)

	app := g.app
	app.AddSystem(ecs.Startup, ecs.System{Name: "setup", Run: g.spawnScene})
	app.AddSystem(ecs.PreUpdate, g.eventSystem())
	app.AddSystem(ecs.PreUpdate, ecs.System{Name: "load", Run: g.injectLoad})
	app.AddSystem(ecs.PreUpdate, ecs.System{Name: "interpolation switch", Run: g.interpolationSwitch})
	if !g.opts.Bench {
		g.overlay = newOverlay(g)
		app.AddSystem(ecs.PreUpdate, ecs.System{Name: "loading", Run: g.loadingSystem})
		app.AddSystem(ecs.PreUpdate, ecs.System{Name: "controls", Run: g.controls})
		app.AddSystem(ecs.Update, g.playerSystem())
		app.AddSystem(ecs.Update, g.shotSystem())
		app.AddSystem(ecs.PostUpdate, g.pulseSystem())
	}
	app.AddSystem(ecs.Update, g.bunnyMover())
	if !g.opts.Bench {
		app.AddSystem(ecs.Update, g.probeSystem())
		app.AddSystem(ecs.PostUpdate, ecs.System{Name: "overlay", Run: g.overlay.update})
	}
	// Watch every present. The runtime draws through the context's
	// renderer at each present, so wrapping it here, on the platform
	// thread before the first frame, sees them all.
	ctx := s.Adapters
	g.probe = &presentProbe{Renderer: ctx.Renderer}
	ctx.Renderer = g.probe

	if !g.opts.Bench {
		if err := g.setupQuit(); err != nil {
			return err
		}
	}
	o := g.rt.Options()
	g.panel = NewPanel(gameControls{g.rt, g}, o.FrameCap, o.Polling.Delivery)
	_, err = g.rt.Services().Attach(runtime.Maintenance, g.platformService)
	return err
}

// interpolationSwitch puts the requested interpolation in force in the ECS
// app, whose switch belongs to the simulation owner, before the tick's
// frame is prepared. Off, the app gives frames no previous placements and
// no step, so the platform presents each frame once, as it is.
func (g *Game) interpolationSwitch(*ecs.Sys) {
	if want := g.interp.Load(); g.app.Interpolation() != want {
		g.app.SetInterpolation(want)
	}
}

// Interpolation reports whether frames are interpolated at each present
// (from the next tick, after a change). Safe from any goroutine.
func (g *Game) Interpolation() bool { return g.interp.Load() }

// SetInterpolation turns interpolation at each present on or off from the
// next tick's frame. It never fails; the error is the panel's
// [Interpolator] contract. Safe from any goroutine.
func (g *Game) SetInterpolation(on bool) error {
	g.interp.Store(on)
	return nil
}

// PresentSummary describes the latest presents: the alpha of the latest
// and the judder of the motion probe. The zero value before Setup; no
// judder figure in Bench mode, which has no probe. Safe from any goroutine.
func (g *Game) PresentSummary() PresentSummary {
	if g.probe == nil {
		return PresentSummary{}
	}
	return g.probe.Summary(g.rt.Options().FrameCap)
}

// gameControls are the panel's controls: the runtime's, and the demo's
// interpolation switch.
type gameControls struct {
	*runtime.GameRuntime
	g *Game
}

func (c gameControls) Interpolation() bool            { return c.g.Interpolation() }
func (c gameControls) SetInterpolation(on bool) error { return c.g.SetInterpolation(on) }
func (c gameControls) SoundVolume() float32           { return c.g.SoundVolume() }
func (c gameControls) SetSoundVolume(v float32) error { return c.g.SetSoundVolume(v) }
func (c gameControls) Music() bool                    { return c.g.Music() }
func (c gameControls) SetMusic(on bool) error         { return c.g.SetMusic(on) }
func (c gameControls) SoundOff() string               { return c.g.SoundOff() }

// fullscreenControls serves the fullscreen action: each press asks the
// platform to switch (rt.SetFullscreen, answered on the platform thread)
// from the mode the window reports, or from the one asked for while a
// switch is on its way. The answer is never waited for: a later tick
// finds it ready and a refusal shows on the panel's status line.
// Simulation owner.
func (g *Game) fullscreenControls(ctx *ecs.Sys, in *input.Tick) {
	if f := g.fsPending; f != nil && f.Ready() {
		g.fsPending = nil
		if _, err := f.Result(); err != nil && g.panel != nil {
			g.panel.Note("fullscreen: refused: " + err.Error())
			g.overlay.dirty = true
		}
	}
	if in.Presses(g.act.fullscreen)%2 == 0 {
		return
	}
	on := !ctx.Window.Fullscreen
	if g.fsPending != nil {
		on = !g.fsOn
	}
	g.fsPending, g.fsOn = g.rt.SetFullscreen(on), on
	if g.panel != nil {
		g.panel.Note("fullscreen: " + onOff(on))
		g.overlay.dirty = true
	}
}

// Runtime returns the runtime running the game, nil before Setup.
func (g *Game) Runtime() *runtime.GameRuntime { return g.rt }

// App returns the game's ECS app, nil before Setup.
func (g *Game) App() *ecs.App { return g.app }

// Panel returns the resilience panel, nil before Setup.
func (g *Game) Panel() *Panel { return g.panel }

// BenchResult returns the frames presented and the real time spent while
// measuring a benchmark run (after the warm-up). Safe from any goroutine.
func (g *Game) BenchResult() (frames uint64, elapsed time.Duration) {
	g.runMu.Lock()
	defer g.runMu.Unlock()
	if !g.measuring {
		return 0, 0
	}
	return g.lastFrames - g.startFrames, time.Duration(g.lastAt - g.startAt)
}

// BenchVariants returns what a benchmark measured of frames with
// interpolation and frames without, each present counted with the time
// since the previous one for the variant it showed. Safe from any
// goroutine.
func (g *Game) BenchVariants() (on, off BenchMeasure) {
	if g.probe == nil {
		return BenchMeasure{}, BenchMeasure{}
	}
	return g.probe.variants()
}

// Bunnies returns the number of bunnies. Simulation owner only.
func (g *Game) Bunnies() int { return g.bunnies.Count() }

// LoadState reports the persistent loads and the stalls served so far.
// Safe from any goroutine.
func (g *Game) LoadState() (slowUpdate, slowRender bool, stalls uint64) {
	return g.load.slowUpdate.Load(), g.load.slowRender.Load(), g.load.stalls.Load()
}

// platformService runs once per platform cycle: it blocks the platform
// thread while the slow-render load is on, and stops the session at the run
// limits.
func (g *Game) platformService(now timing.Instant) error {
	if g.load.slowRender.Load() {
		g.opts.Sleep(g.opts.SlowRender)
	}
	frames := g.rt.Stats().FramesPresented
	g.runMu.Lock()
	defer g.runMu.Unlock()
	if !g.started {
		g.started, g.startAt = true, now
	}
	if g.opts.Bench {
		if !g.measuring {
			if frames < WarmupFrames {
				return nil
			}
			g.measuring, g.startAt, g.startFrames, g.sliceAt = true, now, frames, now
			g.probe.measure()
		}
		g.lastAt, g.lastFrames = now, frames
		if g.opts.BenchCompare && time.Duration(now-g.sliceAt) >= BenchSlice {
			g.interp.Store(!g.interp.Load())
			g.sliceAt = now
		}
	}
	measured := frames - g.startFrames
	if g.opts.Frames > 0 && measured >= uint64(g.opts.Frames) ||
		g.opts.RunFor > 0 && time.Duration(now-g.startAt) >= g.opts.RunFor {
		g.rt.Stop()
	}
	return nil
}

func (g *Game) registerActions(a *input.Actions) error {
	var errs []error
	reg := func(dst *input.Action, name string, keys ...string) {
		act, err := a.RegisterNames(name, keys...)
		if err != nil {
			errs = append(errs, err)
		}
		*dst = act
	}
	reg(&g.act.left, "move_left", "A")
	reg(&g.act.right, "move_right", "D")
	reg(&g.act.up, "move_up", "W")
	reg(&g.act.down, "move_down", "S")
	reg(&g.act.dash, "dash", "Space")
	reg(&g.act.fire, "fire", "F")
	reg(&g.act.add, "add_bunnies", "Equal", "KPAdd")
	reg(&g.act.remove, "remove_bunnies", "Minus", "KPSubtract")
	reg(&g.act.addAt, "add_at_cursor", "MouseLeft")
	reg(&g.act.removeAt, "remove_at_cursor", "MouseRight")
	reg(&g.act.prev, "panel_up", "Up")
	reg(&g.act.next, "panel_down", "Down")
	reg(&g.act.less, "panel_less", "Left")
	reg(&g.act.more, "panel_more", "Right")
	for i := range g.act.load {
		reg(&g.act.load[i], fmt.Sprintf("load_%d", i+1), fmt.Sprint(i+1))
	}
	reg(&g.act.hide, "hide_overlay", "H")
	reg(&g.act.quit, "quit", "Escape")
	reg(&g.act.save, "save", "F5")
	reg(&g.act.fullscreen, "fullscreen", "F11")
	return errors.Join(errs...)
}

// spawnScene builds the scene: bunnies, the player and the overlay's
// entities.
func (g *Game) spawnScene(ctx *ecs.Sys) {
	// A camera at the origin anchored at the top-left corner: world units
	// are framebuffer pixels, and the pass starts with a clear.
	cam := ctx.Commands.Spawn()
	ecs.With(cam, ecs.At(0, 0))
	ecs.With(cam, ecs.Camera{Clear: true, ClearColor: clearColor})
	g.spawnBunnies(ctx, g.opts.Sprites, -1, -1)
	if g.opts.Bench {
		return
	}
	g.spawnPlayer(ctx)
	g.spawnMusic(ctx)
	g.overlay.spawn(ctx)
	g.spawnLoading(ctx)
	g.spawnConfirm(ctx)
}

// injectLoad serves the injected update load: a pending one-off stall and
// the persistent slow update. It blocks the simulation owner, which is
// what a slow update does.
func (g *Game) injectLoad(ctx *ecs.Sys) {
	if d := time.Duration(g.load.pendingStall.Swap(0)); d > 0 {
		g.load.stalls.Add(1)
		g.opts.Sleep(d)
	}
	if g.load.slowUpdate.Load() {
		g.opts.Sleep(g.opts.SlowUpdate)
	}
}

// Inject applies load key k (1 to 6): stalls of 100 ms, 500 ms and 3 s,
// a 6 s suspension, and the slow update and slow render toggles. Safe from
// any goroutine; stalls happen in the next update.
func (g *Game) Inject(k int) error {
	switch k {
	case 1, 2, 3:
		g.load.pendingStall.Store(int64(Stalls[k-1]))
	case 4:
		g.load.pendingStall.Store(int64(SuspensionLength))
		if sim := g.sim.Load(); sim != nil && g.rt.Mode() == runtime.Concurrent {
			// Everything sleeps, the platform thread too.
			sim.Dispatcher.Do(func() error { g.opts.Sleep(SuspensionLength); return nil })
		}
	case 5:
		g.load.slowUpdate.Store(!g.load.slowUpdate.Load())
	case 6:
		g.load.slowRender.Store(!g.load.slowRender.Load())
	default:
		return fmt.Errorf("demo: load key %d; allowed: 1 to 6", k)
	}
	return nil
}

// controls turns the tick's input into scene, panel and load changes.
func (g *Game) controls(ctx *ecs.Sys) {
	in := ctx.Input
	if in == nil {
		return
	}
	g.quitControls(ctx, in)
	g.fullscreenControls(ctx, in)
	if n := in.Presses(g.act.hide); n%2 == 1 {
		g.hidden = !g.hidden
	}
	for i := range g.act.load {
		if in.Presses(g.act.load[i]) > 0 {
			_ = g.Inject(i + 1)
			g.overlay.dirty = true
		}
	}
	if n := in.Presses(g.act.add); n > 0 {
		g.spawnBunnies(ctx, n*bunniesPerKey, -1, -1)
	}
	if n := in.Presses(g.act.remove); n > 0 {
		g.despawnBunnies(ctx, n*bunniesPerKey)
	}
	cx, cy := g.cursor(ctx)
	if n := in.Presses(g.act.addAt); n > 0 && !g.overlay.click(cx, cy, +1) {
		g.spawnBunnies(ctx, n*bunniesPerClick, cx, cy)
	}
	if n := in.Presses(g.act.removeAt); n > 0 && !g.overlay.click(cx, cy, -1) {
		g.despawnBunnies(ctx, n*bunniesPerClick)
	}
	if g.panel != nil {
		g.panel.Move(in.Presses(g.act.next) - in.Presses(g.act.prev))
		if d := in.Presses(g.act.more) - in.Presses(g.act.less); d != 0 {
			g.panel.Change(d)
			g.overlay.dirty = true
		}
	}
}

// cursor returns the cursor in framebuffer pixels (world units).
func (g *Game) cursor(ctx *ecs.Sys) (x, y float32) {
	cx, cy := ctx.Input.Cursor()
	if ww, fw := ctx.Window.Size.Width, ctx.Window.Framebuffer.Width; ww > 0 && fw > 0 {
		cx *= float64(fw) / float64(ww)
		cy *= float64(ctx.Window.Framebuffer.Height) / float64(max(ctx.Window.Size.Height, 1))
	}
	return float32(cx), float32(cy)
}

// clearColor is the scene's background.
var clearColor = render2d.Color{R: 0.16, G: 0.2, B: 0.28, A: 1}

// solid is a sprite without a texture: a quad of one colour.
func solid(c render2d.Color, w, h float32, layer int16) ecs.Sprite {
	return ecs.Sprite{Size: geom.Vec2{X: w, Y: h}, Tint: c, Layer: layer}
}

// PlayerState returns the player's position and state, false when there
// is no player. Simulation owner only (or after the session).
func (g *Game) PlayerState() (pos geom.Vec2, p Player, ok bool) {
	if g.players == nil {
		return pos, p, false
	}
	q := g.players.Query()
	for q.Next() {
		t, _, pl := q.Get()
		pos, p, ok = t.Position, *pl, true
	}
	return pos, p, ok
}

// ShotCount returns the number of live shots. Simulation owner only (or
// after the session).
func (g *Game) ShotCount() int { return g.shots.Count() }

// OverlayText returns the overlay's statistics text as of its latest
// refresh. Simulation owner only (or after the session).
func (g *Game) OverlayText() string {
	if g.overlay == nil {
		return ""
	}
	return string(g.overlay.buf[textStats])
}

// CosmeticCounts returns how often the cosmetic systems ran and how many
// ticks they skipped (quiet ticks, coarse cosmetic steps). Simulation owner
// only (or after the session).
func (g *Game) CosmeticCounts() (runs, skipped uint64) {
	for _, st := range g.app.Systems() {
		if st.Cosmetic {
			runs += st.Runs
			skipped += st.Skipped
		}
	}
	return runs, skipped
}
