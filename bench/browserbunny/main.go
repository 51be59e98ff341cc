//go:build !js

// Command browserbunny measures the browser bunnymark side by side: the
// Ebitengine page (bench/ebitenbunny) and the Metronome page
// (bench/metronomebunny, on the draw path glrender chooses for the device
// and forced onto the instanced one) in one headless Chromium with the
// flags the project's browser tests use (WebGL2 on SwiftShader), at each
// sprite count, in turn, for several rounds, and prints a table of frames
// per second in steady state:
//
//	cd bench && go run ./browserbunny [-n 1000,10000,50000] [-size 8] [-warm 12s] [-measure 5s] [-rounds 2] [-capped]
//
// The frame rate is uncapped (chromium's --disable-frame-rate-limit and
// --disable-gpu-vsync), for both engines: at the display's 60 Hz a page
// that could draw 200 frames a second and one that draws 60 would read
// alike. -capped measures at the display's rate instead.
//
// Each page is loaded afresh, warmed for -warm, then measured for
// -measure: frames drawn over the page's performance.now() time. The
// pages are served from loopback, cross-origin isolated.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/bench/internal/headless"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

type options struct {
	counts        []int
	size, rounds  int
	warm, measure time.Duration
	capped        bool
}

// engines are the pages measured, in the order of each round.
var engines = []struct{ name, page, query string }{
	{"ebitengine", "ebitenbunny", ""},
	{"metronome", "metronomebunny", ""},
	{"metronome-instanced", "metronomebunny", "&path=instanced"},
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("browserbunny", flag.ContinueOnError)
	fl.SetOutput(stderr)
	counts := fl.String("n", "1000,10000,50000", "sprite counts, comma separated")
	var o options
	fl.IntVar(&o.size, "size", 8, "bunny width and height in pixels (1 to 256)")
	fl.IntVar(&o.rounds, "rounds", 2, "rounds over every count and engine (1 to 10)")
	fl.DurationVar(&o.warm, "warm", 12*time.Second, "warm-up before measuring each page")
	fl.DurationVar(&o.measure, "measure", 5*time.Second, "measuring time of each page (at least 1s)")
	fl.BoolVar(&o.capped, "capped", false, "keep the display's 60 Hz frame cap (default: uncapped, for both engines)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	var errs []error
	for _, s := range strings.Split(*counts, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 1_000_000 {
			errs = append(errs, fmt.Errorf("-n: %q is not a sprite count, want 1 to 1000000", s))
			continue
		}
		o.counts = append(o.counts, n)
	}
	if o.size < 1 || o.size > 256 {
		errs = append(errs, fmt.Errorf("-size %d: want 1 to 256", o.size))
	}
	if o.rounds < 1 || o.rounds > 10 {
		errs = append(errs, fmt.Errorf("-rounds %d: want 1 to 10", o.rounds))
	}
	if o.warm < 0 {
		errs = append(errs, fmt.Errorf("-warm %v: want 0 or more", o.warm))
	}
	if o.measure < time.Second {
		errs = append(errs, fmt.Errorf("-measure %v: want at least 1s", o.measure))
	}
	if err := errors.Join(errs...); err != nil {
		fmt.Fprintln(stderr, "browserbunny:", err)
		return 2
	}
	if err := measure(o, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "browserbunny:", err)
		return 1
	}
	return 0
}

const pageHTML = `<!doctype html>
<html><head><meta charset="utf-8">
<style>html, body { margin: 0; height: 100%%; overflow: hidden; background: #000; }</style>
<script src="wasm_exec.js"></script></head>
<body><script>
window.bench = { frames: 0 };
const go = new Go();
WebAssembly.instantiateStreaming(fetch("%s.wasm"), go.importObject)
	.then((r) => go.run(r.instance))
	.catch((e) => { bench.error = String(e); });
</script></body></html>
`

// build writes both pages, their modules and wasm_exec.js into dir.
func build(dir string) error {
	out, err := exec.Command("go", "env", "GOROOT", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env: %w", err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != 2 || !strings.HasSuffix(lines[1], "go.mod") {
		return fmt.Errorf("go env GOROOT GOMOD: %q: run it inside the bench module", out)
	}
	goroot, mod := lines[0], filepath.Dir(lines[1])
	js, err := os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), js, 0o644); err != nil {
		return err
	}
	for _, page := range []string{"ebitenbunny", "metronomebunny"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, page+".wasm"), "./"+page)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("building %s: %v\n%s", page, err, out)
		}
		if err := os.WriteFile(filepath.Join(dir, page+".html"), fmt.Appendf(nil, pageHTML, page), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// serve serves dir on loopback, cross-origin isolated, until ctx ends.
func serve(ctx context.Context, dir string) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	files := http.FileServer(http.Dir(dir))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
		w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
		if filepath.Ext(r.URL.Path) == ".wasm" {
			w.Header().Set("Content-Type", "application/wasm")
		}
		files.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	context.AfterFunc(ctx, func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/", nil
}

// progress is what a page says of itself.
type progress struct {
	Frames int     `json:"frames"`
	Ms     float64 `json:"ms"`
	Error  string  `json:"error"`
}

type sample struct {
	frames int
	ms     float64
}

func measure(o options, stdout, stderr io.Writer) error {
	dir, err := os.MkdirTemp("", "browserbunny")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := build(dir); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, err := serve(ctx, dir)
	if err != nil {
		return err
	}
	var extra []chromedp.ExecAllocatorOption
	rate := "frame rate capped at the display's 60 Hz"
	if !o.capped {
		extra = append(extra, chromedp.Flag("disable-frame-rate-limit", true), chromedp.Flag("disable-gpu-vsync", true))
		rate = "frame rate uncapped"
	}
	bctx, stop, err := headless.Start(ctx, filepath.Join(dir, "profile"), extra...)
	if err != nil {
		return err
	}
	defer stop()
	fps := map[string]map[int][]float64{}
	paths := map[int]string{}
	device := ""
	for round := range o.rounds {
		for _, n := range o.counts {
			for _, e := range engines {
				u := fmt.Sprintf("%s%s.html?n=%d&size=%d%s", url, e.page, n, o.size, e.query)
				s, info, err := page(bctx, u, o)
				if err != nil {
					return fmt.Errorf("%s, %d sprites: %w", e.name, n, err)
				}
				f := float64(s.frames) / (s.ms / 1000)
				fmt.Fprintf(stderr, "round %d: %s n=%d frames=%d ms=%.0f fps=%.2f %s\n", round+1, e.name, n, s.frames, s.ms, f, info)
				if fps[e.name] == nil {
					fps[e.name] = map[int][]float64{}
				}
				fps[e.name][n] = append(fps[e.name][n], f)
				if e.name == "metronome" {
					paths[n], device, _ = strings.Cut(info, " ")
					device, _, _ = strings.Cut(device, " (WarmUp")
				}
			}
		}
	}
	fmt.Fprintf(stdout, "browser bunnymark, headless chromium (SwiftShader WebGL2), %dx%d bunnies, 960x540, %s, %v warm-up, %v measured, mean of %d rounds\n", o.size, o.size, rate, o.warm, o.measure, o.rounds)
	fmt.Fprintf(stdout, "device: %s\n", device)
	fmt.Fprintf(stdout, "%8s %12s %12s %10s %8s %12s %10s\n", "sprites", "ebitengine", "metronome", "path", "ratio", "instanced", "ratio")
	for _, n := range o.counts {
		eb, me, mi := mean(fps["ebitengine"][n]), mean(fps["metronome"][n]), mean(fps["metronome-instanced"][n])
		fmt.Fprintf(stdout, "%8d %12.2f %12.2f %10s %7.2fx %12.2f %9.2fx\n", n, eb, me, paths[n], me/eb, mi, mi/eb)
	}
	return nil
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// page loads u, waits for its first frame (at most a minute), warms it and
// measures it. info is the Metronome page's draw path and device.
func page(ctx context.Context, u string, o options) (sample, string, error) {
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		return sample{}, "", err
	}
	var started bool
	for deadline := time.Now().Add(time.Minute); !started; {
		st, err := chromedp.Run(ctx, chromedp.Evaluate[progress](`({frames: bench.frames, error: bench.error || ""})`))
		if err != nil {
			return sample{}, "", err
		}
		if st.Error != "" {
			return sample{}, "", errors.New(st.Error)
		}
		if started = st.Frames > 0; !started {
			if time.Now().After(deadline) {
				return sample{}, "", errors.New("no frame drawn within a minute of loading")
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	time.Sleep(o.warm)
	read := func() (sample, error) {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[progress](`({frames: bench.frames, ms: performance.now()})`))
		return sample{s.Frames, s.Ms}, err
	}
	a, err := read()
	if err != nil {
		return sample{}, "", err
	}
	time.Sleep(o.measure)
	b, err := read()
	if err != nil {
		return sample{}, "", err
	}
	info, err := chromedp.Run(ctx, chromedp.Evaluate[string](`bench.path ? bench.path + " " + bench.device + " (WarmUp " + Math.round(bench.warmMs) + " ms)" : ""`))
	if err != nil {
		return sample{}, "", err
	}
	return sample{b.frames - a.frames, b.ms - a.ms}, info, nil
}
