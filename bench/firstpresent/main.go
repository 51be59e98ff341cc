//go:build !js

// Command firstpresent measures a game's page load to first present: it
// builds cmd/webgame, has it build and serve the game (Breakout by
// default) on loopback with the test hook, and loads the page in headless
// chromium (the browser tests' flags) -loads times, reading when the
// first frame was presented (the hook's metronome.firstPresentMs, on the
// page's performance.now() clock, whose origin is the start of the
// navigation). A cold load is a first visit: a browser with a fresh
// profile, so nothing of the game is cached (neither its files nor the
// browser's compiled code). By default that browser is already running,
// as a player's is when they follow a link to the game (it has shown a
// blank page); -browser fresh makes the game's page the browser's first,
// which adds the browser's own start-up work to the load. -cold N makes N
// cold loads, each in a new browser; the last browser then reloads the
// page (-loads in all) as a returning player does. -quiet L waits before
// each cold load for the one-minute load average to fall below L, for the
// figure of a quiet machine. It prints each load, split into its phases
// (the page's and the program's performance marks, see internal/pagemark),
// and a summary:
//
//	cd bench && go run ./firstpresent [-game ./examples/breakout] [-cold 5 -quiet 1] [-loads 5]
package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/bench/internal/headless"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("firstpresent", flag.ContinueOnError)
	fl.SetOutput(stderr)
	game := fl.String("game", "./examples/breakout", "the game's directory, relative to the repository's root")
	loads := fl.Int("loads", 5, "page loads (1 to 50): the first cold, the rest reloads")
	colds := fl.Int("cold", 1, "cold loads (1 to 20), each in a browser with a fresh profile; the reloads follow the last")
	browser := fl.String("browser", "running", "running: the browser has shown a blank page before the game's (a player's open browser); fresh: the game's page is the browser's first")
	quiet := fl.Float64("quiet", 0, "before each cold load, wait (up to 3 minutes) for the one-minute load average to fall below this; 0 does not wait")
	all := fl.Bool("marks", false, "also print every performance mark of each load, in order, to find what a phase waits on")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *loads < 1 || *loads > 50 {
		fmt.Fprintf(stderr, "firstpresent: -loads %d: want 1 to 50\n", *loads)
		return 2
	}
	if *colds < 1 || *colds > 20 {
		fmt.Fprintf(stderr, "firstpresent: -cold %d: want 1 to 20\n", *colds)
		return 2
	}
	if *browser != "running" && *browser != "fresh" {
		fmt.Fprintf(stderr, "firstpresent: -browser %q: want running or fresh\n", *browser)
		return 2
	}
	if *quiet < 0 {
		fmt.Fprintf(stderr, "firstpresent: -quiet %v: want 0 (no wait) or a load average above 0\n", *quiet)
		return 2
	}
	if err := measure(*game, *loads, *colds, *browser, *quiet, *all, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "firstpresent:", err)
		return 1
	}
	return 0
}

func measure(game string, loads, colds int, browser string, quiet float64, all bool, stdout, stderr io.Writer) error {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "go.mod") {
		return fmt.Errorf("go env GOMOD: %q %v: run it inside the bench module", out, err)
	}
	root := filepath.Dir(filepath.Dir(strings.TrimSpace(string(out)))) // bench's parent
	dir, err := os.MkdirTemp("", "firstpresent")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	webgame := filepath.Join(dir, "webgame")
	build := exec.Command("go", "build", "-o", webgame, "./cmd/webgame")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building cmd/webgame: %v\n%s", err, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := exec.CommandContext(ctx, webgame, "--addr", "127.0.0.1:0", "--tags", "metronome_testhook", game)
	srv.Dir = root
	srv.Stderr = stderr
	pipe, err := srv.StdoutPipe()
	if err != nil {
		return err
	}
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() { cancel(); srv.Wait() }()
	url, size := "", ""
	sc := bufio.NewScanner(pipe)
	for url == "" && sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "game.wasm:") {
			size = strings.TrimPrefix(line, "game.wasm: ")
		}
		if rest, ok := strings.CutPrefix(line, "serving on "); ok {
			url, _, _ = strings.Cut(rest, " ")
		}
	}
	if url == "" {
		return errors.New("cmd/webgame ended without serving the game")
	}
	go io.Copy(io.Discard, pipe)
	var cold, reloads []float64
	for c := range colds {
		if quiet > 0 {
			waitQuiet(quiet, stderr)
		}
		last := c == colds-1
		n := 1
		if last {
			n = loads
		}
		ms, err := session(ctx, url, filepath.Join(dir, fmt.Sprintf("profile%d", c)), browser, n, all, stdout)
		if err != nil {
			return err
		}
		cold = append(cold, ms[0])
		reloads = append(reloads, ms[1:]...)
	}
	fmt.Fprintf(stdout, "%s (game.wasm %s), headless chromium (%s browser), served by cmd/webgame on loopback: cold %s", game, size, browser, summary(cold))
	if len(reloads) > 0 {
		fmt.Fprintf(stdout, ", reloads %s", summary(reloads))
	}
	fmt.Fprintln(stdout)
	return nil
}

// summary is one figure, or the median of several with their range.
func summary(ms []float64) string {
	if len(ms) == 1 {
		return fmt.Sprintf("%.0f ms", ms[0])
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	return fmt.Sprintf("median %.0f ms (min %.0f, max %.0f, %d loads)", s[len(s)/2], s[0], s[len(s)-1], len(s))
}

// session starts a browser with a fresh profile and loads the page loads
// times, the first cold and the rest reloads, printing each. In a
// "running" browser the game's page is not the browser's first: it has
// shown a blank page and finished its own start (settle), as a player's
// browser is open before the player follows a link to the game.
func session(ctx context.Context, url, profile, browser string, loads int, all bool, stdout io.Writer) ([]float64, error) {
	bctx, stop, err := headless.Start(ctx, profile)
	if err != nil {
		return nil, err
	}
	defer stop()
	if browser == "running" {
		if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
			return nil, err
		}
		fmt.Fprintf(stdout, "(the browser settled in %.1f s)\n", settle(profile).Seconds())
	}
	var ms []float64
	for i := range loads {
		if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
			return nil, err
		}
		var first float64
		for deadline := time.Now().Add(2 * time.Minute); first == 0; {
			v, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`(globalThis.metronome && metronome.firstPresentMs) || 0`))
			if err != nil {
				return nil, err
			}
			if first = v; first == 0 {
				if time.Now().After(deadline) {
					return nil, fmt.Errorf("load %d: no present within 2 minutes", i+1)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		kind := "reload"
		if i == 0 {
			kind = "cold"
		}
		marks, err := chromedp.Run(bctx, chromedp.Evaluate[map[string]float64](phasesJS))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(stdout, "load %d (%s, load average %s): first present %.0f ms after navigation start\n  %s\n", i+1, kind, loadavg(), first, breakdown(marks, first))
		if all {
			fmt.Fprintf(stdout, "  marks: %s\n", listMarks(marks))
		}
		ms = append(ms, first)
	}
	return ms, nil
}

// settle waits, up to 20 seconds (it returns how long), until the browser running with the
// profile has finished starting: until its processes use under a tenth
// of a core over half a second. A browser with a fresh profile goes on
// working for seconds after its first page has loaded (it prepares its
// own WebUI pages, such as the address bar's popup, in a renderer), and
// a page loaded meanwhile shares the machine with that work.
func settle(profile string) time.Duration {
	const window = 500 * time.Millisecond
	start := time.Now()
	prev := browserCPU(profile)
	for time.Since(start) < 20*time.Second {
		time.Sleep(window)
		cur := browserCPU(profile)
		if cur-prev < window/10 {
			break
		}
		prev = cur
	}
	return time.Since(start)
}

// browserCPU is the processor time used so far by the processes whose
// command line names the profile (on Linux; 0 elsewhere).
func browserCPU(profile string) time.Duration {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var ticks int64
	for _, d := range dirs {
		cmd, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !strings.Contains(string(cmd), profile) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 12 {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			k, _ := strconv.ParseInt(f[12], 10, 64)
			ticks += u + k
		}
	}
	return time.Duration(ticks) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}

// waitQuiet waits, up to three minutes, for the one-minute load average
// to fall below limit: the measure is of a quiet machine.
func waitQuiet(limit float64, stderr io.Writer) {
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(2 * time.Second) {
		l, err := strconv.ParseFloat(loadavg(), 64)
		if err != nil || l < limit {
			return
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(stderr, "firstpresent: the load average is still %.2f after 3 minutes; measuring anyway\n", l)
			return
		}
	}
}

// phasesJS reads the start's marks (cmd/webgame's page and the
// framework's internal/pagemark) and the module's resource timing, all
// on the page's performance.now() clock.
const phasesJS = `(() => {
	const m = {};
	for (const e of performance.getEntriesByType("mark")) { if (!(e.name in m)) { m[e.name] = e.startTime; } }
	const r = performance.getEntriesByName(new URL("game.wasm", location.href).href)[0];
	if (r) { m["wasm:responseStart"] = r.responseStart; m["wasm:responseEnd"] = r.responseEnd; m["wasm:bytes"] = r.transferSize; }
	// How many animation frames the page saw while the module loaded: the
	// platform waits for the rest of six before the first present.
	if (globalThis.metronomeRefresh) { m["page refresh intervals"] = metronomeRefresh.intervals; }
	return m;
})()`

// phases are the start's parts, each from one mark to the next.
var phases = []struct{ name, from, to string }{
	{"page", "", "metronome:fetch"},                           // the page and wasm_exec.js load
	{"fetch", "metronome:fetch", "wasm:responseEnd"},          // the module's bytes arrive (compiling as they stream)
	{"compile", "wasm:responseEnd", "metronome:compiled"},     // compiling and instantiating after the last byte
	{"go init", "metronome:run", "metronome:main"},            // the Go runtime and package initialisation
	{"config", "metronome:main", "metronome:setup"},           // flags, configuration, runtime and session
	{"setup", "metronome:setup", "metronome:setup-end"},       // the game's Setup: its assets decoded
	{"sound", "metronome:setup-end", "metronome:canvas"},      // the sound device (the first AudioContext starts the browser's audio service)
	{"canvas+GL", "metronome:canvas", "metronome:window-end"}, // canvas, WebGL2, the renderer's programs and their warm-up
	{"first frame", "metronome:window-end", "first present"},  // ticks, upload, the first frame drawn and presented
}

// breakdown writes the phases of one load; a missing mark (an older page)
// shows as "?".
func breakdown(marks map[string]float64, first float64) string {
	marks["first present"] = first
	var b strings.Builder
	for i, p := range phases {
		if i > 0 {
			b.WriteString(", ")
		}
		from, ok1 := marks[p.from]
		to, ok2 := marks[p.to]
		if p.from == "" {
			from, ok1 = 0, true
		}
		if !ok1 || !ok2 {
			fmt.Fprintf(&b, "%s ?", p.name)
			continue
		}
		fmt.Fprintf(&b, "%s %.0f", p.name, to-from)
	}
	b.WriteString(" ms")
	if n, ok := marks["wasm:bytes"]; ok {
		fmt.Fprintf(&b, " (%.2f MB over the wire)", n/1e6)
	}
	return b.String()
}

// listMarks writes every mark in the order of its time, each with its
// time after navigation start and the step from the one before.
func listMarks(marks map[string]float64) string {
	names := slices.Collect(maps.Keys(marks))
	names = slices.DeleteFunc(names, func(n string) bool { return n == "wasm:bytes" || n == "page refresh intervals" })
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(marks[a], marks[b]) })
	var b strings.Builder
	if n, ok := marks["page refresh intervals"]; ok {
		fmt.Fprintf(&b, "(the page saw %.0f animation frame intervals) ", n)
	}
	prev := 0.0
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %.0f (+%.0f)", n, marks[n], marks[n]-prev)
		prev = marks[n]
	}
	return b.String()
}

// loadavg is the machine's one-minute load average, for the figure's
// context: the browser shares the machine with whatever else runs.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "unknown"
	}
	return f[0]
}
