package framework_test

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
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

// spriteGame draws one untextured sprite moving right.
func spriteGame() framework.Game {
	return framework.Game{Title: "sprite", Setup: func(s *framework.Setup) error {
		if _, err := s.Actions.RegisterNames("fire", "Space"); err != nil {
			return err
		}
		s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Context) {
			e := ctx.Commands.Spawn()
			ecs.With(e, ecs.At(10, 10))
			ecs.With(e, ecs.Sprite{Size: ecs.Vec2{X: 8, Y: 8}})
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
		{[]string{"--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"--config", filepath.Join(dir, "missing.toml")}, 1, "missing.toml does not exist"},
		{[]string{"--config", bad}, 1, `bad.toml: timing.mode = "fixd"`},
		{[]string{"--set", "timing.step=soon"}, 1, "command line: timing.step = soon"},
		{[]string{"--set", "polling.delivery=timestamped"}, 1, "needs fixed steps"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		got := framework.MainStatus(framework.Game{}, tt.args, &stderr)
		if got != tt.status || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("args %q: status %d, stderr %q; want status %d and %q", tt.args, got, stderr.String(), tt.status, tt.want)
		}
	}
}
