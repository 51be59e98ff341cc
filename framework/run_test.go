package framework_test

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/runtime"
)

func TestRunHeadlessWindow(t *testing.T) {
	testdisplay.Require(t)
	for _, mode := range []string{"sequential", "concurrent"} {
		t.Run(mode, func(t *testing.T) {
			cfg := config.Default()
			for _, s := range []string{"window.headless=true", "window.vsync=false", "runtime.mode=" + mode, "timing.mode=fixed"} {
				if err := cfg.Set(s); err != nil {
					t.Fatal(err)
				}
			}
			var rt *runtime.GameRuntime
			var err error
			shot := filepath.Join(t.TempDir(), "shot.png")
			testdisplay.OnMain(func() {
				err = framework.Run(spriteGame(), cfg, framework.RunOptions{
					Frames:     60,
					Started:    func(r *runtime.GameRuntime) error { rt = r; return nil },
					Screenshot: shot,
				})
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if rt == nil {
				t.Fatal("Started was not called")
			}
			st := rt.Stats()
			if st.FramesPresented < 60 || st.Updates == 0 {
				t.Errorf("stats after the run: %+v, want at least 60 frames presented and some updates", st)
			}
			if snap := rt.Lifecycle().Snapshot(); snap.Err != nil {
				t.Errorf("lifecycle outcome: %+v", snap)
			}
			// The screenshot shows the white 8x8 sprite at (10, 10) on the
			// window's background.
			f, err := os.Open(shot)
			if err != nil {
				t.Fatalf("screenshot: %v", err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatalf("screenshot: %v", err)
			}
			if b := img.Bounds(); b.Dx() != cfg.Window.Width || b.Dy() != cfg.Window.Height {
				t.Errorf("screenshot is %v, want the %dx%d window", b, cfg.Window.Width, cfg.Window.Height)
			}
			if r, g, b, _ := img.At(13, 13).RGBA(); r>>8 < 250 || g>>8 < 250 || b>>8 < 250 {
				t.Errorf("screenshot pixel inside the sprite: %d,%d,%d; want white", r>>8, g>>8, b>>8)
			}
		})
	}
}

// TestTicksFlag runs a headless window with --ticks through MainStatus, in
// both run modes: exactly that many updates run, whatever the number of
// presents, which an uncapped headless window makes as fast as it can
// (issue 28: --frames 900 ended after 73 ticks).
func TestTicksFlag(t *testing.T) {
	testdisplay.Require(t)
	for _, mode := range []string{"sequential", "concurrent"} {
		t.Run(mode, func(t *testing.T) {
			var updates, last uint64
			g := spriteGame()
			setup := g.Setup
			g.Setup = func(s *framework.Setup) error {
				s.App.AddSystem(ecs.Update, ecs.System{Name: "count", Run: func(ctx *ecs.Context) {
					updates++
					last = ctx.Time.Number
				}})
				return setup(s)
			}
			args := []string{"--headless", "--ticks", "45", "--set", "window.vsync=false", "--set", "audio.enabled=false",
				"--set", "timing.mode=fixed", "--set", "timing.rate=240", "--set", "runtime.mode=" + mode}
			var status int
			var stderr bytes.Buffer
			testdisplay.OnMain(func() { status = framework.MainStatus(g, args, io.Discard, &stderr) })
			if status != 0 {
				t.Fatalf("status %d: %s", status, stderr.String())
			}
			if updates != 45 || last != 44 {
				t.Errorf("--ticks 45: %d updates, the last numbered %d; want 45, the last 44", updates, last)
			}
		})
	}
}

// spriteGame draws one untextured sprite moving right.
func spriteGame() framework.Game {
	return framework.Game{Title: "sprite", Setup: func(s *framework.Setup) error {
		if _, err := s.Actions.RegisterNames("fire", "Space"); err != nil {
			return err
		}
		s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Context) {
			e := ctx.Commands.Spawn()
			ecs.With(e, ecs.At(10, 10))
			ecs.With(e, ecs.Sprite{Size: geom.Vec2{X: 8, Y: 8}})
		}})
		return nil
	}}
}

func TestMainFlagsAndConfigErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("[timing]\nmode = \"fixd\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"--frames=-1"}, 2, "--frames -1"},
		{[]string{"--ticks=-1"}, 2, `invalid value "-1" for flag -ticks`},
		{[]string{"--replay", "x.rec", "--ticks", "3"}, 2, "--replay-until N"},
		{[]string{"--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"--config", filepath.Join(dir, "missing.toml")}, 1, "missing.toml does not exist"},
		{[]string{"--config", bad}, 1, `bad.toml: timing.mode = "fixd"`},
		{[]string{"--set", "timing.step=soon"}, 1, "command line: timing.step = soon"},
		{[]string{"--set", "polling.delivery=timestamped"}, 1, "needs fixed steps"},
		{[]string{"--synctest=-1"}, 2, "--synctest -1: want 0 (off) or 1..64"},
		{[]string{"--synctest=65"}, 2, "--synctest 65"},
		{[]string{"--synctest=2", "--replay", "x.rec"}, 2, "a sync-test runs the game, not a replay"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		got := framework.MainStatus(framework.Game{}, tt.args, io.Discard, &stderr)
		if got != tt.status || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("args %q: status %d, stderr %q; want status %d and %q", tt.args, got, stderr.String(), tt.status, tt.want)
		}
	}
}

// settings is a game's own [game] table.
type settings struct {
	Lives      int    `toml:"lives" range:"1,9"`
	Difficulty string `choice:"easy,normal,hard"`
}

// TestConfigLayersAndPrintConfig: a game's embedded config.toml overrides
// the defaults, a file and --set override it, the [game] table reaches the
// game's settings struct with the framework's strictness, and
// --print-config says where each value came from without opening a window
// (issue 17 items 1 and 2).
func TestConfigLayersAndPrintConfig(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "player.toml")
	if err := os.WriteFile(file, []byte("[game]\nlives = 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	game := func(s *settings) framework.Game {
		return framework.Game{
			Config:   []byte("[timing]\nmode = \"fixed\"\n\n[game]\ndifficulty = \"hard\"\n"),
			Settings: s,
		}
	}
	s := settings{Lives: 3, Difficulty: "normal"}
	var stdout, stderr bytes.Buffer
	status := framework.MainStatus(game(&s), []string{"--config", file, "--set", "timing.rate=120", "--print-config"}, &stdout, &stderr)
	if status != 0 {
		t.Fatalf("--print-config: status %d, stderr %q", status, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{`mode = "fixed"`, "embedded config.toml", "rate = 120", "command line", "lives = 5", file, `difficulty = "hard"`} {
		if !strings.Contains(out, want) {
			t.Errorf("--print-config output lacks %q:\n%s", want, out)
		}
	}
	if s.Lives != 5 || s.Difficulty != "hard" {
		t.Errorf("settings after loading: %+v, want lives 5 (the file) and difficulty hard (embedded)", s)
	}
	// The [game] table is as strict as the framework's own keys.
	tests := []struct {
		set, want string
	}{
		{"game.lives=12", "game.lives"},
		{"game.difficulty=insane", `"easy", "normal", "hard"`},
		{"game.livs=2", "did you mean game.lives?"},
	}
	for _, tt := range tests {
		stderr.Reset()
		s := settings{Lives: 3, Difficulty: "normal"}
		if got := framework.MainStatus(game(&s), []string{"--set", tt.set, "--print-config"}, io.Discard, &stderr); got != 1 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("--set %s: status %d, stderr %q; want 1 and %q", tt.set, got, stderr.String(), tt.want)
		}
	}
}

// TestBindingToUnknownActionFails: a binding for an action the game never
// registered stops the session with a suggestion instead of being ignored
// (issue 17 item 3), right after the game's Setup: frameworktest.New
// fails (it used to succeed and the first Step failed).
func TestBindingToUnknownActionFails(t *testing.T) {
	cfg := config.Default()
	if err := cfg.Set("input.bindings.lanch=Space"); err != nil {
		t.Fatal(err)
	}
	g := framework.Game{Setup: func(s *framework.Setup) error {
		_, err := s.Actions.RegisterNames("launch", "Enter")
		return err
	}}
	sim, err := frameworktest.New(g, frameworktest.Options{Config: &cfg})
	if sim != nil || err == nil || !strings.Contains(err.Error(), "lanch") || !strings.Contains(err.Error(), `"launch"`) {
		t.Fatalf("New: got %v, %v; want no Sim and an error naming lanch and suggesting launch", sim, err)
	}
}

// TestRecordInWindowReplayHeadless records a windowed session (Xvfb) with
// --record and replays it with --replay: headless, no window, every world
// hash checked, as fast as the CPU allows.
func TestRecordInWindowReplayHeadless(t *testing.T) {
	testdisplay.Require(t)
	path := filepath.Join(t.TempDir(), "run.rec")
	cfg := config.Default()
	for _, s := range []string{"window.headless=true", "window.vsync=false", "timing.mode=fixed"} {
		if err := cfg.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	testdisplay.OnMain(func() {
		err = framework.Run(spriteGame(), cfg, framework.RunOptions{Frames: 90, Record: path})
	})
	if err != nil {
		t.Fatalf("Run --record: %v", err)
	}
	var stdout, stderr bytes.Buffer
	if status := framework.MainStatus(spriteGame(), []string{"--replay", path}, &stdout, &stderr); status != 0 {
		t.Fatalf("--replay: status %d, stderr %q", status, stderr.String())
	}
	if !strings.Contains(stdout.String(), "replayed ") {
		t.Errorf("--replay printed %q, want the replay's result line", stdout.String())
	}
	if status := framework.MainStatus(spriteGame(), []string{"--replay", path, "--screenshot", "x.png"}, io.Discard, &stderr); status != 1 || !strings.Contains(stderr.String(), "--window") {
		t.Errorf("--replay with --screenshot and no window: status %d, stderr %q; want 1 and advice to add --window", status, stderr.String())
	}
}

// TestWorkerKeys: runtime.workers and runtime.settle_timeout reach the
// runtime the framework builds, come from --set like any key, show in
// --print-config with their source, and are refused outside the runtime's
// own ranges (issue 19).
func TestWorkerKeys(t *testing.T) {
	g := framework.Game{Setup: func(s *framework.Setup) error {
		// A job on the session's pool, so the pool is the one in use.
		done := make(chan struct{})
		if err := s.Runtime.Workers().Group("probe").Submit(runtime.JobFunc(func(context.Context) { close(done) })); err != nil {
			return err
		}
		<-done
		return nil
	}}
	sim, err := frameworktest.New(g, frameworktest.Options{Sets: []string{"runtime.workers=3", "runtime.settle_timeout=2s"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.RunTicks(2); err != nil {
		t.Fatal(err)
	}
	if got := sim.Runtime.Workers().Pool().Capacity(); got != 3 {
		t.Errorf("worker pool capacity %d, want runtime.workers = 3", got)
	}
	if got := sim.Runtime.Options().Execution.SettleTimeout; got != 2*time.Second {
		t.Errorf("settle timeout %v, want runtime.settle_timeout = 2s", got)
	}

	var stdout, stderr bytes.Buffer
	if status := framework.MainStatus(framework.Game{}, []string{"--set", "runtime.workers=3", "--print-config"}, &stdout, &stderr); status != 0 {
		t.Fatalf("--print-config: status %d, stderr %q", status, stderr.String())
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^workers = 3 +# command line$`),
		regexp.MustCompile(`(?m)^settle_timeout = "0s" +# default$`),
	} {
		if !want.MatchString(stdout.String()) {
			t.Errorf("--print-config output does not match %s:\n%s", want, stdout.String())
		}
	}
	tests := []struct{ set, want string }{
		{"runtime.workers=1025", "runtime.workers = 1025: out of range; allowed: 0 (GOMAXPROCS) to 1024"},
		{"runtime.settle_timeout=2m", "runtime.settle_timeout = 2m: out of range; allowed: 0 (no limit) to 1m0s"},
	}
	for _, tt := range tests {
		stderr.Reset()
		if status := framework.MainStatus(framework.Game{}, []string{"--set", tt.set, "--print-config"}, io.Discard, &stderr); status != 1 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("--set %s: status %d, stderr %q; want 1 and %q", tt.set, status, stderr.String(), tt.want)
		}
	}
}
