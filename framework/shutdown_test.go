//go:build !js

package framework_test

import (
	"errors"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/glfwplatform"
	"github.com/metronome-go/metronome/timing"
)

// saveFirst is a game that refuses ordinary shutdown requests while it has
// unsaved changes; S saves. It keeps the SetPolicy error for the test.
type saveFirst struct {
	policyErr error
	asked     int
}

func (g *saveFirst) game() framework.Game {
	return framework.Game{Title: "save first", Setup: func(s *framework.Setup) error {
		save, err := s.Actions.RegisterNames("save", "S")
		if err != nil {
			return err
		}
		unsaved := true
		g.policyErr = s.Runtime.Shutdown().SetPolicy(func(runtime.ShutdownRequest) runtime.ShutdownDecision {
			g.asked++
			if unsaved {
				return runtime.ShutdownRefuse
			}
			return runtime.ShutdownAccept
		})
		s.App.AddSystem(ecs.Update, ecs.System{Name: "save", Run: func(ctx *ecs.Sys) {
			if ctx.Input.Pressed(save) {
				unsaved = false
			}
		}})
		return g.policyErr
	}}
}

// TestShutdownPolicyFromSetup: a policy installed in Game.Setup is in
// force from the first update: the window's close button is refused while
// there are unsaved changes and accepted after a save, in both run modes
// (issue 19).
func TestShutdownPolicyFromSetup(t *testing.T) {
	for _, mode := range []string{"sequential", "concurrent"} {
		t.Run(mode, func(t *testing.T) {
			var g saveFirst
			sim, err := frameworktest.New(g.game(), frameworktest.Options{Sets: []string{"timing.mode=fixed", "timing.rate=60", "runtime.mode=" + mode}})
			if err != nil {
				t.Fatal(err)
			}
			sim.Display.RequestClose(sim.At(100 * time.Millisecond))
			sim.Input.Tap(sim.At(300*time.Millisecond), input.KeyS, 20*time.Millisecond)
			sim.Display.RequestClose(sim.At(500 * time.Millisecond))
			if err := sim.Step(20); err != nil { // to 333 ms: refused, still running
				t.Fatalf("Step: %v (the refused close ended the session?)", err)
			}
			if g.policyErr != nil {
				t.Fatalf("SetPolicy from Setup: %v", g.policyErr)
			}
			st := sim.Runtime.Shutdown().Stats()
			if want := (runtime.ShutdownStats{Requests: 1, Refused: 1}); st != want || g.asked != 1 {
				t.Errorf("after the first close: stats %+v, policy asked %d times; want %+v, asked once", st, g.asked, want)
			}
			err = sim.Step(600)
			if !errors.Is(err, frameworktest.ErrEnded) {
				t.Fatalf("second close after saving: Step = %v, want the session ended", err)
			}
			if got, want := sim.Ticks(), uint64(29); got != want { // the update at 500 ms never starts
				t.Errorf("ended after %d ticks, want %d", got, want)
			}
			st = sim.Runtime.Shutdown().Stats()
			req, ended := sim.Runtime.Shutdown().Ended()
			if want := (runtime.ShutdownStats{Requests: 2, Refused: 1, Accepted: 1}); st != want || !ended || req.Reason != runtime.ReasonWindowClose || req.Seq != 2 {
				t.Errorf("stats %+v, ended by %+v (%v); want %+v, ended by the second window close", st, req, ended, want)
			}
		})
	}
}

// TestRefusingPolicyDoesNotBlockStop: a policy that refuses everything
// never holds up a stop: a system's RequestStop and GameRuntime.Stop end
// the session without asking it.
func TestRefusingPolicyDoesNotBlockStop(t *testing.T) {
	refuse := func(asked *int) framework.Game {
		return framework.Game{Setup: func(s *framework.Setup) error {
			return s.Runtime.Shutdown().SetPolicy(func(runtime.ShutdownRequest) runtime.ShutdownDecision {
				*asked++
				return runtime.ShutdownRefuse
			})
		}}
	}
	t.Run("RequestStop", func(t *testing.T) {
		var asked int
		sim, err := frameworktest.New(refuse(&asked), frameworktest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sim.Display.RequestClose(sim.At(50 * time.Millisecond))
		if err := sim.RunTicks(30); err != nil { // RunTicks stops with the 30th update's RequestStop
			t.Fatal(err)
		}
		if sim.Ticks() != 30 || asked != 1 {
			t.Errorf("%d ticks, policy asked %d times; want 30 ticks and the one close refused", sim.Ticks(), asked)
		}
	})
	t.Run("Stop", func(t *testing.T) {
		var asked int
		sim, err := frameworktest.New(refuse(&asked), frameworktest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.Step(10); err != nil {
			t.Fatal(err)
		}
		sim.Runtime.Stop()
		if err := sim.Step(10); !errors.Is(err, frameworktest.ErrEnded) {
			t.Fatalf("Step after Stop = %v, want the session ended", err)
		}
		// The session paused between updates: none runs after the stop.
		if sim.Ticks() != 10 || asked != 0 {
			t.Errorf("%d ticks, policy asked %d times; want 10 and never asked", sim.Ticks(), asked)
		}
	})
}

// TestShutdownPolicyThroughRun: through framework.Run on a real window
// the game's Setup installs its policy before the loop starts; the
// window's close button (pressed through GLFW) is refused the first time,
// so the window stays open and frames go on, and accepted the second.
func TestShutdownPolicyThroughRun(t *testing.T) {
	testdisplay.Require(t)
	cfg := config.Default()
	for _, s := range []string{"window.headless=true", "window.vsync=false", "audio.enabled=false"} {
		if err := cfg.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	var policyErr error
	var asked []runtime.ShutdownRequest
	var adapters *runtime.Adapters
	game := framework.Game{Setup: func(s *framework.Setup) error {
		adapters = s.Adapters
		policyErr = s.Runtime.Shutdown().SetPolicy(func(req runtime.ShutdownRequest) runtime.ShutdownDecision {
			asked = append(asked, req)
			if req.Seq == 1 {
				return runtime.ShutdownRefuse // "close again to quit"
			}
			return runtime.ShutdownAccept
		})
		return policyErr
	}}
	var rt *runtime.GameRuntime
	var framesAtRefusal uint64
	var err error
	testdisplay.OnMain(func() {
		err = framework.Run(game, cfg, framework.RunOptions{RunFor: 30 * time.Second, Started: func(r *runtime.GameRuntime) error {
			rt = r
			win := adapters.Display.(*glfwplatform.Display).Window()
			win.SetShouldClose(true) // the first press, seen at the first poll
			_, err := r.Services().Attach(runtime.Maintenance, func(timing.Instant) error {
				if st := r.Shutdown().Stats(); st.Refused == 1 && st.Requests == 1 {
					if framesAtRefusal == 0 {
						framesAtRefusal = r.Stats().FramesPresented
					} else if r.Stats().FramesPresented >= framesAtRefusal+20 {
						win.SetShouldClose(true) // twenty frames later, the second press
					}
				}
				return nil
			})
			return err
		}})
	})
	if err != nil || policyErr != nil {
		t.Fatalf("Run: %v; SetPolicy from Setup: %v", err, policyErr)
	}
	if len(asked) != 2 || asked[0].Reason != runtime.ReasonWindowClose || asked[1].Reason != runtime.ReasonWindowClose {
		t.Fatalf("the policy was asked %+v; want two window closes", asked)
	}
	req, ended := rt.Shutdown().Ended()
	if st := rt.Shutdown().Stats(); st != (runtime.ShutdownStats{Requests: 2, Refused: 1, Accepted: 1}) || !ended || req.Seq != 2 {
		t.Errorf("shutdown stats %+v, ended by %+v (%v); want the second close accepted", st, req, ended)
	}
	if n := rt.Stats().FramesPresented; n < framesAtRefusal+20 {
		t.Errorf("%d frames presented, the refusal at %d; want the window open for 20 frames after it", n, framesAtRefusal)
	}
}
