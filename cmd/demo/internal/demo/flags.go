package demo

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
)

// DefaultHeadlessRun is how long a headless run lasts when none of --run-for,
// --ticks and --frames says: a window nobody sees cannot be closed by hand.
const DefaultHeadlessRun = 5 * time.Second

// DefaultBenchRun is how long --bench measures when neither --run-for nor
// --frames says.
const DefaultBenchRun = 5 * time.Second

// Interpolation choices of --interp.
const (
	InterpOn      = "on"
	InterpOff     = "off"
	InterpCompare = "compare" // --bench only: both, alternating in one session
)

// Settings is what the command line asks for: the framework's flags, the
// configuration they build, and the demo's own choices.
type Settings struct {
	// Flags are the framework's flags (--config, --set, --headless,
	// --ticks, --frames, --run-for, --screenshot, --print-config). The demo's timing
	// switches add their assignments to Flags.Sets, in command-line order
	// with --set, and a benchmark puts its own first. Flags.RunFor holds
	// the headless and benchmark default when no limit was given.
	Flags framework.Flags
	// Config is the configuration the layers make (framework defaults, the
	// file, then Flags.Sets); Source names those layers for messages.
	Config config.Config
	Source string
	// TimingReport is a file for the timing report: JSON, or an SVG chart
	// when the name ends in ".svg". TimingChart is a file for the chart
	// alongside a JSON report.
	TimingReport string
	TimingChart  string
	// Bench is the sprite count of a benchmark run; zero is a normal run.
	Bench int
	// Interp is --interp: "" leaves render.interpolation to the
	// configuration, InterpOn and InterpOff set it, InterpCompare (with
	// --bench) measures both.
	Interp string
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
	// Atlas is how many generated images the demo loads in the background
	// at the start, behind its loading screen (0: none).
	Atlas int
}

// Headless reports whether the run renders into an invisible window.
func (s *Settings) Headless() bool { return s.Config.Window.Headless }

// BenchSets are the overrides a benchmark starts from; flags after them
// may still change any. A benchmark measures drawing: no vsync and no cap,
// and fixed steps at 1 kHz with one update per cycle, so that every frame
// (which takes longer than a millisecond at benchmark sizes) runs exactly
// one fixed update and, with interpolation on, records and draws the
// previous placements as a game at any fixed rate does.
var BenchSets = []string{
	"window.vsync=false", "runtime.frame_cap=0",
	"timing.mode=fixed", "timing.rate=1000", "timing.max_fixed_updates=1",
	"timing.recovery=drop-excess-lag", "timing.recovery_prefix=0", "polling.delivery=backlog",
}

// ErrHelp is returned by ParseArgs for -h or --help, after the usage text was
// written; the command then exits with status 0.
var ErrHelp = flag.ErrHelp

// parser collects the assignments of the demo's switches, with the flag
// that made each, and every bad value on the line.
type parser struct {
	s *Settings
	// origin names the flag behind Flags.Sets[i]; an index without one
	// came from --set.
	origin map[int]string
	errs   []error
}

// add appends one assignment made by the flag written as origin.
func (p *parser) add(origin string, assignments ...string) {
	for _, a := range assignments {
		p.s.Flags.Sets = append(p.s.Flags.Sets, a)
		p.origin[len(p.s.Flags.Sets)-1] = origin
	}
}

// shortcut is one of the demo's switches: a flag that stands for
// configuration assignments. Its value becomes "key=value" overrides in
// the framework's --set list, so they apply in command-line order with
// --set. A bad value is collected, not returned, so that every problem on
// the line is reported at once.
type shortcut struct {
	name      string
	boolean   bool
	translate func(v string) ([]string, error)
	p         *parser
}

// String is empty: a switch has no value of its own (the flag package also
// calls it on a zero shortcut to find the default).
func (f *shortcut) String() string { return "" }

// IsBoolFlag lets a boolean switch stand alone (--concurrent).
func (f *shortcut) IsBoolFlag() bool { return f.boolean }

func (f *shortcut) Set(v string) error {
	sets, err := f.translate(v)
	if err != nil {
		f.p.errs = append(f.p.errs, fmt.Errorf("demo: --%s=%s: %v", f.name, v, err))
		return nil
	}
	f.p.add("--"+f.name+"="+v, sets...)
	return nil
}

// ParseArgs reads the command line (without the program name) and builds
// the configuration from it, as framework.Flags.LoadConfig does for every
// game. Usage text for --help and flag syntax errors go to usage. Every
// invalid value is reported at once, naming the flag that gave it, the
// configuration key and what is allowed; a configuration that is invalid
// as a whole is an error too.
func ParseArgs(args []string, usage io.Writer) (Settings, error) {
	s := Settings{Sprites: 500, SpriteSize: 26, Seed: 1, Atlas: DefaultAtlasImages}
	p := &parser{s: &s, origin: map[int]string{}}
	fset := flag.NewFlagSet("demo", flag.ContinueOnError)
	fset.SetOutput(usage)
	fset.Usage = func() { writeUsage(usage, fset) }
	s.Flags.Register(fset)

	switchFlag := func(name, help string, boolean bool, translate func(string) ([]string, error)) {
		fset.Var(&shortcut{name: name, boolean: boolean, translate: translate, p: p}, name, help)
	}
	boolFlag := func(name, help string, on, off []string) {
		switchFlag(name, help+" (--"+name+"=false undoes it)", true, func(v string) ([]string, error) {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, errors.New("want true or false")
			}
			if b {
				return on, nil
			}
			return off, nil
		})
	}
	msFlag := func(name, key, help string, extra ...string) {
		switchFlag(name, help, false, func(v string) ([]string, error) {
			ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || ms != ms {
				return nil, errors.New("want a number of milliseconds, such as 20 or 16.667")
			}
			if ms < 0 {
				return nil, errors.New("want a number of milliseconds of at least 0")
			}
			return append(extra[:len(extra):len(extra)], key+"="+strconv.FormatFloat(ms, 'f', -1, 64)+"ms"), nil
		})
	}
	intFlag := func(name, key, help string) {
		switchFlag(name, help, false, func(v string) ([]string, error) {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return nil, errors.New("want a whole number")
			}
			return []string{key + "=" + strconv.Itoa(n)}, nil
		})
	}

	// The seed-000 timing switches.
	boolFlag("concurrent", "run updates on their own goroutine (runtime.mode=concurrent)",
		[]string{"runtime.mode=concurrent"}, []string{"runtime.mode=sequential"})
	msFlag("fixed-step-ms", "timing.step", "fixed simulation step in `milliseconds`; selects fixed mode (timing.mode=fixed, timing.step)",
		"timing.mode=fixed", "timing.rate=0")
	boolFlag("variable-catch-up", "recover from lag with a fixed prefix and one larger update (timing.recovery=variable-catch-up)",
		[]string{"timing.recovery=variable-catch-up"}, []string{"timing.recovery=drop-excess-lag"})
	intFlag("max-fixed-updates", "timing.max_fixed_updates", "at most `N` fixed updates in one cycle (timing.max_fixed_updates)")
	intFlag("recovery-prefix", "timing.recovery_prefix", "`N` fixed updates before the catch-up update (timing.recovery_prefix)")
	msFlag("recovery-cap-ms", "timing.recovery_cap", "largest catch-up update in `milliseconds`, 0 = no cap (timing.recovery_cap)")
	// A few more shortcuts for the other policies.
	boolFlag("fixed", "fixed simulation steps (timing.mode=fixed)", []string{"timing.mode=fixed"}, []string{"timing.mode=variable"})
	boolFlag("repay-debt", "keep lag as debt and repay it (timing.recovery=repay-debt)",
		[]string{"timing.recovery=repay-debt"}, []string{"timing.recovery=drop-excess-lag"})
	boolFlag("timestamped-input", "give each fixed update the input of its own span (polling.delivery=timestamped)",
		[]string{"polling.delivery=timestamped"}, []string{"polling.delivery=backlog"})
	intFlag("frame-cap", "runtime.frame_cap", "at most `N` frames per second, 0 = no cap (runtime.frame_cap)")
	fset.Func("interp", "interpolation at each present, `on|off` (render.interpolation), or with --bench compare: both, alternating", func(v string) error {
		switch v {
		case InterpOn:
			p.add("--interp="+v, "render.interpolation=true")
		case InterpOff:
			p.add("--interp="+v, "render.interpolation=false")
		case InterpCompare:
		default:
			p.errs = append(p.errs, fmt.Errorf("demo: --interp=%s: want on, off or compare", v))
			return nil
		}
		s.Interp = v
		return nil
	})

	fset.StringVar(&s.TimingReport, "timing-report", "", "write the timing report to this `file`: JSON, or an SVG chart for a .svg name")
	fset.StringVar(&s.TimingChart, "timing-chart", "", "write an SVG chart of the timing report to this `file`")
	fset.IntVar(&s.Bench, "bench", 0, "benchmark: `N` sprites, vsync off, fixed 1 kHz steps, print one result line")
	fset.IntVar(&s.Sprites, "sprites", s.Sprites, "bunnies at the start")
	fset.IntVar(&s.SpriteSize, "sprite-size", s.SpriteSize, "bunny size in `pixels` (2 in --bench unless given)")
	fset.Uint64Var(&s.Seed, "seed", s.Seed, "seed of the scene's random source")
	fset.BoolVar(&s.Still, "still", false, "keep the bunnies in place (reproducible screenshots)")
	fset.StringVar(&s.CPUProfile, "cpuprofile", "", "write a CPU profile of the run to this `file`")
	fset.IntVar(&s.Atlas, "atlas", s.Atlas, "load `N` generated 256x256 images in the background at the start, behind a loading screen, then show them as the background (0 = none)")

	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return Settings{}, ErrHelp
		}
		return Settings{}, fmt.Errorf("demo: %w", err)
	}
	errs := p.errs
	if fset.NArg() > 0 {
		errs = append(errs, fmt.Errorf("demo: unexpected argument %q (flags start with --)", fset.Arg(0)))
	}
	if err := s.Flags.Validate(); err != nil {
		errs = append(errs, err)
	}
	given := map[string]bool{}
	fset.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if s.Bench < 0 || s.Bench > MaxSprites {
		errs = append(errs, fmt.Errorf("demo: --bench=%d: want 1 to %d sprites", s.Bench, MaxSprites))
	}
	if s.Interp == InterpCompare && s.Bench == 0 {
		errs = append(errs, errors.New("demo: --interp=compare: only with --bench (it measures both in one benchmark)"))
	}
	if s.Sprites < 0 || s.Sprites > MaxSprites {
		errs = append(errs, fmt.Errorf("demo: --sprites=%d: want 0 to %d", s.Sprites, MaxSprites))
	}
	if s.Atlas < 0 || s.Atlas > MaxAtlasImages {
		errs = append(errs, fmt.Errorf("demo: --atlas=%d: want 0 to %d images", s.Atlas, MaxAtlasImages))
	}
	if s.SpriteSize < 1 || s.SpriteSize > 256 {
		errs = append(errs, fmt.Errorf("demo: --sprite-size=%d: want 1 to 256 pixels", s.SpriteSize))
	}
	if s.Bench > 0 {
		p.prepend("--bench="+strconv.Itoa(s.Bench), BenchSets)
		if !given["sprite-size"] {
			s.SpriteSize = 2
		}
	}

	// The configuration: the framework's layers, then the overrides in
	// command-line order.
	cfg, source, err := s.Flags.LoadConfig(frameworkGame())
	if err == nil {
		if _, rerr := cfg.RuntimeOptions(source); rerr != nil {
			err = rerr
		}
	}
	if err != nil {
		errs = append(errs, p.attribute(err))
	}
	if len(errs) > 0 {
		return Settings{}, errors.Join(errs...)
	}
	s.Config, s.Source = cfg, source
	if s.Flags.RunFor == 0 && s.Flags.Frames == 0 {
		switch {
		case s.Bench > 0:
			s.Flags.RunFor = DefaultBenchRun
		case s.Config.Window.Headless:
			s.Flags.RunFor = DefaultHeadlessRun
		}
	}
	if s.Bench > 0 {
		s.Sprites = s.Bench
	}
	return s, nil
}

// prepend puts assignments made by origin before every other override.
func (p *parser) prepend(origin string, assignments []string) {
	sets := p.s.Flags.Sets
	shifted := make(map[int]string, len(p.origin)+len(assignments))
	for i, o := range p.origin {
		shifted[i+len(assignments)] = o
	}
	p.s.Flags.Sets, p.origin = nil, shifted
	for i, a := range assignments {
		p.s.Flags.Sets = append(p.s.Flags.Sets, a)
		p.origin[i] = origin
	}
	p.s.Flags.Sets = append(p.s.Flags.Sets, sets...)
}

// attribute names the flag behind each configuration problem: a problem
// with a key an override set is prefixed with the flag that set it last
// ("--max-fixed-updates=0", "--set=timing.mode"), so the message says what
// to change on the command line.
func (p *parser) attribute(err error) error {
	var list []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	} else {
		list = []error{err}
	}
	out := make([]error, 0, len(list))
	for _, e := range list {
		var ce *config.Error
		if !errors.As(e, &ce) || ce.Key == "" {
			out = append(out, e)
			continue
		}
		flagText := ""
		for i, a := range p.s.Flags.Sets {
			if key, _, _ := strings.Cut(a, "="); strings.TrimSpace(key) == ce.Key {
				flagText = p.origin[i]
				if flagText == "" {
					flagText = "--set=" + a
				}
			}
		}
		if flagText == "" {
			out = append(out, e)
			continue
		}
		out = append(out, fmt.Errorf("demo: %s: %w", flagText, e))
	}
	return errors.Join(out...)
}

func writeUsage(w io.Writer, fset *flag.FlagSet) {
	fmt.Fprint(w, `Usage: demo [flags]

The Metronome demo: bunnies under ECS systems, a player with a dash on a
cooldown, sound effects and music, a loading screen while a generated atlas
loads in the background (--atlas), a live timing overlay and a resilience panel
with a control for every timing setting, the sound and the focus policy.
Keys: WASD move, Space dash, F shoot, = and - add and remove bunnies (mouse
buttons too), Up/Down pick a setting, Left/Right change it, 1-3 stall the
update 100 ms / 500 ms / 3 s, 4 suspend 6 s, 5 slow updates, 6 slow rendering,
H hides the overlay, F11 fullscreen, F5 saves the bunny count, Esc quits: with
an unsaved bunny count Esc and the close button ask first (again = quit, any
other key = stay). [input.bindings] in the configuration rebinds every action.

The timing switches are shortcuts for --set: --fixed-step-ms=20 is
--set timing.mode=fixed --set timing.rate=0 --set timing.step=20ms, and all of
them apply after the configuration file, in command-line order.

Flags (each may be written with one or two dashes):
`)
	fset.PrintDefaults()
}
