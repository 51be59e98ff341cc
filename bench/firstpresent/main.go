//go:build !js

// Command firstpresent measures a game's page load to first present: it
// builds cmd/webgame, has it build and serve the game (Breakout by
// default) on loopback with the test hook, and loads the page in headless
// chromium (the browser tests' flags) -loads times, reading when the
// first frame was presented (the hook's metronome.firstPresentMs, on the
// page's performance.now() clock, whose origin is the start of the
// navigation). The first load is cold (fresh profile: the module is
// fetched and compiled); the later ones reload it as a returning player
// does. It prints each load and a summary:
//
//	cd bench && go run ./firstpresent [-game ./examples/breakout] [-loads 5]
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *loads < 1 || *loads > 50 {
		fmt.Fprintf(stderr, "firstpresent: -loads %d: want 1 to 50\n", *loads)
		return 2
	}
	if err := measure(*game, *loads, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "firstpresent:", err)
		return 1
	}
	return 0
}

func measure(game string, loads int, stdout, stderr io.Writer) error {
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
	bctx, stop, err := headless.Start(ctx, filepath.Join(dir, "profile"))
	if err != nil {
		return err
	}
	defer stop()
	var ms []float64
	for i := range loads {
		if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
			return err
		}
		var first float64
		for deadline := time.Now().Add(2 * time.Minute); first == 0; {
			v, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`(globalThis.metronome && metronome.firstPresentMs) || 0`))
			if err != nil {
				return err
			}
			if first = v; first == 0 {
				if time.Now().After(deadline) {
					return fmt.Errorf("load %d: no present within 2 minutes", i+1)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		kind := "reload"
		if i == 0 {
			kind = "cold"
		}
		fetched, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`(performance.getEntriesByName(new URL("game.wasm", location.href).href)[0] || {responseEnd: 0}).responseEnd`))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "load %d (%s): first present %.0f ms after navigation start (game.wasm fetched at %.0f ms)\n", i+1, kind, first, fetched)
		ms = append(ms, first)
	}
	fmt.Fprintf(stdout, "%s (game.wasm %s), headless chromium, served by cmd/webgame on loopback: cold %.0f ms", game, size, ms[0])
	if len(ms) > 1 {
		re := slices.Clone(ms[1:])
		slices.Sort(re)
		fmt.Fprintf(stdout, ", reloads median %.0f ms (min %.0f, max %.0f)", re[len(re)/2], re[0], re[len(re)-1])
	}
	fmt.Fprintln(stdout)
	return nil
}
