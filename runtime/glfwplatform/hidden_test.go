package glfwplatform_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/glfwplatform"
	"github.com/metronome-go/metronome/timing"
)

// hiddenGame hides its window through the platform dispatcher after 20
// updates and stops one second later, recording the counters at both ends
// of the hidden second.
type hiddenGame struct {
	runtime.Base
	rt         *runtime.GameRuntime
	display    *glfwplatform.Display
	updates    int
	hiddenAt   timing.Instant
	start, end runtime.Stats
	span       time.Duration
	hidden     atomic.Int64 // instant the platform hid the window
	// pacing is the telemetry's pacing interval at the end of the hidden
	// second.
	pacing time.Duration
	sim    *runtime.Simulation
}

func (g *hiddenGame) InitSimulation(sim *runtime.Simulation) error {
	g.sim = sim
	return nil
}

func (g *hiddenGame) Update(t *runtime.TickContext) error {
	g.updates++
	now := timing.Now()
	switch {
	case g.updates == 20:
		g.sim.Dispatcher.Do(func() error {
			g.display.Hide()
			g.hidden.Store(int64(timing.Now()))
			return nil
		})
	case g.hiddenAt == 0:
		// Start measuring well after the platform hid the window and
		// noticed it at its next poll.
		if h := g.hidden.Load(); h != 0 && time.Duration(now-timing.Instant(h)) > 200*time.Millisecond {
			g.hiddenAt, g.start = now, g.rt.Stats()
		}
	case time.Duration(now-g.hiddenAt) >= time.Second:
		g.end, g.span = g.rt.Stats(), time.Duration(now-g.hiddenAt)
		g.pacing = g.rt.Telemetry().PacingInterval
		return t.RequestStop()
	}
	return nil
}

// TestHiddenWindowRate hides a real window and checks that the runtime
// presents nothing, slows to about 10 Hz and reports the hidden interval as
// its pacing interval. Only upper bounds are checked on rates, so a slow
// machine cannot fail it.
func TestHiddenWindowRate(t *testing.T) {
	testdisplay.Require(t)
	for _, mode := range []runtime.Mode{runtime.Sequential, runtime.Concurrent} {
		t.Run(mode.String(), func(t *testing.T) {
			g := &hiddenGame{}
			opts := runtime.DefaultOptions()
			opts.Mode = mode
			opts.FrameCap = time.Second / 60
			rt, display := startWindow(t, "metronome hidden", 160, 120, g, opts)
			g.rt = rt
			g.display = display
			var runErr error
			testdisplay.OnMain(func() { runErr = rt.Run() })
			if runErr != nil {
				t.Fatalf("Run: %v", runErr)
			}
			frames := g.end.FramesPresented - g.start.FramesPresented
			updates := g.end.Updates - g.start.Updates
			perSecond := float64(updates) / g.span.Seconds()
			t.Logf("hidden for %v: %d updates (%.1f/s), %d frames presented", g.span, updates, perSecond, frames)
			if frames != 0 {
				t.Errorf("frames presented while hidden: got %d, want 0", frames)
			}
			if g.pacing != runtime.DefaultHiddenInterval {
				t.Errorf("telemetry pacing interval while hidden: got %v, want %v", g.pacing, runtime.DefaultHiddenInterval)
			}
			if perSecond > 12 {
				t.Errorf("updates while hidden: %.1f per second, want at most about 10", perSecond)
			}
		})
	}
}
