package framework

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/internal/pagemark"
	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/rollback"
)

// Flags are the command-line options every Metronome game accepts.
type Flags struct {
	// Config is the configuration file; "" uses config.toml when present.
	Config string
	// Sets are "key=value" overrides applied after the file, in order.
	Sets []string
	// Headless renders into an invisible window.
	Headless bool
	// Ticks stops after this many simulation ticks (updates); 0 runs
	// until closed.
	Ticks uint64
	// Frames stops after this many presented frames; 0 runs until closed.
	// Presents are not ticks: a headless window presents as fast as it
	// can, whatever the tick rate, so a number of game steps is Ticks.
	Frames int
	// RunFor stops after this much real time; 0 runs until closed.
	RunFor time.Duration
	// Screenshot is a PNG file the final state is drawn into; "" takes none.
	Screenshot string
	// PrintConfig prints the effective configuration, each value with
	// where it came from, instead of running.
	PrintConfig bool
	// Record is a file to record the session to; "" records nothing.
	Record string
	// Replay is a recording to replay instead of playing; Window,
	// ReplayUntil and Screenshot say how, Config and Sets may change how
	// it is shown (see [ReplayOptions]).
	Replay      string
	Window      bool
	ReplayUntil uint64
	// SyncTest runs the game in sync-test mode going back this many
	// ticks after each (see [Session.UseSyncTest]); 0 is off.
	SyncTest int
	// Compare, with Replay, is a second recording to compare the first
	// with instead of replaying (see [Compare]).
	Compare string
	// Inspect serves the inspector on this address, of the game as it
	// plays or with Replay of the recording (inspect_native.go);
	// InspectRemote lets it listen beyond loopback.
	Inspect       string
	InspectRemote bool
	// Query asks a replay a question instead of replaying (--where,
	// --who-wrote, --write-test).
	Query QueryFlags
	// Host and Join name a networked match to host or to join (with
	// Token, the host's join token), for a game with [Game.Net].
	Host, Join, Token string
	// Spectate names a match to watch as a spectator (with Token).
	Spectate string
	// Dedicated, with Host, serves the match without a seat here: every
	// player joins, and the host runs the simulation only, with no
	// window, GPU, X server or sound device.
	Dedicated bool
	// NoWindow plays a match with no window, GPU, X server or sound
	// device, the simulation only, as a dedicated host does: for a
	// machine whose players are all --bot (soak runs, load tests).
	NoWindow bool
	// Lobby meets a match through a lobby (--lobby; framework/lobby.go).
	Lobby LobbyFlags
	// Bot seeds the random input a match's local players play with
	// instead of the devices ([Match.Bot]); 0 is off.
	Bot uint64
}

// Register adds the flags to fs: --config, --set (repeatable), --headless,
// --ticks, --frames, --run-for, --screenshot, --print-config, --record and
// --replay (with --window and --replay-until). Programs with flags of their own, such as the
// demo, register these next to theirs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Config, "config", "", "configuration file (default: config.toml beside the executable, or in the working directory for a game that embeds none)")
	fs.Func("set", "override one configuration key, such as --set timing.mode=fixed (repeatable)", func(s string) error {
		f.Sets = append(f.Sets, s)
		return nil
	})
	fs.BoolVar(&f.Headless, "headless", false, "render into an invisible window (on Linux with no display, on a private Xvfb server)")
	fs.Uint64Var(&f.Ticks, "ticks", 0, "stop after `N` simulation ticks, the game's updates (0 = until the window closes)")
	fs.IntVar(&f.Frames, "frames", 0, "stop after `N` presented frames, which are not ticks: a headless run presents as fast as it can (0 = until the window closes)")
	fs.DurationVar(&f.RunFor, "run-for", 0, "stop after this much real time, such as 10s (0 = until the window closes)")
	fs.StringVar(&f.Screenshot, "screenshot", "", "draw the final state into this PNG `file` when the game ends")
	fs.BoolVar(&f.PrintConfig, "print-config", false, "print the effective configuration, each value with its source, and exit")
	fs.StringVar(&f.Record, "record", "", "record the session to this `file` (replay it with --replay)")
	fs.StringVar(&f.Replay, "replay", "", "replay the recording in this `file`, headless and as fast as possible, checking every world hash (with the recorded configuration: --set and --config may change only the window, render.filter, audio.enabled and the volumes)")
	fs.BoolVar(&f.Window, "window", false, "with --replay: replay in a window at recorded speed, with sound")
	fs.Uint64Var(&f.ReplayUntil, "replay-until", 0, "with --replay: stop after `N` ticks, ticks 0 to N-1 (with --window and --screenshot: a picture of the state after them)")
	f.registerSyncTest(fs)
	f.registerCompare(fs)
	f.registerInspect(fs)
	f.registerQuery(fs)
	f.registerNet(fs)
}

// Validate checks values that the flag package cannot.
func (f *Flags) Validate() error {
	var errs []error
	if f.Compare != "" && f.Replay == "" {
		errs = append(errs, errors.New("framework: --compare B goes with --replay A: it compares recording A with B"))
	}
	if f.Replay != "" && f.Record != "" {
		errs = append(errs, errors.New("framework: --record and --replay: a session records or replays, not both"))
	}
	if f.Replay == "" && (f.Window || f.ReplayUntil > 0) {
		errs = append(errs, errors.New("framework: --window and --replay-until go with --replay FILE"))
	}
	if f.Replay != "" && f.Ticks > 0 {
		errs = append(errs, errors.New("framework: --ticks and --replay: a replay stops after N ticks with --replay-until N"))
	}
	if f.Frames < 0 {
		errs = append(errs, fmt.Errorf("framework: --frames %d: want 0 (no limit) or more", f.Frames))
	}
	if f.RunFor < 0 {
		errs = append(errs, fmt.Errorf("framework: --run-for %v: want 0 (no limit) or a positive duration", f.RunFor))
	}
	errs = append(errs, f.validateSyncTest(), f.validateInspect(), f.validateNet(), f.validateHost(inPage), f.validateQuery())
	return errors.Join(errs...)
}

// LoadConfig builds g's configuration from its layers, in order: the
// framework's defaults, g's settings struct (the [game] table's defaults),
// g's embedded config.toml, then one file — --config, or else config.toml
// beside the executable, or else, for a game that embeds none, config.toml
// in the working directory — and finally each --set. A game that embeds
// its configuration never picks up another program's config.toml from
// wherever it was started. It returns the configuration and a name for its
// origin, and fills g.Settings with the [game] table. Every problem is
// reported at once; nothing half-valid returns. [config.Config.Source]
// says which layer set each key.
func (f *Flags) LoadConfig(g Game) (config.Config, string, error) {
	path := f.Config
	if path == "" {
		if p, ok := config.FileBesideExecutable("config.toml"); ok {
			path = p
		} else if _, err := os.Stat("config.toml"); err == nil && g.Config == nil {
			path = "config.toml"
		}
	} else if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return config.Config{}, "", fmt.Errorf("framework: configuration file %s does not exist", path)
	}
	sets := f.Sets
	if f.Headless {
		sets = append(slices.Clip(sets), "window.headless=true")
	}
	sets = append(slices.Clip(sets), f.Lobby.sets()...)
	cfg, err := config.Build(config.Layers{Game: g.Settings, Embedded: g.Config, File: path, Sets: sets})
	if err != nil {
		return config.Config{}, "", err
	}
	if g.Settings != nil {
		if err := cfg.DecodeGame(g.Settings); err != nil {
			return config.Config{}, "", err
		}
	}
	var from []string
	if g.Config != nil {
		from = append(from, "the embedded config.toml")
	}
	if path != "" {
		from = append(from, path)
	}
	if len(f.Sets) > 0 {
		from = append(from, "--set")
	}
	source := "defaults"
	if len(from) > 0 {
		source = strings.Join(from, ", ")
	}
	return cfg, source, nil
}

// Main runs g with the command-line flags of [Flags] and exits: status 0
// after a clean stop, 1 with a message on stderr after a failure, 2 for bad
// flags, and for a replay or a networked match one of the statuses in
// status.go ([StatusReplayCut] and the rest; --help lists them). It must be
// called from the main goroutine, which it keeps as the platform thread.
func Main(g Game) {
	os.Exit(MainStatus(g, os.Args[1:], os.Stdout, os.Stderr))
}

// MainStatus is [Main] without the exit: it parses args, runs g and returns
// the exit status, writing --print-config and --help output to stdout and
// messages to stderr.
func MainStatus(g Game, args []string, stdout, stderr io.Writer) int {
	pagemark.Mark("metronome:main") // the Go runtime is up: where a page's start stops being the browser's
	var f Flags
	fl := flag.NewFlagSet(programName(), flag.ContinueOnError)
	// The flag package repeats a bad value whole: its messages go through
	// a buffer that cuts long values (option.Echo) on their way out.
	var flagOut bytes.Buffer
	fl.SetOutput(&flagOut)
	f.Register(fl)
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "Usage of %s:\n", programName())
		fl.PrintDefaults()
		fmt.Fprint(fl.Output(), exitStatusHelp)
	}
	err := fl.Parse(args)
	io.WriteString(stderr, cutValues(flagOut.String(), args))
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %s (flags start with --; see --help)\n", programName(), option.Echo(strconv.Quote(fl.Arg(0))))
		return 2
	}
	if err := f.Validate(); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if f.Inspect != "" && f.Replay != "" {
		return inspectMain(g, &f, stdout, stderr) // with --compare B, on the page
	}
	if f.Replay != "" && f.Compare != "" {
		return compareMain(g, &f, stdout, stderr)
	}
	if f.Replay != "" && f.Query.asked() {
		return queryMain(g, &f, stdout, stderr)
	}
	if f.Replay != "" {
		res, err := Replay(g, f.Replay, ReplayOptions{Window: f.Window, Headless: f.Headless, Until: f.ReplayUntil, Screenshot: f.Screenshot,
			Config: f.Config, Sets: f.Sets})
		if res.Ticks > 0 {
			fmt.Fprintln(stdout, res)
		}
		status := ReplayStatus(err)
		switch {
		case status == StatusReplayCut:
			fmt.Fprintf(stderr, "%s: %v\n%s: the recording stops after %d ticks without an end marker: its session was killed (or is still being written); every tick up to there replayed and %d checkpoints matched\n",
				programName(), err, programName(), res.Ticks, res.Checkpoints)
		case err != nil:
			printFailure(stderr, err)
		}
		return status
	}
	cfg, source, err := f.LoadConfig(g)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if f.PrintConfig {
		stdout.Write(cfg.EffectiveTOML())
		return 0
	}
	match, err := connectMatch(&f, g, cfg, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", programName(), err)
		return matchStatus(err)
	}
	var bot uint64
	if match == nil {
		bot = f.Bot // a match's bot is its Match.Bot
	}
	opts := RunOptions{Source: source, Ticks: f.Ticks, Frames: f.Frames, RunFor: f.RunFor, Screenshot: f.Screenshot, Record: f.Record, SyncTest: f.SyncTest,
		Match: match, NoWindow: f.NoWindow, Bot: bot, Stdout: stdout, Stderr: stderr}
	if f.Inspect != "" {
		return inspectLiveMain(g, cfg, opts, &f)
	}
	err = Run(g, cfg, opts)
	if err != nil {
		printFailure(stderr, err)
		return matchStatus(err)
	}
	return 0
}

// matchStatus is the exit status of a session that failed with err: a
// match's own status when it ended other than finished (the README's
// "Exit statuses"), else StatusFailed.
func matchStatus(err error) int {
	var oe *rollback.OutcomeError
	if !errors.As(err, &oe) {
		return StatusFailed
	}
	switch oe.Outcome.Kind {
	case rollback.Desynced:
		return StatusDesynced
	case rollback.Abandoned:
		return StatusAbandoned
	case rollback.Refused:
		return StatusRefused
	case rollback.HostGone:
		return StatusHostGone
	}
	return StatusFailed
}

// cutValues returns msg with every long value of args (an argument, or
// what follows the = of --flag=value) that it quotes cut ([option.Echo]).
func cutValues(msg string, args []string) string {
	for _, a := range args {
		if _, v, ok := strings.Cut(a, "="); ok && len(v) > option.EchoLimit {
			msg = strings.ReplaceAll(msg, strconv.Quote(v), option.Echo(v))
		}
		if len(a) > option.EchoLimit {
			msg = strings.ReplaceAll(msg, strconv.Quote(a), option.Echo(a))
		}
	}
	return msg
}

// configFailure is a configuration error found once the game has set up:
// its bindings, checked against the actions it registered. The session
// fails through the runtime (so every cleanup runs), whose phase wraps it;
// printFailure unwraps it again.
type configFailure struct{ err error }

func (e *configFailure) Error() string { return e.err.Error() }
func (e *configFailure) Unwrap() error { return e.err }

// printFailure writes a session's failure on w after the program's name,
// except a configuration error found after setup, which reads as the
// configuration errors found before it do ("config: FILE: KEY = VALUE:
// ..."), with no phase or program before it. Failures joined to it (a
// cleanup's) follow on their own line.
func printFailure(w io.Writer, err error) {
	var cf *configFailure
	if !errors.As(err, &cf) {
		fmt.Fprintf(w, "%s: %v\n", programName(), err)
		return
	}
	fmt.Fprintln(w, cf.err)
	var rest []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if !errors.As(e, &cf) {
				rest = append(rest, e)
			}
		}
	}
	if len(rest) > 0 {
		fmt.Fprintf(w, "%s: %v\n", programName(), errors.Join(rest...))
	}
}

func programName() string {
	name := os.Args[0]
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return name
}
