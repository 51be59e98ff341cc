package demo

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/metronome-go/metronome/framework/config"
)

// DefaultConfigPath is the configuration file read when --config is not
// given and the file exists in the working directory.
const DefaultConfigPath = "config.toml"

// DefaultHeadlessRun is how long a headless run lasts when neither --run-for
// nor --frames says: a window nobody sees cannot be closed by hand.
const DefaultHeadlessRun = 5 * time.Second

// DefaultBenchRun is how long --bench measures when neither --run-for nor
// --frames says.
const DefaultBenchRun = 5 * time.Second

// Settings is what the command line asks for: the configuration after the
// file and every override, and what to do with the run.
type Settings struct {
	// Config is the configuration: embedded defaults, then the file, then
	// the command-line overrides in the order they were given.
	Config config.Config
	// ConfigPath is the file that was read, "" when none was.
	ConfigPath string
	// Overrides are the "key=value" assignments the flags made, in order.
	Overrides []string
	// RunFor and Frames end the run after that much time or that many
	// presented frames, whichever comes first; zero means no limit.
	RunFor time.Duration
	Frames int
	// Screenshot is a PNG file to write the final frame to.
	Screenshot string
	// TimingReport is a file for the timing report: JSON, or an SVG chart
	// when the name ends in ".svg". TimingChart is a file for the chart
	// alongside a JSON report.
	TimingReport string
	TimingChart  string
	// Bench is the sprite count of a benchmark run; zero is a normal run.
	Bench int
	// Sprites is the number of bunnies the scene starts with.
	Sprites int
	// SpriteSize is the bunnies' size in pixels.
	SpriteSize int
	// Seed seeds the scene's random source.
	Seed uint64
	// Still keeps the bunnies in place, for reproducible screenshots.
	Still bool
	// CPUProfile is a file for a CPU profile of the run.
	CPUProfile string
}

// Headless reports whether the run renders into an invisible window.
func (s *Settings) Headless() bool { return s.Config.Window.Headless }

// ErrHelp is returned by ParseArgs for -h or --help, after the usage text was
// written; the command then exits with status 0.
var ErrHelp = flag.ErrHelp

// ParseArgs reads the command line (without the program name). Usage text
// for --help and flag syntax errors goes to usage. Every invalid value is
// reported, naming the flag or configuration key and what is allowed; a
// configuration that is invalid as a whole is an error too.
func ParseArgs(args []string, usage io.Writer) (Settings, error) {
	s := Settings{Sprites: 500, SpriteSize: 26, Seed: 1}
	var (
		configPath string
		configSet  bool
		errs       []error
	)
	// Overrides are collected first and applied after the file is read,
	// so --config may come anywhere on the line.
	type override struct{ flag, assignment string }
	var overrides []override
	set := func(name string, assignments ...string) {
		for _, a := range assignments {
			overrides = append(overrides, override{name, a})
		}
	}
	fset := flag.NewFlagSet("demo", flag.ContinueOnError)
	fset.SetOutput(usage)
	fset.Usage = func() { writeUsage(usage, fset) }

	// Bad values are collected rather than returned, so that every
	// problem on the line is reported at once.
	bad := func(name, v, want string) {
		errs = append(errs, fmt.Errorf("demo: --%s=%s: %s", name, v, want))
	}
	boolFlag := func(name, help string, on, off []string) {
		fset.Func(name, help+" (boolean; --"+name+"=false undoes it)", func(v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				bad(name, v, "want true or false")
				return nil
			}
			if b {
				set("--"+name, on...)
			} else {
				set("--"+name, off...)
			}
			return nil
		})
		markBool(fset, name)
	}
	msFlag := func(name, key, help string, extra ...string) {
		fset.Func(name, help, func(v string) error {
			ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || ms != ms {
				bad(name, v, "want a number of milliseconds, such as 20 or 16.667")
				return nil
			}
			if ms < 0 {
				bad(name, v, "want a number of milliseconds of at least 0")
				return nil
			}
			set("--"+name, append(extra, key+"="+strconv.FormatFloat(ms, 'f', -1, 64)+"ms")...)
			return nil
		})
	}
	intFlag := func(name, key, help string) {
		fset.Func(name, help, func(v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				bad(name, v, "want a whole number")
				return nil
			}
			set("--"+name, key+"="+strconv.Itoa(n))
			return nil
		})
	}

	// The seed-000 timing switches.
	boolFlag("concurrent", "run updates on their own goroutine (runtime.mode=concurrent)",
		[]string{"runtime.mode=concurrent"}, []string{"runtime.mode=sequential"})
	msFlag("fixed-step-ms", "timing.step", "fixed simulation step in milliseconds; selects fixed mode (timing.mode=fixed, timing.step)",
		"timing.mode=fixed", "timing.rate=0")
	boolFlag("variable-catch-up", "recover from lag with a fixed prefix and one larger update (timing.recovery=variable-catch-up)",
		[]string{"timing.recovery=variable-catch-up"}, []string{"timing.recovery=drop-excess-lag"})
	intFlag("max-fixed-updates", "timing.max_fixed_updates", "most fixed updates in one cycle (timing.max_fixed_updates)")
	intFlag("recovery-prefix", "timing.recovery_prefix", "fixed updates before the catch-up update (timing.recovery_prefix)")
	msFlag("recovery-cap-ms", "timing.recovery_cap", "largest catch-up update in milliseconds, 0 = no cap (timing.recovery_cap)")
	// A few more shortcuts for the other policies.
	boolFlag("fixed", "fixed simulation steps (timing.mode=fixed)", []string{"timing.mode=fixed"}, []string{"timing.mode=variable"})
	boolFlag("repay-debt", "keep lag as debt and repay it (timing.recovery=repay-debt)",
		[]string{"timing.recovery=repay-debt"}, []string{"timing.recovery=drop-excess-lag"})
	boolFlag("timestamped-input", "give each fixed update the input of its own span (polling.delivery=timestamped)",
		[]string{"polling.delivery=timestamped"}, []string{"polling.delivery=backlog"})
	intFlag("frame-cap", "runtime.frame_cap", "most frames per second, 0 = no cap (runtime.frame_cap)")
	boolFlag("headless", "render into an invisible window (window.headless)", []string{"window.headless=true"}, []string{"window.headless=false"})
	fset.Func("set", "override one configuration key, key=value (repeatable)", func(v string) error {
		if !strings.Contains(v, "=") {
			bad("set", v, "want key=value, such as timing.mode=fixed")
			return nil
		}
		set("--set", v)
		return nil
	})
	fset.Func("config", "configuration file (default config.toml when present)", func(v string) error {
		configPath, configSet = v, true
		return nil
	})
	fset.DurationVar(&s.RunFor, "run-for", 0, "stop after this long, such as 10s (default: until the window closes; 5s headless)")
	fset.IntVar(&s.Frames, "frames", 0, "stop after this many presented frames")
	fset.StringVar(&s.Screenshot, "screenshot", "", "write the final frame to this PNG file")
	fset.StringVar(&s.TimingReport, "timing-report", "", "write the timing report to this file: JSON, or an SVG chart for a .svg name")
	fset.StringVar(&s.TimingChart, "timing-chart", "", "write an SVG chart of the timing report to this file")
	fset.IntVar(&s.Bench, "bench", 0, "benchmark: N sprites, vsync off, print one result line")
	fset.IntVar(&s.Sprites, "sprites", s.Sprites, "bunnies at the start")
	fset.IntVar(&s.SpriteSize, "sprite-size", s.SpriteSize, "bunny size in pixels (2 in --bench unless given)")
	fset.Uint64Var(&s.Seed, "seed", s.Seed, "seed of the scene's random source")
	fset.BoolVar(&s.Still, "still", false, "keep the bunnies in place (reproducible screenshots)")
	fset.StringVar(&s.CPUProfile, "cpuprofile", "", "write a CPU profile of the run to this file")

	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return Settings{}, ErrHelp
		}
		return Settings{}, fmt.Errorf("demo: %w", err)
	}
	if fset.NArg() > 0 {
		errs = append(errs, fmt.Errorf("demo: unexpected argument %q (flags start with --)", fset.Arg(0)))
	}
	given := map[string]bool{}
	fset.Visit(func(f *flag.Flag) { given[f.Name] = true })

	// Configuration: defaults, the file, then the overrides in order.
	s.Config = config.Default()
	if !configSet {
		if _, err := os.Stat(DefaultConfigPath); err == nil {
			configPath = DefaultConfigPath
		} else if !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("demo: %s: %w", DefaultConfigPath, err))
		}
	}
	if configPath != "" {
		c, err := config.Load(configPath)
		if err != nil {
			errs = append(errs, err)
		} else {
			s.Config, s.ConfigPath = c, configPath
		}
	}
	if s.Bench > 0 {
		// A benchmark measures drawing: no vsync, no cap, an update per
		// frame; flags given after --bench may still change that.
		var bench []override
		for _, a := range []string{"window.vsync=false", "runtime.frame_cap=0", "timing.mode=variable", "timing.interval=0s", "polling.delivery=backlog"} {
			bench = append(bench, override{"--bench", a})
		}
		overrides = append(bench, overrides...)
		if !given["sprite-size"] {
			s.SpriteSize = 2
		}
	}
	for _, o := range overrides {
		s.Overrides = append(s.Overrides, o.assignment)
		if err := s.Config.Set(o.assignment); err != nil {
			errs = append(errs, fmt.Errorf("demo: %s: %w", o.flag, err))
		}
	}
	if len(errs) == 0 {
		src := "command line"
		if s.ConfigPath != "" {
			src = s.ConfigPath + " and the command line"
		}
		if err := s.Config.Validate(src); err != nil {
			errs = append(errs, err)
		} else if _, err := s.Config.RuntimeOptions(src); err != nil {
			errs = append(errs, err)
		}
	}

	if s.RunFor < 0 {
		errs = append(errs, fmt.Errorf("demo: --run-for=%v: want a duration of at least 0, such as 10s", s.RunFor))
	}
	if s.Frames < 0 {
		errs = append(errs, fmt.Errorf("demo: --frames=%d: want 0 or more", s.Frames))
	}
	if s.Bench < 0 || s.Bench > MaxSprites {
		errs = append(errs, fmt.Errorf("demo: --bench=%d: want 1 to %d sprites", s.Bench, MaxSprites))
	}
	if s.Sprites < 0 || s.Sprites > MaxSprites {
		errs = append(errs, fmt.Errorf("demo: --sprites=%d: want 0 to %d", s.Sprites, MaxSprites))
	}
	if s.SpriteSize < 1 || s.SpriteSize > 256 {
		errs = append(errs, fmt.Errorf("demo: --sprite-size=%d: want 1 to 256 pixels", s.SpriteSize))
	}
	if len(errs) > 0 {
		return Settings{}, errors.Join(errs...)
	}
	if s.RunFor == 0 && s.Frames == 0 {
		switch {
		case s.Bench > 0:
			s.RunFor = DefaultBenchRun
		case s.Config.Window.Headless:
			s.RunFor = DefaultHeadlessRun
		}
	}
	if s.Bench > 0 {
		s.Sprites = s.Bench
	}
	return s, nil
}

// markBool lets a Func flag stand alone (--concurrent) like a bool flag.
func markBool(fset *flag.FlagSet, name string) {
	f := fset.Lookup(name)
	f.Value = boolValue{f.Value}
	f.DefValue = "false"
}

type boolValue struct{ flag.Value }

func (boolValue) IsBoolFlag() bool { return true }

func writeUsage(w io.Writer, fset *flag.FlagSet) {
	fmt.Fprint(w, `Usage: demo [flags]

The Metronome demo: bunnies under ECS systems, a player with a dash on a
cooldown, a live timing overlay and a resilience panel with a control for every
timing setting. Keys: WASD move, Space dash, F shoot, = and - add and remove
bunnies (mouse buttons too), Up/Down pick a setting, Left/Right change it,
1-3 stall the update 100 ms / 500 ms / 3 s, 4 suspend 6 s, 5 slow updates,
6 slow rendering, H hides the overlay, Esc quits.

Flags (each may be written with one or two dashes):
`)
	fset.PrintDefaults()
}
