package inspect_test

import (
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/render2d"
)

// mover is the test game's component: it moves right while the action is
// held and counts its bounces off x = 300.
type mover struct {
	X, Speed float32
	Bounces  int
	dir      float32 // unexported, still shown
}

// glow is presentation-only.
type glow struct {
	ecs.PresentationOnly
	Level float32
}

// late is spawned at tick 100.
type late struct{ Born uint64 }

const testTicks = 600

// phase is the test game's state (ecs.States): early, then late from
// tick 151, later from tick 401.
type phase uint8

const (
	phaseEarly phase = iota
	phaseLate
	phaseLater
)

func (p phase) String() string { return [...]string{"early", "late", "later"}[p] }

func testGame() framework.Game { return testGameDrifting(0) }

// testGameDrifting is the test game whose move system, from tick drift on
// (when not 0), moves the mover one more unit: a build that parts from
// testGame's.
func testGameDrifting(drift uint64) framework.Game {
	var right input.Action
	return framework.Game{
		Title: "inspect test",
		Seed:  11,
		Setup: func(s *framework.Setup) error {
			var err error
			if right, err = s.Actions.RegisterNames("right", "Right"); err != nil {
				return err
			}
			movers := ecs.NewFilter1[mover](s.App.World())
			phases := ecs.AddStates(s.App, phaseEarly)
			s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
				e := ctx.Commands.Spawn()
				ecs.With(e, mover{Speed: 120, dir: 1})
				ecs.With(e, glow{Level: 0.5})
				box := ctx.Commands.Spawn()
				ecs.With(box, ecs.At(50, 60))
				ecs.With(box, ecs.Sprite{Size: geom.Vec2{X: 10, Y: 20}, Tint: render2d.Color{R: 1, A: 1}})
			}})
			s.App.AddSystem(ecs.Update, ecs.System{Name: "move", Run: func(ctx *ecs.Sys) {
				q := movers.Query()
				for q.Next() {
					m := q.Get()
					m.X += m.dir * m.Speed * float32(ctx.Input.SimulationSeconds(right, ctx.RunDelta()))
					m.X += m.dir * float32(ctx.Rand.IntN(3))
					if m.X > 300 || m.X < 0 {
						m.dir, m.Bounces = -m.dir, m.Bounces+1
						ctx.Mark("bounce")
					}
				}
				if drift != 0 && ctx.Time.Number >= drift {
					q := movers.Query()
					for q.Next() {
						q.Get().X++
					}
				}
				switch ctx.Time.Number {
				case 150:
					phases.Set(phaseLate)
				case 400:
					phases.Set(phaseLater)
				}
				if ctx.Time.Number == 100 {
					ecs.With(ctx.Commands.Spawn(), late{Born: ctx.Time.Number})
				}
			}})
			return nil
		},
	}
}

// record records testTicks ticks of the test game, with Right held for
// two seconds, into a file it returns, and the mover's X after each tick.
func record(t testing.TB) (string, []float32) {
	t.Helper()
	return recordGame(t, testGame(), 500*time.Millisecond)
}

// recordPress is record with Right pressed at press instead.
func recordPress(t testing.TB, press time.Duration) (string, []float32) {
	t.Helper()
	return recordGame(t, testGame(), press)
}

// recordGame is record of g with Right pressed at press.
func recordGame(t testing.TB, g framework.Game, press time.Duration) (string, []float32) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.rec")
	cfg := config.Default()
	if err := cfg.Set("timing.mode=fixed"); err != nil {
		t.Fatal(err)
	}
	sim, err := frameworktest.New(g, frameworktest.Options{Config: &cfg, Record: path})
	if err != nil {
		t.Fatal(err)
	}
	sim.Input.Press(sim.At(press), input.KeyRight)
	sim.Input.Release(sim.At(press+2*time.Second), input.KeyRight)
	movers := ecs.NewFilter1[mover](sim.App.World())
	xs := make([]float32, 0, testTicks)
	for range testTicks - 1 {
		if err := sim.Step(1); err != nil {
			t.Fatal(err)
		}
		q := movers.Query()
		for q.Next() {
			xs = append(xs, q.Get().X)
		}
	}
	if err := sim.RunTicks(1); err != nil {
		t.Fatal(err)
	}
	q := movers.Query()
	for q.Next() {
		xs = append(xs, q.Get().X)
	}
	return path, xs
}

// checkpoints returns the recording's world hashes by tick.
func checkpoints(t testing.TB, path string) map[uint64]uint64 {
	t.Helper()
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	hashes := map[uint64]uint64{}
	for {
		it, err := r.Next()
		if errors.Is(err, io.EOF) {
			return hashes
		}
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := it.(*recording.Checkpoint); ok {
			hashes[c.Tick] = c.Hash
		}
	}
}

func open(t testing.TB, path string, every int) *inspect.Replay {
	t.Helper()
	rep, err := framework.InspectReplay(testGame(), path, inspect.Options{KeyframeEvery: every})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
