package framework

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/render2d/nullrender"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/work"
	"github.com/metronome-go/metronome/timing"
)

// frameworkModule is this module's path, for the recording header.
const frameworkModule = "github.com/metronome-go/metronome"

// BuildVersions returns the framework module's version and the game's
// module path from the build information: what a recording's header keeps
// so that a replay can say which framework made it.
func BuildVersions() (framework, game string) {
	framework, game = "(unknown)", "(unknown)"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return framework, game
	}
	game = bi.Main.Path
	if bi.Main.Path == frameworkModule {
		return bi.Main.Version, game
	}
	for _, m := range bi.Deps {
		if m.Path == frameworkModule {
			if m.Replace != nil && m.Replace.Version == "" {
				return "(devel)", game
			}
			return m.Version, game
		}
	}
	return framework, game
}

// mainPackage returns the import path of the program's main package; a
// test binary's is its package's path and ".test".
func mainPackage() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Path == "" {
		return "(unknown)"
	}
	return bi.Path
}

// samePackage reports whether a recording made by main package rec may be
// replayed by main package play. A test binary (a path ending in ".test")
// matches any package of the module: a game's tests live in whichever
// package holds its logic, and replay what its binary recorded (a bug
// report become a test) as the binary replays what a test recorded; the
// title still tells games apart.
func samePackage(rec, play string) bool {
	return rec == "" || rec == play || strings.HasSuffix(rec, ".test") || strings.HasSuffix(play, ".test")
}

// RecordingHeader is the header of a recording of g: the framework's
// version, the game's module, main package and title, cfg as TOML, the
// seed and the runtime mode. A replay refuses a recording whose module,
// package or title differ from the replaying game's.
func RecordingHeader(g Game, cfg config.Config, mode runtime.Mode) recording.Header {
	fw, game := BuildVersions()
	return recording.Header{
		Framework: fw, Game: game, Package: mainPackage(), Title: g.Title,
		Config: cfg.EffectiveTOML(), Seed: g.Seed, Mode: mode.String(),
		CheckpointEvery: recording.DefaultCheckpointEvery,
	}
}

// otherGame says how the game that made a recording (its header h)
// differs from this one (title, main package pkg, module): each part that
// differs with both values, then the parts that agree.
func otherGame(h recording.Header, title, pkg, module string) string {
	var differ, alike []string
	if h.Game != module {
		differ = append(differ, fmt.Sprintf("its module is %s, this game's %s", h.Game, module))
	} else {
		alike = append(alike, "module "+module)
	}
	if h.Package != "" { // a recording older than format 4 names the module only
		if !samePackage(h.Package, pkg) {
			differ = append(differ, fmt.Sprintf("its main package is %s, this game's %s", h.Package, pkg))
		} else if h.Package == pkg {
			alike = append(alike, "main package "+pkg)
		}
		if h.Title != title {
			differ = append(differ, fmt.Sprintf("its title is %q, this game's %q", h.Title, title))
		} else {
			alike = append(alike, fmt.Sprintf("title %q", title))
		}
	}
	msg := "the recording is of another game: " + strings.Join(differ, "; ")
	if len(alike) > 0 {
		msg += " (the same " + strings.Join(alike, ", ") + ")"
	}
	return msg
}

// recordingFile is where a session's recording goes: an *os.File, or in
// the package's tests one that fails as a full disk does.
type recordingFile interface {
	io.Writer
	Sync() error
	Close() error
}

// createRecording creates a recording's file. It is a variable so that
// the package's tests can put a failing file in its place; nothing else
// changes it.
var createRecording = func(path string) (recordingFile, error) { return os.Create(path) }

// writerOnly is a recording's destination that is no file: nothing to
// sync or close.
type writerOnly struct{ io.Writer }

func (writerOnly) Sync() error  { return nil }
func (writerOnly) Close() error { return nil }

// sessionRecording is the recording a session writes, with its file.
type sessionRecording struct {
	path string
	w    *recording.Writer
	f    recordingFile
}

// openRecording creates the recording file of a session and writes its
// header, so that an unwritable path or a full disk fails the session
// before it starts. The recording goes to also as well (RunOptions.RecordTo),
// or there alone when path is "".
func openRecording(path string, also io.Writer, header recording.Header) (*sessionRecording, error) {
	var f recordingFile = writerOnly{also}
	var dst io.Writer = also
	if path != "" {
		var err error
		if f, err = createRecording(path); err != nil {
			return nil, fmt.Errorf("framework: --record: %w", err)
		}
		if dst = f; also != nil {
			dst = io.MultiWriter(f, also)
		}
	}
	w, err := recording.NewWriter(dst, cmp.Or(path, "the session's recording"), header)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("framework: --record: %w", err)
	}
	return &sessionRecording{path: path, w: w, f: f}, nil
}

// WatchPresents has w, a solo session's recording, note the frames rt
// presented, from the runtime's counters (atomics), each time it hands a
// chunk over (recording.Writer.WatchPresents): the inspector's presents
// row of a replay. --record does it; a test kit writing its own
// recording calls it after runtime.New, before the first tick.
func WatchPresents(w *recording.Writer, rt *runtime.GameRuntime) {
	w.WatchPresents(func() recording.Presents {
		s := rt.Stats()
		return recording.Presents{Updates: s.Updates, Frames: s.FramesPresented}
	})
}

// close ends the recording with the session's outcome and reports every
// problem: a recording that could not be kept in full is never lost
// silently.
func (r *sessionRecording) close(o recording.Outcome, msg string) error {
	err := r.w.Finish(o, msg)
	if e := r.f.Sync(); e != nil && err == nil {
		err = e
	}
	if e := r.f.Close(); e != nil && err == nil {
		err = e
	}
	var named *recording.Error
	switch {
	case errors.As(err, &named) && named.File == r.path: // it names the file
		return fmt.Errorf("framework: the recording is incomplete: %w", err)
	case err != nil:
		return fmt.Errorf("framework: the recording %s is incomplete: %w", r.path, err)
	}
	return nil
}

// outcome says how a session ended, for its recording's end marker: p is
// a panic that escaped Run (nil for none), err Run's error, signal the
// signal that stopped the session (nil for none).
func outcome(p any, err error, signal os.Signal) (recording.Outcome, string) {
	var pe *work.PanicError
	var oe *rollback.OutcomeError
	switch {
	case p != nil:
		return recording.Panicked, fmt.Sprint(p)
	case errors.As(err, &pe):
		return recording.Panicked, err.Error()
	case errors.As(err, &oe):
		return matchOutcomes[oe.Outcome.Kind], oe.Outcome.String()
	case err != nil:
		return recording.Failed, err.Error()
	case signal != nil:
		return recording.Signal, signal.String()
	}
	return recording.Clean, ""
}

// matchOutcomes are the end markers of a match that ended other than
// finished.
var matchOutcomes = [...]recording.Outcome{rollback.Finished: recording.Clean, rollback.Desynced: recording.Desynced,
	rollback.Abandoned: recording.Abandoned, rollback.Refused: recording.Refused, rollback.HostGone: recording.HostGone}

// ReplayOptions say how [Replay] plays a recording back.
type ReplayOptions struct {
	// Window replays in a window at recorded speed, for watching a bug,
	// with the recorded sounds on the default output device ([audio] as
	// recorded; without a device, silently). Without it the replay is
	// headless (no window, GPU, X server or audio device), silent and as
	// fast as the CPU allows.
	Window bool
	// Headless, with Window, renders into an invisible window (a private
	// Xvfb server when there is no display): for screenshots on servers.
	Headless bool
	// Until stops the replay after the update numbered Until-1 (so Until
	// updates ran); 0 replays to the end.
	Until uint64
	// Screenshot, if set, is a PNG file the final state is drawn into
	// (needs Window).
	Screenshot string
	// Config, if set, is a configuration file and Sets are "key=value"
	// overrides (--config and --set) for the replay. The replay runs with
	// the recorded configuration: a key they change must be one of
	// [config.PresentationKeys] (the window, the texture filter, audio on
	// or off, the volumes), applied with Window; any other key is refused
	// (see [config.Config.Override]).
	Config string
	Sets   []string
}

// ReplayResult says how far a replay went.
type ReplayResult struct {
	// Ticks is the number of updates replayed, Checkpoints the number of
	// recorded world hashes that matched.
	Ticks, Checkpoints uint64
	// Elapsed is the real time the replay took.
	Elapsed time.Duration
	// Match reports a recording of a networked match; ConfirmedTick and
	// ConfirmedHash are then the tick of its last checkpoint replayed
	// and its world hash, as the match's last line gave them
	// ([ConfirmedLine]), when Confirmed.
	Match, Confirmed bool
	ConfirmedTick    int64
	ConfirmedHash    uint64
}

// String is the replay's result line: "replayed 130 ticks in 2ms (65000
// ticks/s), 3 checkpoints matched".
func (r ReplayResult) String() string {
	checks := fmt.Sprintf("%d checkpoints", r.Checkpoints)
	if r.Checkpoints == 1 {
		checks = "1 checkpoint"
	}
	line := fmt.Sprintf("replayed %d ticks in %v (%.0f ticks/s), %s matched", r.Ticks, r.Elapsed.Round(time.Millisecond),
		float64(r.Ticks)/max(r.Elapsed.Seconds(), 1e-9), checks)
	if r.Confirmed {
		line += "\n" + rollback.ConfirmedLine(r.ConfirmedTick, r.ConfirmedHash)
	}
	return line
}

// Replay runs g's simulation from the recording at path and checks every
// stored world hash. It refuses a recording of another game, of another
// format version, or whose configuration no longer validates, each with an
// error naming the file; a state that differs from the recording's stops
// the replay with a [*runtime.DivergenceError] naming the tick and the
// component types. A stop signal (Ctrl+C) ends it in order. Call it where
// [Run] would be called.
func Replay(g Game, path string, opts ReplayOptions) (ReplayResult, error) {
	if opts.Screenshot != "" && !opts.Window {
		return ReplayResult{}, errors.New("framework: a replay's screenshot needs a GL context: add --window (with --headless on a machine without a display)")
	}
	sess, rtOpts, r, err := newReplaySession(g, path, opts)
	if err != nil {
		return ReplayResult{}, err
	}
	defer r.Close()
	cfg := sess.cfg
	if opts.Headless {
		cfg.Window.Headless = true
	}
	sess.screenshot = opts.Screenshot
	sess.stopAfter = opts.Until
	// A stop signal ends a replay in order (its screenshot is taken):
	// there is no game to ask, the recording holds the game's answers.
	sigs := newSignals()
	sigs.replay = true
	defer sigs.stop()
	sess.started = func(rt *runtime.GameRuntime) error {
		sigs.attach(rt)
		return nil
	}

	var ctx *runtime.Adapters
	if opts.Window {
		// The recorded sound requests play as they did, at recorded speed:
		// the device's timeline is this session's clock, so the first
		// tick moves the recorded spans onto it (Session.Update).
		if err := prepareAudio(sess, cfg); err != nil {
			return ReplayResult{}, err
		}
		sess.shiftAudio = true
		// The window opens after the game's Setup (setUpAndOpen); the
		// input comes from the recording.
		sess.window = newWindow(cfg, sess.lib, false)
		defer sess.closePlatform()
		ctx = sess.window.ctx
	} else {
		ctx = sess.headless(&rtOpts)
	}
	if rtOpts.Actions == nil {
		rtOpts.Actions = input.NewActions()
	}
	rt, err := runtime.New(sess, ctx, rtOpts)
	if err != nil {
		return ReplayResult{}, errors.Join(err, ctx.Close())
	}
	sess.Bind(rt)
	if sess.window != nil {
		sess.setUpAndOpen(rt, ctx, rtOpts.Actions)
	}
	start := timing.Now()
	err = rt.Run()
	res := ReplayResult{Ticks: rt.Stats().Updates, Checkpoints: rt.RecordStats().Checkpoints, Elapsed: time.Duration(timing.Now() - start)}
	if nr := sess.replayNet; nr != nil {
		res.Match = true
		res.ConfirmedTick, res.ConfirmedHash, res.Confirmed = nr.ConfirmedHash()
	}
	return res, err
}

// NewReplaySession prepares g to replay the recording at path: it opens
// and checks the recording (its format, that it is g's, that its recorded
// configuration still validates), builds g's session on that configuration
// and seed, and returns it with the runtime options of a replay
// (sequential, reading the recording, checking world hashes) and the open
// reader, which the caller closes after the session. [Replay] runs it on a
// window or on nothing; package frameworktest runs it on its fakes so a
// test can step through a recorded session. Set the options' Clock and a
// context of your own.
func NewReplaySession(g Game, path string) (*Session, runtime.Options, *recording.Reader, error) {
	return newReplaySession(g, path, ReplayOptions{})
}

// newReplaySession is NewReplaySession with a replay's --config and --set
// (opts.Config, opts.Sets): checked against the recorded configuration,
// and their presentation keys applied when opts.Window.
func newReplaySession(g Game, path string, opts ReplayOptions) (*Session, runtime.Options, *recording.Reader, error) {
	r, err := recording.Open(path)
	if err != nil {
		return nil, runtime.Options{}, nil, fmt.Errorf("framework: --replay: %w", err)
	}
	return replaySessionOf(g, r, path, opts)
}

// replaySessionOf is newReplaySession over an open reader, which it
// closes when it fails.
func replaySessionOf(g Game, r *recording.Reader, path string, opts ReplayOptions) (*Session, runtime.Options, *recording.Reader, error) {
	fail := func(err error) (*Session, runtime.Options, *recording.Reader, error) {
		r.Close()
		return nil, runtime.Options{}, nil, err
	}
	h := r.Header()
	_, game := BuildVersions()
	pkg := mainPackage()
	if h.Game != game || !samePackage(h.Package, pkg) || (h.Package != "" && h.Title != g.Title) {
		return fail(fmt.Errorf("framework: --replay %s: %s", path, otherGame(h, g.Title, pkg, game)))
	}
	source := path + " (recorded configuration)"
	cfg, err := config.Build(config.Layers{Game: g.Settings, Embedded: h.Config, EmbeddedName: source})
	if err != nil {
		return fail(fmt.Errorf("framework: --replay %s: the recorded configuration no longer validates: %w", path, err))
	}
	if opts.Config != "" || len(opts.Sets) > 0 {
		watched, err := cfg.Override(opts.Config, opts.Sets)
		if err != nil {
			return fail(fmt.Errorf("framework: --replay %s: %w", path, err))
		}
		if opts.Window {
			cfg = watched
		}
	}
	if g.Settings != nil {
		if err := cfg.DecodeGame(g.Settings); err != nil {
			return fail(err)
		}
	}
	g.Seed = h.Seed
	rtOpts, err := cfg.RuntimeOptions(source)
	if err != nil {
		return fail(err)
	}
	if err = rtOpts.Mode.UnmarshalText([]byte(h.Mode)); err != nil {
		return fail(fmt.Errorf("framework: --replay %s: the header's mode: %w", path, err))
	}
	sess, err := NewSession(g, cfg, source)
	if err != nil {
		return fail(err)
	}
	rtOpts.Record = runtime.RecordOptions{Reader: r, Hash: sess.HashWorld}
	if h.Net != nil {
		if err := sess.useNetReplay(path, r, &rtOpts); err != nil {
			return fail(err)
		}
		// A match's recording keeps the players' confirmed input, no
		// window: the replay's ticks see its own, so that a game sizing
		// its camera and HUD from the window draws the match.
		rtOpts.Record.OwnWindow = true
	}
	return sess, rtOpts, r, nil
}

// headless returns the context of a replay without a window, a pure
// simulation (windowless), and gives rtOpts a manual clock.
func (s *Session) headless(rtOpts *runtime.Options) *runtime.Adapters {
	rtOpts.Clock = timing.NewManualClock(0)
	return s.windowless("")
}

// windowless returns the context of a session that runs the simulation
// only: no device (the game gets the silent Audio resource a session
// without one has, muted for why), a display that never changes, no
// input and a renderer that draws nothing.
func (s *Session) windowless(why string) *runtime.Adapters {
	s.silence(why)
	size := input.Size{Width: s.cfg.Window.Width, Height: s.cfg.Window.Height}
	return &runtime.Adapters{
		Display:   &headlessDisplay{state: runtime.WindowState{Window: input.Window{Size: size, Framebuffer: size, Focused: true}}},
		Presenter: headlessPresenter{},
		Renderer:  assets.NewUploadingRenderer(s.lib, nullrender.New()),
	}
}

// headlessDisplay is the window of a headless replay: it never changes and
// never closes (the replay ends with the recording).
type headlessDisplay struct{ state runtime.WindowState }

func (d *headlessDisplay) PollEvents()                {}
func (d *headlessDisplay) State() runtime.WindowState { return d.state }
func (d *headlessDisplay) Close() error               { return nil }

// headlessPresenter presents nothing.
type headlessPresenter struct{}

func (headlessPresenter) Init() error    { return nil }
func (headlessPresenter) Present() error { return nil }
func (headlessPresenter) Close() error   { return nil }

// noDisplay reports whether there is no display server to open a window on.
func noDisplay() bool {
	return goruntime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == ""
}
