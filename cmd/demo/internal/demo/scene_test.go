package demo_test

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

const fixed60 = "timing.rate=60"

// TestLoadInjection runs each load key under the timing policies it is meant
// to tell apart and checks what the scheduler's statistics show.
func TestLoadInjection(t *testing.T) {
	tests := []struct {
		name  string
		sets  []string
		key   input.Button
		ticks int
		check func(t *testing.T, g *demo.Game, s timing.Stats)
	}{
		{"500 ms stall, drop excess lag", []string{"timing.mode=fixed", "timing.step=20ms", "timing.max_fixed_updates=2"}, input.Key2, 200,
			func(t *testing.T, g *demo.Game, s timing.Stats) {
				if _, skipped := g.CosmeticCounts(); skipped != 0 {
					t.Errorf("cosmetic skips: got %d, want 0 (no quiet ticks outside repay-debt)", skipped)
				}
				if s.Dropped < 400*time.Millisecond || s.Dropped > 520*time.Millisecond {
					t.Errorf("dropped: got %v, want about 460 ms (25 steps due, 2 run)", s.Dropped)
				}
			}},
		{"500 ms stall, variable catch-up", []string{"timing.mode=fixed", "timing.step=20ms", "timing.max_fixed_updates=2", "timing.recovery=variable-catch-up", "timing.recovery_prefix=2"}, input.Key2, 200,
			func(t *testing.T, g *demo.Game, s timing.Stats) {
				if s.Ticks[timing.CatchUpUpdate] == 0 {
					t.Error("no catch-up update ran")
				}
				if s.Dropped < 300*time.Millisecond || s.Dropped > 420*time.Millisecond {
					t.Errorf("dropped: got %v, want about 360 ms (40 ms prefix, 100 ms cap)", s.Dropped)
				}
			}},
		{"500 ms stall, repay debt", []string{"timing.mode=fixed", fixed60, "timing.max_fixed_updates=4", "timing.recovery=repay-debt", "timing.debt.gain=2", "timing.debt.max_speed_up=2"}, input.Key2, 300,
			func(t *testing.T, g *demo.Game, s timing.Stats) {
				if s.Dropped != 0 {
					t.Errorf("dropped: got %v, want nothing: the stall is repaid", s.Dropped)
				}
				if s.Debt != 0 {
					t.Errorf("debt after 5 s: got %d steps, want 0", s.Debt)
				}
				if _, skipped := g.CosmeticCounts(); skipped == 0 || s.QuietTicks == 0 {
					t.Errorf("quiet ticks: got %d, and the cosmetic system skipped %d; want both above 0 while repaying", s.QuietTicks, skipped)
				}
			}},
		{"6 s suspension, repay debt", []string{"timing.mode=fixed", fixed60, "timing.recovery=repay-debt"}, input.Key4, 200,
			func(t *testing.T, g *demo.Game, s timing.Stats) {
				if s.Suspended < 5*time.Second {
					t.Errorf("suspended: got %v, want the 6 s gap", s.Suspended)
				}
				if s.Dropped != 0 {
					t.Errorf("dropped: got %v, want 0", s.Dropped)
				}
			}},
		{"slow updates, repay debt reaches the cutoff", []string{"timing.mode=fixed", fixed60, "timing.recovery=repay-debt", "timing.debt.cutoff=500ms"}, input.Key5, 600,
			func(t *testing.T, g *demo.Game, s timing.Stats) {
				if slow, _, _ := g.LoadState(); !slow {
					t.Error("slow update is off, want on")
				}
				if s.Ledger.DroppedCutoff == 0 {
					t.Errorf("dropped past the cutoff: got 0, want some (debt %v)", s.DebtTime)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, sim := newSim(t, demo.Options{Sprites: 20}, tt.sets...)
			tap(sim, time.Second, tt.key)
			if err := sim.RunTicks(tt.ticks); err != nil {
				t.Fatal(err)
			}
			s := sim.Runtime.TimingStats()
			if _, _, stalls := g.LoadState(); tt.key <= input.Key4 && stalls != 1 {
				t.Errorf("stalls served: got %d, want 1", stalls)
			}
			tt.check(t, g, s)
			if r := g.Report(); !r.Ledger.Balanced {
				t.Errorf("ledger off by %d ns", r.Ledger.ImbalanceNS)
			}
		})
	}
}

// TestSlowRender checks that the slow-render load blocks the platform
// thread: frames come at most every 40 ms.
func TestSlowRender(t *testing.T) {
	_, sim := newSim(t, demo.Options{Sprites: 20}, "timing.mode=fixed", fixed60)
	tap(sim, 0, input.Key6)
	if err := sim.RunTicks(240); err != nil {
		t.Fatal(err)
	}
	rs := sim.Runtime.Stats()
	real := sim.Runtime.TimingStats().Ledger.Real
	fps := float64(rs.FramesPresented) / real.Seconds()
	if fps > 1/demo.DefaultSlowRender.Seconds()+1 {
		t.Errorf("frame rate under slow render: got %.1f fps, want at most %.1f", fps, 1/demo.DefaultSlowRender.Seconds())
	}
}

func TestPlayer(t *testing.T) {
	g, sim := newSim(t, demo.Options{Sprites: 0}, "timing.mode=fixed", fixed60, "timing.max_fixed_updates=4")
	// Hold D for one second: 320 px to the right.
	sim.Input.Press(sim.At(500*time.Millisecond), input.KeyD)
	sim.Input.Release(sim.At(1500*time.Millisecond), input.KeyD)
	// Two dashes 100 ms apart: the second is refused by the cooldown; a
	// third after the cooldown goes.
	tap(sim, 2*time.Second, input.KeySpace)
	tap(sim, 2100*time.Millisecond, input.KeySpace)
	tap(sim, 3500*time.Millisecond, input.KeySpace)
	// A shot lives 1.5 s.
	tap(sim, 4*time.Second, input.KeyF)
	if err := sim.RunTicks(270); err != nil { // 4.5 s
		t.Fatal(err)
	}
	pos, p, ok := g.PlayerState()
	if !ok {
		t.Fatal("no player")
	}
	if got, want := pos.X, float32(640+320); got < want-6 || got > want+6 {
		t.Errorf("player x after holding D for 1 s: got %.1f, want about %.0f", got, want)
	}
	if p.Dashes != 2 {
		t.Errorf("dashes: got %d, want 2 (the second tap is inside the cooldown)", p.Dashes)
	}
	if p.Dashing {
		t.Error("still dashing at 4.5 s, want the queue to have ended the 3.5 s dash")
	}
	if p.Shots != 1 || g.ShotCount() != 1 {
		t.Errorf("shots: got %d fired and %d alive, want 1 and 1", p.Shots, g.ShotCount())
	}
	if !strings.Contains(g.OverlayText(), "pressed F x1") {
		t.Errorf("overlay input line: got %q, want the F press", g.OverlayText())
	}
}

func TestShotExpires(t *testing.T) {
	g, sim := newSim(t, demo.Options{Sprites: 0}, "timing.mode=fixed", fixed60)
	tap(sim, 500*time.Millisecond, input.KeyF)
	if err := sim.RunTicks(150); err != nil { // 2.5 s
		t.Fatal(err)
	}
	if _, p, _ := g.PlayerState(); p.Shots != 1 || g.ShotCount() != 0 {
		t.Errorf("got %d shots fired and %d alive, want 1 fired and none left after its 1.5 s life", p.Shots, g.ShotCount())
	}
}

func TestBunnyControls(t *testing.T) {
	tests := []struct {
		name   string
		script func(sim *frameworktest.Sim)
		want   int
	}{
		{"plus adds 100", func(s *frameworktest.Sim) { tap(s, time.Second, input.KeyEqual) }, 150},
		{"plus twice adds 200", func(s *frameworktest.Sim) {
			tap(s, time.Second, input.KeyEqual)
			tap(s, 1200*time.Millisecond, input.KeyEqual)
		}, 250},
		{"minus removes 100, not below 0", func(s *frameworktest.Sim) { tap(s, time.Second, input.KeyMinus) }, 0},
		{"click adds 10", func(s *frameworktest.Sim) {
			s.Input.Cursor(s.At(900*time.Millisecond), 400, 400)
			tap(s, time.Second, input.MouseLeft)
		}, 60},
		{"right click removes 10", func(s *frameworktest.Sim) { tap(s, time.Second, input.MouseRight) }, 40},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, sim := newSim(t, demo.Options{Sprites: 50}, "timing.mode=fixed", fixed60)
			tt.script(sim)
			if err := sim.RunTicks(90); err != nil {
				t.Fatal(err)
			}
			if got := g.Bunnies(); got != tt.want {
				t.Errorf("bunnies: got %d, want %d", got, tt.want)
			}
		})
	}
}

// TestPanelKeys walks the panel with the arrow keys: the change is in force
// in the runtime at once and the overlay shows it.
func TestPanelKeys(t *testing.T) {
	g, sim := newSim(t, demo.Options{Sprites: 10}, "timing.mode=fixed", fixed60)
	for i := range 4 { // down to "recovery policy"
		tap(sim, time.Second+time.Duration(i)*100*time.Millisecond, input.KeyDown)
	}
	tap(sim, 2*time.Second, input.KeyRight)
	if err := sim.RunTicks(140); err != nil {
		t.Fatal(err)
	}
	if got, want := sim.Runtime.TimingOptions().Recovery, timing.VariableCatchUp; got != want {
		t.Errorf("recovery: got %v, want %v", got, want)
	}
	if got, want := sim.Runtime.TimingStats().Recovery, timing.VariableCatchUp; got != want {
		t.Errorf("recovery in force in the scheduler: got %v, want %v", got, want)
	}
	if p := g.Panel(); p.Selected() != 4 || !strings.Contains(p.Status(), "drop-excess-lag -> variable-catch-up") {
		t.Errorf("panel: selected %d, status %q; want row 4 and the change", p.Selected(), p.Status())
	}
	if !strings.Contains(g.OverlayText(), "variable-catch-up") {
		t.Errorf("overlay does not show the new policy:\n%s", g.OverlayText())
	}
}

func TestOverlayText(t *testing.T) {
	g, sim := newSim(t, demo.Options{Sprites: 10}, "timing.mode=fixed", fixed60, "runtime.frame_cap=60")
	tap(sim, time.Second, input.KeySpace)
	tap(sim, time.Second, input.KeyW)
	if err := sim.RunTicks(90); err != nil {
		t.Fatal(err)
	}
	text := g.OverlayText()
	for _, want := range []string{
		"presents/s ", "ticks/s ", "interpolation on", "alpha ", "judder ", "updates: variable 0, fixed ", "catch-up 0", "debt 0 steps", "rate 1.000x",
		"dropped ", "suspended 0.00 ms", "ledger balanced", "pacing lateness: median ", "p99 ",
		"publication skipped: ", "pressed Space x1 W x1", "bunnies 10",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("overlay lacks %q:\n%s", want, text)
		}
	}
}

func TestBenchMode(t *testing.T) {
	g, sim := newSim(t, demo.Options{Sprites: 300, SpriteSize: 2, Bench: true, Frames: 50}, "timing.interval=0s", "runtime.frame_cap=0")
	if err := sim.RunTicks(10000); err != nil {
		t.Fatal(err)
	}
	frames, elapsed := g.BenchResult()
	if frames != 50 || elapsed <= 0 {
		t.Errorf("bench: got %d frames in %v, want 50 frames in a positive time", frames, elapsed)
	}
	if g.OverlayText() != "" {
		t.Error("bench mode draws the overlay, want bunnies only")
	}
	if sim.Ticks() > 100 {
		t.Errorf("ticks: got %d, want the run stopped after about 55 frames", sim.Ticks())
	}
}

// TestPanelClick clicks on the panel's "recovery policy" row: a left click
// steps it forward, a right click back, and no bunnies are added.
func TestPanelClick(t *testing.T) {
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	font, err := lib.DefaultFont(14)
	if err != nil {
		t.Fatal(err)
	}
	m, err := lib.Metrics(font)
	if err != nil {
		t.Fatal(err)
	}
	// The panel sits at the top right of the 1280-pixel framebuffer: its
	// text starts 14 pixels down, the title first, then one row per line.
	const row = 4 // recovery policy
	x, y := 1100.0, 14+float64(m.LineHeight)*(row+1.5)
	g, sim := newSim(t, demo.Options{Sprites: 10}, "timing.mode=fixed", fixed60)
	sim.Input.Cursor(sim.At(900*time.Millisecond), x, y)
	tap(sim, time.Second, input.MouseLeft)
	tap(sim, 1200*time.Millisecond, input.MouseLeft)
	tap(sim, 1400*time.Millisecond, input.MouseRight)
	if err := sim.RunTicks(120); err != nil {
		t.Fatal(err)
	}
	if got, want := sim.Runtime.TimingOptions().Recovery, timing.VariableCatchUp; got != want {
		t.Errorf("recovery after two clicks forward and one back: got %v, want %v", got, want)
	}
	if got := g.Panel().Selected(); got != row {
		t.Errorf("selected row: got %d, want %d", got, row)
	}
	if got := g.Bunnies(); got != 10 {
		t.Errorf("bunnies: got %d, want 10 (clicks on the panel do not spawn)", got)
	}
}
