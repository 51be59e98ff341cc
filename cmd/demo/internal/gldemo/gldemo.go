package gldemo

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	goruntime "runtime"
	"runtime/pprof"
	"strings"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/internal/xvfb"
)

// Main runs the demo with the command-line arguments args and returns the
// exit status: 0 after a clean run, 1 when the run failed or an output
// could not be written, 2 for an invalid command line. Main thread only.
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
	if noDisplay() {
		// Nothing to show a window on: run in an invisible window on a
		// private X server, for a few seconds, and keep the results.
		if !s.Headless() {
			s.Config.Window.Headless = true
			if s.RunFor == 0 && s.Frames == 0 {
				s.RunFor = demo.DefaultHeadlessRun
			}
			if s.Screenshot == "" {
				s.Screenshot = "demo-screenshot.png"
			}
			if s.TimingReport == "" {
				s.TimingReport = "demo-timing.json"
			}
			if s.TimingChart == "" {
				s.TimingChart = "demo-timing.svg"
			}
			fmt.Fprintf(stderr, "demo: no display (DISPLAY is not set): running headless for %v on a private Xvfb server\n", runLength(s))
		}
		d, err := xvfb.Start()
		if err != nil {
			fmt.Fprintf(stderr, "demo: no display, and no private X server either: %v\n", err)
			return 1
		}
		defer d.Close()
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
	if s.Frames > 0 {
		return fmt.Sprintf("%d frames", s.Frames)
	}
	return s.RunFor.String()
}

// Run runs the demo as s says and writes its outputs, saying where on
// stderr; a benchmark prints its result line on stdout. Main thread only.
func Run(s demo.Settings, stdout, stderr io.Writer) error {
	opts := demo.Options{Sprites: s.Sprites, SpriteSize: s.SpriteSize, Seed: s.Seed, Bench: s.Bench > 0, Still: s.Still}
	ro := framework.RunOptions{Source: "command line"}
	if s.ConfigPath != "" {
		ro.Source = s.ConfigPath + " and the command line"
	}
	if opts.Bench {
		// The game measures after its warm-up frames and stops itself.
		opts.RunFor, opts.Frames = s.RunFor, s.Frames
	} else {
		ro.RunFor, ro.Frames = s.RunFor, s.Frames
	}
	var shot []byte
	if s.Screenshot != "" {
		opts.Screenshot = func(img *image.RGBA) error {
			var b bytes.Buffer
			if err := png.Encode(&b, img); err != nil {
				return err
			}
			shot = b.Bytes()
			return nil
		}
	}
	g, err := demo.New(opts)
	if err != nil {
		return err
	}
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
	runErr := framework.Run(g.Framework(), s.Config, ro)
	var errs []error
	if runErr != nil {
		errs = append(errs, fmt.Errorf("demo: %w", runErr))
	}
	if rt := g.Runtime(); rt != nil {
		r := demo.NewReport(rt)
		if s.TimingReport != "" {
			errs = append(errs, writeReport(s.TimingReport, &r, stderr))
		}
		if s.TimingChart != "" {
			errs = append(errs, writeFile(s.TimingChart, r.WriteSVG, "timing chart", stderr))
		}
	}
	if s.Screenshot != "" {
		if shot == nil {
			errs = append(errs, errors.New("demo: no screenshot was taken (the session ended before its first frame)"))
		} else {
			errs = append(errs, writeFile(s.Screenshot, func(w io.Writer) error { _, err := w.Write(shot); return err }, "screenshot", stderr))
		}
	}
	if opts.Bench && runErr == nil {
		frames, elapsed := g.BenchResult()
		sec := elapsed.Seconds()
		fps, ms := 0.0, 0.0
		if sec > 0 && frames > 0 {
			fps, ms = float64(frames)/sec, sec*1000/float64(frames)
		}
		fmt.Fprintf(stdout, "sprites=%d frames=%d seconds=%.3f fps=%.1f frame_ms=%.3f\n", s.Bench, frames, sec, fps, ms)
	}
	return errors.Join(errs...)
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
