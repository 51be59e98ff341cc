package frameworktest_test

import (
	"errors"
	"image"
	"image/color"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/schedule"
)

// player is a component: speed in world units per second and a shot cooldown.
type player struct {
	Speed    float32
	Cooldown schedule.Cooldown
	Shots    int
}

// testGame moves the player right while "right" is held and fires at most
// once every 30 ticks while "fire" is pressed.
func testGame(right, fire *input.Action) framework.Game {
	return framework.Game{
		Title: "test",
		Seed:  7,
		Setup: func(s *framework.Setup) error {
			var err error
			if *right, err = s.Actions.RegisterNames("right", "Right", "D"); err != nil {
				return err
			}
			if *fire, err = s.Actions.RegisterNames("fire", "Space"); err != nil {
				return err
			}
			img := image.NewRGBA(image.Rect(0, 0, 8, 8))
			for i := range img.Pix {
				img.Pix[i] = 0xff
			}
			img.Set(0, 0, color.RGBA{255, 0, 0, 255})
			hero, err := s.Assets.AddImage("hero", img)
			if err != nil {
				return err
			}
			if err := s.Upload(); err != nil {
				return err
			}
			region, err := s.Assets.Region(hero)
			if err != nil {
				return err
			}
			players := ecs.NewFilter2[ecs.Transform, player](s.App.World())
			s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Context) {
				p := ctx.Commands.Spawn()
				ecs.With(p, ecs.At(100, 100))
				ecs.With(p, ecs.SpriteOf(region))
				ecs.With(p, player{Speed: 60})
			}})
			s.App.AddSystem(ecs.Update, ecs.System{Name: "control", Run: func(ctx *ecs.Context) {
				q := players.Query()
				for q.Next() {
					t, pl := q.Get()
					if ctx.Input == nil {
						continue
					}
					t.Position.X += pl.Speed * float32(ctx.Input.SimulationSeconds(*right, ctx.Delta()))
					if ctx.Input.Pressed(*fire) && pl.Cooldown.Use(ctx.Time.Number, 30) {
						pl.Shots++
					}
				}
			}})
			return nil
		},
	}
}

func TestSimulationMovesAndCoolsDown(t *testing.T) {
	var right, fire input.Action
	cfg := config.Default()
	if err := cfg.Set("timing.mode=fixed"); err != nil {
		t.Fatal(err)
	}
	sim, err := frameworktest.New(testGame(&right, &fire), frameworktest.Options{Config: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	// Hold Right for exactly one second, and tap Space three times: the
	// second tap falls inside the cooldown.
	sim.Input.Press(sim.At(100*time.Millisecond), input.KeyRight)
	sim.Input.Release(sim.At(1100*time.Millisecond), input.KeyRight)
	for _, at := range []time.Duration{200, 400, 900} {
		sim.Input.Tap(sim.At(at*time.Millisecond), input.KeySpace, 20*time.Millisecond)
	}
	if err := sim.RunTicks(90); err != nil {
		t.Fatal(err)
	}
	if sim.Ticks() != 90 {
		t.Fatalf("ticks: got %d, want 90", sim.Ticks())
	}
	players := ecs.NewFilter2[ecs.Transform, player](sim.App.World())
	q := players.Query()
	n := 0
	for q.Next() {
		tr, pl := q.Get()
		n++
		// One second at 60 units per second, measured from real input
		// time, whatever the tick boundaries.
		if got := tr.Position.X; got < 159.9 || got > 160.1 {
			t.Errorf("player x: got %v, want 160", got)
		}
		if pl.Shots != 2 {
			t.Errorf("shots: got %d, want 2 (the 400 ms tap is inside the 30-tick cooldown)", pl.Shots)
		}
	}
	if n != 1 {
		t.Fatalf("players: got %d, want 1", n)
	}
	last := sim.LastFrame()
	if last == nil || len(last.Passes) == 0 || len(last.Passes[0].Packets) != 1 {
		t.Fatalf("last frame: %+v, want one pass with the player's sprite", last)
	}
	if sim.Presents() == 0 {
		t.Error("nothing was presented")
	}
	if err := sim.RunTicks(1); !errors.Is(err, frameworktest.ErrEnded) {
		t.Errorf("RunTicks after the session ended: got %v, want ErrEnded", err)
	}
}

func TestSimulationSetupErrorStillCleansUp(t *testing.T) {
	g := framework.Game{Setup: func(s *framework.Setup) error {
		_, err := s.Actions.RegisterNames("jump", "Spcae")
		return err
	}}
	sim, err := frameworktest.New(g, frameworktest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = sim.RunTicks(5)
	if err == nil {
		t.Fatal("a setup error did not fail the session")
	}
	if sim.Ticks() != 0 {
		t.Errorf("ticks after a failed setup: %d", sim.Ticks())
	}
}

func TestConfigBindingsRebind(t *testing.T) {
	var right, fire input.Action
	cfg := config.Default()
	if err := cfg.Set("input.bindings.right=L"); err != nil {
		t.Fatal(err)
	}
	sim, err := frameworktest.New(testGame(&right, &fire), frameworktest.Options{Config: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	sim.Input.Press(sim.At(0), input.KeyL)
	if err := sim.RunTicks(60); err != nil {
		t.Fatal(err)
	}
	q := ecs.NewFilter2[ecs.Transform, player](sim.App.World()).Query()
	for q.Next() {
		if tr, _ := q.Get(); tr.Position.X < 150 {
			t.Errorf("x = %v: the configured binding L did not move the player", tr.Position.X)
		}
	}
}
