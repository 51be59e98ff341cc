//go:build linux && cgo

package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/internal/browsertest"
)

// mainArgs, when set, makes the test binary the game (its arguments
// one a line): a test runs the game's own window this way, on the
// main thread a window needs.
const mainArgs = "BREAKOUT_TEST_MAIN_ARGS"

func TestMain(m *testing.M) {
	if a, ok := os.LookupEnv(mainArgs); ok {
		os.Exit(framework.MainStatus(newGame(), strings.Split(a, "\n"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// The inspector's frame of a tick, drawn by the page in headless
// chromium from the draw packets and the game's textures, against the
// game's own screenshot of that tick (the GL renderer, --replay
// --replay-until --window --headless --screenshot): at most 0.1% of the
// pixels differ by more than 48 in a channel (edges that the two sample
// and antialias differently; 18 of 518,400 when this was written), and
// the mean difference is under 1 per channel.
func TestInspectorFrameMatchesTheScreenshot(t *testing.T) {
	const until = 250
	dir := t.TempDir()
	path := filepath.Join(dir, "demo.rec")
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Record: path, Sets: []string{"game.demo=true"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.RunTicks(300); err != nil {
		t.Fatal(err)
	}

	shot := filepath.Join(dir, "shot.png")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), mainArgs+"="+strings.Join([]string{"--replay", path, "--replay-until", fmt.Sprint(until),
		"--window", "--headless", "--screenshot", shot, "--set", "audio.enabled=false"}, "\n"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the game's screenshot: %v\n%s", err, out)
	}
	want := readPNG(t, shot)

	rep, err := framework.InspectReplay(newGame(), path, inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{Name: "demo.rec"})
	if err != nil {
		t.Fatal(err)
	}
	url := browsertest.Serve(t, h)
	ctx := browsertest.Start(t, 5*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s?tick=%d", url, until-1))); err != nil {
		t.Fatal(err)
	}
	cond := fmt.Sprintf("globalThis.inspector && inspector.ready && inspector.frameTick === %d && !inspector.busy", until-1)
	waitPage(t, ctx, cond)
	url64, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("frame").toDataURL("image/png")`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(url64, "data:image/png;base64,"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("the page's frame is %v, the screenshot %v", got.Bounds(), want.Bounds())
	}
	far, sum, n := 0, 0.0, 0
	for y := want.Bounds().Min.Y; y < want.Bounds().Max.Y; y++ {
		for x := want.Bounds().Min.X; x < want.Bounds().Max.X; x++ {
			r0, g0, b0, _ := got.At(x, y).RGBA()
			r1, g1, b1, _ := want.At(x, y).RGBA()
			worst := 0
			for _, d := range [3]int{int(r0>>8) - int(r1>>8), int(g0>>8) - int(g1>>8), int(b0>>8) - int(b1>>8)} {
				sum += float64(max(d, -d))
				worst = max(worst, d, -d)
			}
			if worst > 48 {
				far++
			}
			n++
		}
	}
	mean := sum / float64(3*n)
	t.Logf("tick %d: %d of %d pixels differ by more than 48 (%.2f%%), mean difference %.2f", until-1, far, n, 100*float64(far)/float64(n), mean)
	if keep := os.Getenv("INSPECTOR_FRAME_PNG"); keep != "" { // to look at it
		if err := os.WriteFile(keep, b, 0o644); err != nil {
			t.Error(err)
		}
	}
	if float64(far) > 0.001*float64(n) || mean >= 1 {
		t.Errorf("the inspector's frame of tick %d differs from the game's screenshot: %d pixels (%.2f%%) by more than 48, mean %.2f; want at most 0.1%% and under 1",
			until-1, far, 100*float64(far)/float64(n), mean)
	}
}

// waitPage waits until cond (JavaScript) holds in the inspector's page,
// failing when the page stops making progress for a minute.
func waitPage(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	var last string
	stalled := time.Now()
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("Boolean("+cond+")"))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			return
		}
		seen, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify([globalThis.inspector?.tick, globalThis.inspector?.frameTick, globalThis.inspector?.busy, document.getElementById("msg")?.textContent])`))
		if err != nil {
			t.Fatal(err)
		}
		if seen != last {
			last, stalled = seen, time.Now()
		} else if time.Since(stalled) > time.Minute {
			t.Fatalf("waiting for %s: the page made no progress for a minute: %s", cond, seen)
		}
		_, _ = chromedp.Run(ctx, chromedp.Poll[bool]("Boolean("+cond+")", chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Second)))
	}
}

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// inspectorPNG is where TestInspectorPage writes its screenshot of the
// page: scripts/inspector-screenshot.sh sets it to docs/inspector.png.
var inspectorPNG = flag.String("inspector-png", "", "write the inspector page's screenshot to this `file`")

// The page as the README shows it, in headless chromium: a 3600-tick
// demo recording at tick 1234, the ball found by its component and
// selected, its Y graphed over the session, the frame drawn with its
// textures. With -inspector-png FILE it writes the screenshot.
func TestInspectorPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "breakout.rec")
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Record: path, Sets: []string{"game.demo=true"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.RunTicks(3600); err != nil {
		t.Fatal(err)
	}
	rep, err := framework.InspectReplay(newGame(), path, inspect.Options{KeyframeEvery: 300})
	if err != nil {
		t.Fatal(err)
	}
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{Name: "breakout.rec"})
	if err != nil {
		t.Fatal(err)
	}
	url := browsertest.Serve(t, h)
	ctx := browsertest.Start(t, 5*time.Minute, chromedp.WindowSize(1280, 1000))
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1000), chromedp.Navigate(url+"?tick=1234")); err != nil {
		t.Fatal(err)
	}
	waitPage(t, ctx, "globalThis.inspector && inspector.ready && inspector.frameTick === 1234 && !inspector.busy")
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#search"), "Ball")); err != nil {
		t.Fatal(err)
	}
	waitPage(t, ctx, `document.querySelectorAll("#entities .row").length === 1`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#entities .row"))); err != nil {
		t.Fatal(err)
	}
	leaf := `#inspector [data-path="Transform.Position.Y"]`
	waitPage(t, ctx, fmt.Sprintf(`document.querySelector('%s')`, leaf))
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(leaf))); err != nil {
		t.Fatal(err)
	}
	waitPage(t, ctx, "inspector.graphData && inspector.graphData.length === 3600 && !inspector.busy && inspector.frameTick === 1234")
	quads, err := chromedp.Run(ctx, chromedp.Evaluate[int]("inspector.frameQuads"))
	if err != nil {
		t.Fatal(err)
	}
	if quads < 10 {
		t.Errorf("the frame of tick 1234 has %d quads; want the bricks, ball, paddle and text", quads)
	}
	info, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("frameinfo").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(info, "not loaded") {
		t.Errorf("frame: %s", info)
	}
	// The game's screen (its ecs.States) on the strip and in the tick's line.
	states, err := chromedp.Run(ctx, chromedp.Evaluate[string](`inspector.stateSpans.map(s => s.states).join("; ") + " | " + document.getElementById("tickinfo").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(states, "main.Screen") || !strings.Contains(states, "state: main.Screen") {
		t.Errorf("the strip's states and the tick's line: %q, want Breakout's main.Screen in both", states)
	}
	if *inspectorPNG == "" {
		return
	}
	// The frame above the fields, in view.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelector("main section:nth-child(2)").scrollTop = 0`)); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*inspectorPNG, shot, 0o644); err != nil {
		t.Fatal(err)
	}
}
