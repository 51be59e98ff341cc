package framework

import (
	"embed"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/rollback"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/pagemark"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Game describes a game for [Run], [Main] and [NewSession].
type Game struct {
	// Title is the window title when the configuration leaves
	// window.title at its default.
	Title string
	// Seed seeds the ECS random source, so a run is reproducible.
	Seed uint64
	// Setup builds the game: register input actions, load assets, add
	// systems (spawning the first entities from a Startup system). It runs
	// once, on the platform thread, before the window opens (so that the
	// configuration's bindings are checked against the actions it
	// registers with no window or display) and before the first update.
	// Loaded images reach the GPU once the window is open, after Setup, so
	// resolve their regions in a Startup system, or call [Setup.Upload],
	// which opens the window first. Until then the session's adapters
	// ([runtime.Platform.Adapters]) are stand-ins that create nothing. An error stops the game before
	// it starts; cleanup still runs. Setup is also where a game installs its
	// shutdown policy (s.Runtime.Shutdown().SetPolicy), which a close
	// request meets from the first update on; see the package doc.
	Setup func(s *Setup) error
	// Shutdown, if set, runs on the platform thread after the last update,
	// while the graphics context is still alive.
	Shutdown func(s *Setup) error
	// Config is the game's own config.toml, usually compiled in with
	// //go:embed: it overrides the framework's defaults, and a file beside
	// the executable (or --config) and --set override it. Nil for none.
	Config []byte
	// Net, if set, declares the game playable by several players: how
	// many, and the actions of each one's seat. Its systems then read
	// every player's input from the rollback.Players resource, on one
	// machine (two players at one keyboard) or in a networked match
	// ([Session.UseMatch]) alike. Nil for a game of one player that reads
	// its input directly.
	Net *Net
	// Settings, if not nil, points to the game's settings struct: its
	// fields become the [game] table, with the same strictness as the
	// framework's keys (see config.Config.WithGame for the field tags).
	// Main fills it from the configuration before Setup runs.
	Settings any
	// Source is the game's own code, compiled in with //go:embed *.go in
	// its main package (add the patterns of any other package or data
	// file its simulation reads). A networked match hashes it into its
	// identity, so that two builds whose code differs are never put in one
	// match. Without it the game's code is known by its build stamps only
	// (module version, VCS revision), which two (devel) builds of
	// different code share, and --host and --join say so.
	Source embed.FS
}

// Setup is what [Game.Setup] gets to build the game with.
type Setup struct {
	// App is the ECS app: add systems and resources to it.
	App *ecs.App
	// Assets loads images, sheets and fonts; sprites and text draw through it.
	Assets *assets.Library
	// Actions registers the game's input actions. Bindings from the
	// configuration's [input.bindings] table are applied after Setup.
	Actions *input.Actions
	// Runtime is the session's control surface: telemetry, timing
	// changes, services, stop, and the shutdown endpoint whose policy
	// decides the window's close requests (install it here, before the
	// loop runs). The dispatcher, mailbox and worker groups are the
	// simulation's ([Setup.Simulation]).
	Runtime *runtime.GameRuntime
	// Sound is the session's sound output, to show its state and
	// counters; sounds play through the app's ecs.Audio resource.
	Sound *Sound
	// Config is the configuration the game runs with.
	Config config.Config
	// ConfigSource names where the configuration came from, for messages.
	ConfigSource string

	// Adapters are the session's display, input, renderer, presenter and
	// resources ([runtime.Platform.Adapters]): stand-ins that create
	// nothing until the window opens. Platform thread only.
	Adapters *runtime.Adapters

	// open opens the window when it is not open yet; nil for a session
	// whose context is there from the start.
	open    func() error
	sim     *atomic.Pointer[runtime.Simulation]
	session *Session
}

// Simulation returns the session's simulation handles (mailbox,
// dispatcher, worker groups) once InitSimulation has run, and nil before
// (Setup itself runs before it): take them in a Startup system. Safe from
// any goroutine.
func (s *Setup) Simulation() *runtime.Simulation { return s.sim.Load() }

// Upload sends every image and glyph loaded so far to the GPU, so that
// [assets.Library.Region] resolves them inside Setup. It opens the window
// first when Setup runs before it ([Run], a replay with a window): the
// configuration's bindings are then checked only after the window opened,
// so a game that can resolve its regions in a Startup system should. The
// framework uploads after Setup and before every frame by itself.
func (s *Setup) Upload() error {
	if s.open != nil {
		if err := s.open(); err != nil {
			return err
		}
	}
	return s.Assets.Upload(s.Adapters.Renderer)
}

// Session is a [Game] made ready to run: its ECS app (embedded, so a
// Session is a [runtime.Game]), its asset library and its configuration.
// [Run] builds one on a real window; a harness that supplies a context of
// its own (package frameworktest runs games headless on fakes) builds one
// with [NewSession] and gives it to [runtime.New]. A Session serves one
// runtime session.
type Session struct {
	*ecs.App
	game   Game
	lib    *assets.Library
	cfg    config.Config
	source string
	setup  *Setup
	sound  Sound
	// started runs after Setup; Run uses it for its limits.
	started func(rt *runtime.GameRuntime) error
	// rt runs the session (Bind); adapters and actions are its, from
	// setUpAndOpen or the InitPlatform view.
	rt       *runtime.GameRuntime
	adapters *runtime.Adapters
	actions  *input.Actions
	sim      atomic.Pointer[runtime.Simulation] // from InitSimulation
	// screenshot is a PNG file for the final state; "" takes none.
	screenshot string
	// recording, when recording.
	recording *recording.Writer
	// stopAfter, when set, is the number of updates to run (--ticks, and
	// --replay-until in a replay): the update numbered stopAfter-1
	// requests the stop.
	stopAfter uint64
	hashed    ecs.Hash
	// window, set by Run and a windowed replay, opens after the game's
	// Setup; nil when the context is there from the start.
	window *window
	// device is the mixer prepareAudio made, for startAudio to put on the
	// output device after Setup; closeAudio is the device, which
	// closePlatform closes.
	device     *audio.Mixer
	closeAudio io.Closer
	// setUp says the game's Setup ran, with early its error or that of
	// opening the window, which InitPlatform returns.
	setUp bool
	early error
	// shiftAudio, in a replay at recorded speed with a device, moves the
	// recorded spans of sound requests onto this session's clock at the
	// first tick (ecs.Audio.Shift). Simulation owner.
	shiftAudio bool
	// syncDepth and syncTest run the game in sync-test mode (synctest.go).
	syncDepth int
	syncTest  *ecs.SyncTest
	// A game with Net: its seats at this machine (no match, localBot
	// the seed of a bot playing all seats but the first), or its match:
	// side this machine's part in it, a player or a spectator (net.go).
	seats    *rollback.Seats
	players  *rollback.Players // the world's resource, added before Setup
	localBot uint64
	match    *Match
	driver   matchDriver
	play     rollback.Play
	// matchRec records a match (--record), replayNet replays one's
	// recording, replayFrom at replayPath, once Setup declared the seats
	// (netrecord.go).
	matchRec   *matchRecording
	replayNet  rollback.Replay
	replayFrom *recording.Reader
	replayPath string
	// report, in a headless match, gathers the figures of its pacing
	// line (netreport.go).
	report *matchReport
	// stderr receives a match's connection messages and the line
	// saying the sound is off; nil is os.Stderr.
	stderr io.Writer
}

// NewSession prepares g with cfg; source names where cfg came from, for
// messages. The game's Setup runs in the session's InitPlatform hook.
func NewSession(g Game, cfg config.Config, source string) (*Session, error) {
	if g.Net != nil {
		if err := g.Net.checkTransport(cfg.Net.Transport); err != nil {
			return nil, fmt.Errorf("framework: %s: %w", source, err)
		}
	}
	lopts := assets.DefaultOptions()
	lopts.Texture.Filter = cfg.Render.Filter // render.filter
	lib, err := assets.NewLibrary(lopts)
	if err != nil {
		return nil, err
	}
	app, err := ecs.NewApp(ecs.Options{Seed: g.Seed, Assets: lib, NoInterpolation: !cfg.Render.Interpolation})
	if err != nil {
		return nil, err
	}
	// window.clear_color, logical_size and scaling, checked by config.
	if err := app.SetScreen(cfg.Window.Screen); err != nil {
		return nil, fmt.Errorf("framework: %s: %w", source, err)
	}
	s := &Session{App: app, game: g, lib: lib, cfg: cfg, source: source}
	if g.Net != nil {
		// The first system of every tick: the local seats' input, from
		// the tick's own, so that a sync-test's ticks run again read
		// theirs.
		app.AddSystem(ecs.PreUpdate, ecs.System{Name: "framework seats", Run: s.fillSeats})
	}
	return s, nil
}

// Bind tells the session which runtime runs it: call it after
// [runtime.New] and before Run when building the runtime yourself
// (package frameworktest does). [Run] and [Replay] bind their own.
func (s *Session) Bind(rt *runtime.GameRuntime) { s.rt = rt }

// setUpAndOpen runs the game's Setup and the checks that depend on it
// (setUpGame), then opens the session's window: the order [Run] and a
// windowed replay follow, before the runtime runs. A failure is kept for
// InitPlatform, so the session fails through the runtime and every
// cleanup runs. Platform thread.
func (s *Session) setUpAndOpen(rt *runtime.GameRuntime, adapters *runtime.Adapters, actions *input.Actions) {
	s.rt, s.adapters, s.actions = rt, adapters, actions
	s.early = s.setUpGame()
	if s.early == nil {
		s.early = s.openPlatform()
	}
}

// openPlatform opens the sound device and the window, once: after the
// game's Setup, or at Setup.Upload.
func (s *Session) openPlatform() error {
	s.startAudio()
	err := s.window.openOnce()
	pagemark.Mark("metronome:window-end")
	return err
}

// closePlatform closes the sound device and any private X server, after
// the runtime has run (it closes the window).
func (s *Session) closePlatform() {
	if s.closeAudio != nil {
		_ = s.closeAudio.Close()
	}
	if s.window != nil {
		s.window.close()
	}
}

// setUpGame runs the game's Setup and checks the configured bindings
// against the actions it registered, before any upload or other platform
// work: a binding for an action the game never registered is reported
// with no window open.
func (s *Session) setUpGame() error {
	s.setUp = true
	rt := s.rt
	if rt == nil {
		return errors.New("framework: the session runs on no runtime: call Session.Bind after runtime.New")
	}
	s.setup = &Setup{App: s.App, Assets: s.lib, Actions: s.actions, Runtime: rt, Sound: &s.sound, Config: s.cfg, ConfigSource: s.source, Adapters: s.adapters, sim: &s.sim, session: s}
	if s.window != nil {
		s.setup.open = s.openPlatform
	}
	if s.game.Net != nil {
		// One Players resource, before Setup, so that Setup can take it:
		// local seats, a match and a replay all fill this one.
		s.players = &rollback.Players{}
		ecs.AddResource(s.App.World(), s.players)
	}
	if s.game.Setup != nil {
		pagemark.Mark("metronome:setup")
		if err := s.game.Setup(s.setup); err != nil {
			return fmt.Errorf("framework: game setup: %w", err)
		}
		pagemark.Mark("metronome:setup-end")
	}
	if err := s.cfg.CheckBindings(s.actions); err != nil {
		return &configFailure{err}
	}
	if rt.Options().Record.Reader == nil { // a replay's configuration is the recorded one
		if err := s.cfg.CheckOwnBindings(s.actions); err != nil {
			return &configFailure{err}
		}
	}
	if err := s.startSyncTest(); err != nil {
		return err
	}
	return s.startNet()
}

// InitPlatform runs the game's Setup and its checks unless they ran
// already (setUpAndOpen), uploads the assets, then applies the
// configuration's bindings: the bindings an action is registered with are
// its defaults, and a config file overrides them (a player's file or --set
// for any action; the game's own config.toml only for actions registered
// without any, so that each key is written in one place).
func (s *Session) InitPlatform(p *runtime.Platform) error {
	if !s.setUp {
		s.adapters, s.actions = p.Adapters, p.Actions
		s.early = s.setUpGame()
	}
	if s.early != nil {
		return s.early
	}
	if err := s.setup.Upload(); err != nil {
		return fmt.Errorf("framework: uploading assets after setup: %w", err)
	}
	if len(s.cfg.Bindings) > 0 {
		if err := s.actions.Configure(s.cfg.Bindings); err != nil {
			return fmt.Errorf("framework: %s: [input.bindings]: %w", s.source, err)
		}
	}
	if s.started != nil {
		if err := s.started(s.rt); err != nil {
			return err
		}
	}
	return s.App.InitPlatform(p)
}

// InitSimulation keeps the simulation handles for [Setup.Simulation] and
// runs the app's Startup systems.
func (s *Session) InitSimulation(sim *runtime.Simulation) error {
	s.sim.Store(sim)
	if err := s.App.InitSimulation(sim); err != nil {
		return err
	}
	return s.readyToStart()
}

// Update runs the game's tick, and stops the session at its tick limit.
func (s *Session) Update(t *runtime.TickContext) error {
	if s.shiftAudio {
		s.shiftAudio = false
		// The replay runs the first tick now, on this session's clock;
		// the tick's span is the recording's. Every later tick keeps the
		// recorded spacing, so one shift places them all.
		if a := ecs.GetResource[ecs.Audio](s.App.World()); a != nil {
			a.Shift = time.Duration(timing.Now() - t.End)
		}
	}
	if err := s.updateNet(t); err != nil {
		return err
	}
	if s.stopAfter > 0 && s.match == nil && !t.StopRequested() && t.Number+1 >= s.stopAfter {
		return t.RequestStop() // a match stops where its peers agree (rollback.PeerOptions.Ticks)
	}
	return nil
}

// HashWorld fills c with the hash of the game's state (the ECS world, its
// random source and gameplay queue: ecs.App.Hash), for a recording's
// checkpoints and their checks during a replay. Simulation owner.
func (s *Session) HashWorld(c *recording.Checkpoint) error {
	if err := s.App.HashInto(&s.hashed); err != nil {
		return fmt.Errorf("framework: world hash (exclude cosmetic or non-data types with ecs.ExcludeFromHash): %w", err)
	}
	c.Hash = s.hashed.Total
	for _, t := range s.hashed.Types {
		c.Types = append(c.Types, recording.TypeHash{Name: t.Name, Hash: t.Hash, Count: t.Count})
	}
	return nil
}

// Assets returns the session's asset library.
func (s *Session) Assets() *assets.Library { return s.lib }

// Config returns the configuration the session runs with.
func (s *Session) Config() config.Config { return s.cfg }

// DeinitPlatform runs the game's Shutdown and the app's platform cleanup.
func (s *Session) DeinitPlatform() error {
	var errs []error
	if s.screenshot != "" && s.setup != nil && s.early == nil {
		if err := s.takeScreenshot(); err != nil {
			errs = append(errs, err)
		}
	}
	if s.game.Shutdown != nil && s.setup != nil {
		if err := s.game.Shutdown(s.setup); err != nil {
			errs = append(errs, fmt.Errorf("framework: game shutdown: %w", err))
		}
	}
	if err := s.App.DeinitPlatform(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// takeScreenshot draws the final state of the world into the framebuffer
// and writes it to the screenshot file. Platform thread, after the
// simulation has stopped, while the graphics context is alive.
func (s *Session) takeScreenshot() error {
	var f render2d.Frame
	if err := s.App.PrepareFrame(render2d.NewFrameWriter(&f)); err != nil {
		return fmt.Errorf("framework: screenshot: %w", err)
	}
	f.Present.Alpha = 1 // the final placements
	ctx := s.adapters
	fb := ctx.Display.State().Framebuffer
	if fb.Width <= 0 || fb.Height <= 0 {
		return fmt.Errorf("framework: screenshot: the framebuffer is %dx%d", fb.Width, fb.Height)
	}
	if err := ctx.Renderer.Render(&f); err != nil {
		return fmt.Errorf("framework: screenshot: %w", err)
	}
	img, err := ctx.Renderer.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, fb.Width, fb.Height))
	if err != nil {
		return fmt.Errorf("framework: screenshot: %w", err)
	}
	b, err := encodePNG(img)
	if err != nil {
		return fmt.Errorf("framework: screenshot: %w", err)
	}
	if err := os.WriteFile(s.screenshot, b, 0o644); err != nil {
		return fmt.Errorf("framework: screenshot: %w", err)
	}
	return nil
}
