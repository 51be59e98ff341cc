//go:build !js

package framework_test

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/runtime/glfwplatform"
)

// noDisplayAnywhere takes the display and Xvfb away from the test: with
// --headless the framework would start a private Xvfb, and there is none
// to start.
func noDisplayAnywhere(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("PATH", t.TempDir())
}

// TestBindingCheckedBeforeTheWindow: with no display and no Xvfb, a game
// whose configuration binds an action it never registered fails with the
// binding's message, not a display error (the window used to open before
// the game's Setup, so the display error came first), in a game and in a
// replay watched in a window. Its message reads as every other
// configuration error's.
func TestBindingCheckedBeforeTheWindow(t *testing.T) {
	// A recording of a version of the game that had a "jump" action,
	// bound in the recorded configuration.
	withJump := countingGame(1)
	setup := withJump.Setup
	withJump.Setup = func(s *framework.Setup) error {
		if _, err := s.Actions.RegisterNames("jump"); err != nil {
			return err
		}
		return setup(s)
	}
	path := filepath.Join(t.TempDir(), "jump.rec")
	sim, err := frameworktest.New(withJump, frameworktest.Options{Record: path, Sets: []string{"input.bindings.jump=Space"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.RunTicks(10); err != nil {
		t.Fatal(err)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}

	noDisplayAnywhere(t)
	for _, args := range [][]string{
		{"--headless", "--set", "audio.enabled=false", "--set", "input.bindings.jupm=Space", "--ticks", "1"},
		{"--replay", path, "--window", "--headless", "--set", "audio.enabled=false"},
	} {
		var stderr bytes.Buffer
		var status int
		testdisplay.OnMain(func() { status = framework.MainStatus(countingGame(1), args, io.Discard, &stderr) })
		msg := stderr.String()
		if status != 1 || !strings.Contains(msg, `["Space"]: the game registers no action "ju`) {
			t.Errorf("%q with no display: status %d, stderr %q; want 1 and the binding refused", args, status, msg)
		}
		if strings.Contains(msg, "display") || strings.Contains(msg, "Xvfb") || strings.Contains(msg, "window") {
			t.Errorf("%q with no display: stderr %q speaks of the display; want only the binding", args, msg)
		}
		// It reads as the other configuration errors do: "config: FILE:
		// KEY = VALUE: ...", one line, with no phase or program before it.
		if !strings.HasPrefix(msg, "config: ") || strings.Count(msg, "\n") != 1 {
			t.Errorf("%q: stderr %q; want one line that starts \"config: \", as every configuration error does", args, msg)
		}
	}
}

// TestSetupRunsBeforeTheWindow: Run runs the game's Setup on the window's
// stand-ins, opens the sound device and the window after it (the first
// tick sees GLFW's display), and Setup.Upload opens them early for a game
// that resolves its regions in Setup.
func TestSetupRunsBeforeTheWindow(t *testing.T) {
	testdisplay.Require(t)
	cfg := headlessConfig(t)
	if err := cfg.Set("audio.enabled=true"); err != nil {
		t.Fatal(err)
	}
	for _, upload := range []bool{false, true} {
		var dev fakeDevice
		restore := framework.SetOpenDevice(dev.open)
		var inSetup, afterUpload, atFirstTick bool
		var devInSetup int
		g := countingGame(1)
		setup := g.Setup
		g.Setup = func(s *framework.Setup) error {
			_, inSetup = s.Adapters.Display.(*glfwplatform.Display)
			devInSetup = dev.opened
			if upload {
				if err := s.Upload(); err != nil {
					return err
				}
				_, afterUpload = s.Adapters.Display.(*glfwplatform.Display)
			}
			adapters := s.Adapters
			s.App.AddSystem(ecs.Startup, ecs.System{Name: "look", Run: func(*ecs.Sys) {
				_, atFirstTick = adapters.Display.(*glfwplatform.Display)
			}})
			return setup(s)
		}
		var err error
		testdisplay.OnMain(func() {
			err = framework.Run(g, cfg, framework.RunOptions{Ticks: 2})
		})
		restore()
		if devInSetup != 0 || dev.opened != 1 {
			t.Errorf("upload %v: the sound device was opened %d times when Setup began and %d in all; want 0 and 1", upload, devInSetup, dev.opened)
		}
		if err != nil {
			t.Fatalf("upload %v: %v", upload, err)
		}
		if inSetup || afterUpload != upload || !atFirstTick {
			t.Errorf("upload %v: the window was open in Setup %v, after Setup.Upload %v, at the first tick %v; want false, %v, true",
				upload, inSetup, afterUpload, atFirstTick, upload)
		}
	}
}
