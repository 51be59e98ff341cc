package gldemo

import (
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"runtime/pprof"
	"strings"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/framework"
)

// Main runs the demo with the command-line arguments args and returns the
// exit status: 0 after a clean run (and for --help and --print-config), 1
// when the run failed or an output could not be written, 2 for an invalid
// command line. Main thread only.
func Main(args []string, stdout, stderr io.Writer) int {
	s, err := demo.ParseArgs(args, stderr)
	if errors.Is(err, demo.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		fmt.Fprintln(stderr, "demo: see --help for the flags")
		return 2
	}
	if s.Flags.PrintConfig {
		stdout.Write(s.Config.EffectiveTOML())
		return 0
	}
	if noDisplay() && !s.Headless() && s.Flags.Replay == "" {
		// Nothing to show a window on: run headless for a few seconds
		// (framework.Run puts the invisible window on a private X server)
		// and keep the results.
		if err := s.Config.Set("window.headless=true"); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		if s.Flags.RunFor == 0 && s.Flags.Frames == 0 && s.Flags.Ticks == 0 {
			s.Flags.RunFor = demo.DefaultHeadlessRun
		}
		if s.Flags.Screenshot == "" {
			s.Flags.Screenshot = "demo-screenshot.png"
		}
		if s.TimingReport == "" {
			s.TimingReport = "demo-timing.json"
		}
		if s.TimingChart == "" {
			s.TimingChart = "demo-timing.svg"
		}
		fmt.Fprintf(stderr, "demo: no display (DISPLAY is not set): running headless for %v on a private Xvfb server\n", runLength(s))
	}
	if err := Run(s, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// noDisplay reports whether there is no display server to open a window on.
func noDisplay() bool {
	return goruntime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == ""
}

func runLength(s demo.Settings) string {
	if s.Flags.Ticks > 0 {
		return fmt.Sprintf("%d ticks", s.Flags.Ticks)
	}
	if s.Flags.Frames > 0 {
		return fmt.Sprintf("%d frames", s.Flags.Frames)
	}
	return s.Flags.RunFor.String()
}

// Run runs the demo as s says and writes its outputs, saying where on
// stderr; a benchmark prints its result line on stdout. Main thread only.
func Run(s demo.Settings, stdout, stderr io.Writer) error {
	if s.CPUProfile != "" {
		f, err := os.Create(s.CPUProfile)
		if err != nil {
			return fmt.Errorf("demo: cpu profile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("demo: cpu profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	if s.Bench > 0 {
		return bench(s, stdout, stderr)
	}
	opts := demo.Options{Sprites: s.Sprites, SpriteSize: s.SpriteSize, Seed: s.Seed, Still: s.Still, AtlasImages: s.Atlas}
	g, err := demo.New(opts)
	if err != nil {
		return err
	}
	if s.Flags.Replay != "" {
		res, err := framework.Replay(g.Framework(), s.Flags.Replay, framework.ReplayOptions{
			Window: s.Flags.Window, Headless: s.Flags.Headless, Until: s.Flags.ReplayUntil, Screenshot: s.Flags.Screenshot})
		if res.Ticks > 0 {
			fmt.Fprintln(stdout, res)
		}
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		return nil
	}
	ro := framework.RunOptions{Source: s.Source, RunFor: s.Flags.RunFor, Ticks: s.Flags.Ticks, Frames: s.Flags.Frames, Screenshot: s.Flags.Screenshot, Record: s.Flags.Record}
	runErr := framework.Run(g.Framework(), s.Config, ro)
	var errs []error
	if runErr != nil {
		errs = append(errs, fmt.Errorf("demo: %w", runErr))
	} else if s.Flags.Screenshot != "" {
		if _, err := os.Stat(s.Flags.Screenshot); err != nil {
			errs = append(errs, fmt.Errorf("demo: no screenshot was written: %w", err))
		} else {
			fmt.Fprintf(stderr, "demo: wrote the screenshot to %s\n", s.Flags.Screenshot)
		}
	}
	if lr, ok := g.LoadReport(); ok && s.Flags.Replay == "" {
		fmt.Fprintf(stderr, "demo: %v\n", lr)
	}
	if rt := g.Runtime(); rt != nil {
		r := g.Report()
		if s.TimingReport != "" {
			errs = append(errs, writeReport(s.TimingReport, &r, stderr))
		}
		if s.TimingChart != "" {
			errs = append(errs, writeFile(s.TimingChart, r.WriteSVG, "timing chart", stderr))
		}
	}
	return errors.Join(errs...)
}

// bench runs the benchmark and prints its result line. With
// --interp=compare the session switches interpolation on and off every
// demo.BenchSlice and the line reports both variants and their ratio.
func bench(s demo.Settings, stdout, stderr io.Writer) error {
	compare := s.Interp == demo.InterpCompare
	g, err := demo.New(demo.Options{Sprites: s.Sprites, SpriteSize: s.SpriteSize, Seed: s.Seed, Bench: true, BenchCompare: compare,
		Still: s.Still, RunFor: s.Flags.RunFor, Frames: s.Flags.Frames})
	if err != nil {
		return err
	}
	// The game measures after its warm-up frames and stops itself.
	if err := framework.Run(g.Framework(), s.Config, framework.RunOptions{Source: s.Source, Screenshot: s.Flags.Screenshot}); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if compare {
		on, off := g.BenchVariants()
		ratio := 0.0
		if off.FPS() > 0 {
			ratio = on.FPS() / off.FPS()
		}
		fmt.Fprintf(stdout, "sprites=%d interp=compare frames_on=%d seconds_on=%.3f fps_on=%.1f frames_off=%d seconds_off=%.3f fps_off=%.1f ratio_on_to_off=%.3f\n",
			s.Bench, on.Frames, on.Elapsed.Seconds(), on.FPS(), off.Frames, off.Elapsed.Seconds(), off.FPS(), ratio)
	} else {
		frames, elapsed := g.BenchResult()
		m := demo.BenchMeasure{Frames: frames, Elapsed: elapsed}
		ms := 0.0
		if frames > 0 {
			ms = elapsed.Seconds() * 1000 / float64(frames)
		}
		fmt.Fprintf(stdout, "sprites=%d interp=%s frames=%d seconds=%.3f fps=%.1f frame_ms=%.3f\n",
			s.Bench, onOff(s.Config.Render.Interpolation), frames, elapsed.Seconds(), m.FPS(), ms)
	}
	if s.TimingReport != "" {
		r := g.Report()
		return writeReport(s.TimingReport, &r, stderr)
	}
	return nil
}

func onOff(b bool) string {
	if b {
		return demo.InterpOn
	}
	return demo.InterpOff
}

// writeReport writes the report as JSON, or as an SVG chart when the name
// ends in .svg.
func writeReport(path string, r *demo.Report, info io.Writer) error {
	if strings.HasSuffix(strings.ToLower(path), ".svg") {
		return writeFile(path, r.WriteSVG, "timing chart", info)
	}
	return writeFile(path, r.WriteJSON, "timing report", info)
}

// writeFile writes one output and says where on info.
func writeFile(path string, write func(io.Writer) error, what string, info io.Writer) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("demo: %s: %w", what, err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("demo: %s %s: %w", what, path, err)
	}
	fmt.Fprintf(info, "demo: wrote the %s to %s\n", what, path)
	return nil
}
