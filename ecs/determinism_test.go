package ecs_test

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

var (
	updateRecording = flag.Bool("update", false, "rewrite testdata/amd64.rec (on amd64 only)")
	// Leaving out the conversions shows what the test is for: the replay
	// of the amd64 recording then diverges under GOARCH=arm64, whose
	// compiler fuses the multiply-adds.
	unrounded = flag.Bool("unrounded", false, "run the physics of TestReplayAcrossMachines without the conversions that keep products from fusing")
)

// particle is a ball under gravity, drag and bounces: float32 and float64
// arithmetic of the kind a game's simulation does.
type particle struct {
	Pos, Vel     geom.Vec2
	Angle, Spin  float32
	Energy, Path float64
}

type physicsTotals struct{ Energy, Momentum float64 }

const (
	drag        = 0.995
	restitution = 0.8
	gravity     = 700
	arena       = 600
)

// physicsGame is the game the cross-machine recording is made of: 300
// particles, kicked upward by Space, written by the rule the package doc
// states (Determinism): every product that is added to something is
// rounded by an explicit conversion first. stepUnrounded is the same
// without the conversions.
func physicsGame(t testing.TB, stopAt uint64) *ecs.App {
	a := newApp(t, ecs.Options{Seed: 11})
	w := a.World()
	totals := &physicsTotals{}
	ecs.AddResource(w, totals)
	ecs.HashResource[physicsTotals](w)
	ps := ecs.NewFilter1[particle](w)
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Context) {
		for range 300 {
			ecs.With(ctx.Commands.Spawn(), particle{
				Pos:  geom.Vec2{X: ctx.Rand.Float32() * arena, Y: ctx.Rand.Float32() * arena},
				Vel:  geom.Vec2{X: float32(ctx.Rand.Float32()*400) - 200, Y: float32(ctx.Rand.Float32()*400) - 200},
				Spin: float32(ctx.Rand.Float32()*6) - 3,
			})
		}
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "physics", Run: func(ctx *ecs.Context) {
		dt := float32(ctx.DeltaSeconds())
		kick := float32(ctx.Input.Button(input.KeySpace).Presses) * 300
		step := stepRounded
		if *unrounded {
			step = stepUnrounded
		}
		for q := ps.Query(); q.Next(); {
			step(q.Get(), dt, kick, totals)
		}
		if ctx.Time.Number+1 >= stopAt {
			ctx.RequestStop()
		}
	}})
	return a
}

func stepRounded(p *particle, dt, kick float32, tot *physicsTotals) {
	p.Vel.X = float32(p.Vel.X*drag) + float32(p.Spin*dt)
	p.Vel.Y = float32(p.Vel.Y*drag) + float32(gravity*dt) - kick
	p.Pos.X += float32(p.Vel.X * dt)
	p.Pos.Y += float32(p.Vel.Y * dt)
	p.Angle += float32(p.Spin * dt)
	if p.Pos.Y > arena {
		p.Pos.Y = arena - float32((p.Pos.Y-arena)*restitution)
		p.Vel.Y = -float32(p.Vel.Y * restitution)
	}
	if p.Pos.X < 0 || p.Pos.X > arena {
		p.Vel.X = -p.Vel.X
		p.Pos.X = min(max(p.Pos.X, 0), arena)
	}
	vx, vy := float64(p.Vel.X), float64(p.Vel.Y)
	p.Energy = float64(0.5*vx*vx) + float64(0.5*vy*vy) + float64(gravity*float64(arena-p.Pos.Y))
	p.Path += float64(math.Sqrt(float64(vx*vx)+float64(vy*vy)) * float64(dt))
	tot.Energy = float64(tot.Energy*0.999) + float64(p.Energy*1e-3)
	tot.Momentum += float64(vx * float64(p.Angle))
}

func stepUnrounded(p *particle, dt, kick float32, tot *physicsTotals) {
	p.Vel.X = p.Vel.X*drag + p.Spin*dt
	p.Vel.Y = p.Vel.Y*drag + gravity*dt - kick
	p.Pos.X += p.Vel.X * dt
	p.Pos.Y += p.Vel.Y * dt
	p.Angle += p.Spin * dt
	if p.Pos.Y > arena {
		p.Pos.Y = arena - (p.Pos.Y-arena)*restitution
		p.Vel.Y = -p.Vel.Y * restitution
	}
	if p.Pos.X < 0 || p.Pos.X > arena {
		p.Vel.X = -p.Vel.X
		p.Pos.X = min(max(p.Pos.X, 0), arena)
	}
	vx, vy := float64(p.Vel.X), float64(p.Vel.Y)
	p.Energy = 0.5*vx*vx + 0.5*vy*vy + gravity*float64(arena-p.Pos.Y)
	p.Path += math.Sqrt(vx*vx+vy*vy) * float64(dt)
	tot.Energy = tot.Energy*0.999 + p.Energy*1e-3
	tot.Momentum += vx * float64(p.Angle)
}

// checkpointOf is the runtime's recording hook for a.
func checkpointOf(a *ecs.App) func(c *recording.Checkpoint) error {
	var h ecs.Hash
	return func(c *recording.Checkpoint) error {
		if err := a.HashInto(&h); err != nil {
			return err
		}
		c.Hash = h.Total
		for _, t := range h.Types {
			c.Types = append(c.Types, recording.TypeHash{Name: t.Name, Hash: t.Hash, Count: t.Count})
		}
		return nil
	}
}

const acrossTicks = 1500

// TestReplayAcrossMachines replays testdata/amd64.rec, a session of
// physicsGame recorded on amd64 with a world hash checked every 10 ticks,
// on the machine the test runs on. scripts/cross.sh runs it under
// GOARCH=arm64 (qemu-user-static), where Go fuses multiply-adds that
// amd64 does not: the hashes must be identical there too. With
// -unrounded the physics drops its conversions and the arm64 replay
// diverges; -update (on amd64) records the file again.
func TestReplayAcrossMachines(t *testing.T) {
	path := filepath.Join("testdata", "amd64.rec")
	if *updateRecording {
		if goruntime.GOARCH != "amd64" {
			t.Skip("the recording is made on amd64")
		}
		recordPhysics(t, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := recording.NewReader(bytes.NewReader(data), path)
	if err != nil {
		t.Fatal(err)
	}
	a := physicsGame(t, 1<<62)
	clock := timing.NewManualClock(0)
	ctx, _ := runtimetest.NewContext(clock)
	ctx.Input = nil // from the recording
	opts := runtimetest.Options(clock, runtime.Sequential)
	opts.Record = runtime.RecordOptions{Reader: r, Hash: checkpointOf(a)}
	rt, err := runtime.New(a, ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Run(); err != nil {
		t.Fatalf("replaying the amd64 recording on %s: %v", goruntime.GOARCH, err)
	}
	st := rt.RecordStats()
	if st.Ticks != acrossTicks || st.Checkpoints < acrossTicks/10 {
		t.Fatalf("replayed %d ticks checking %d hashes, want %d ticks and a hash every 10", st.Ticks, st.Checkpoints, acrossTicks)
	}
	t.Logf("%s: %d ticks replayed, %d world hashes identical to amd64's", goruntime.GOARCH, st.Ticks, st.Checkpoints)
}

// recordPhysics records a session of physicsGame with seeded kicks to path.
func recordPhysics(t *testing.T, path string) {
	clock := runtimetest.NewClock()
	ctx, fakes := runtimetest.NewContext(clock)
	for i := range 60 {
		fakes.Input.Tap(clock.At(time.Duration(100+i*237)*time.Millisecond), input.KeySpace, 20*time.Millisecond)
	}
	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, path, recording.Header{Game: "ecs physics", Mode: runtime.Sequential.String(), CheckpointEvery: 10})
	if err != nil {
		t.Fatal(err)
	}
	a := physicsGame(t, acrossTicks)
	opts := runtimetest.Options(clock, runtime.Sequential)
	opts.Timing.Mode = timing.FixedMode
	opts.Timing.FixedStep = 10 * time.Millisecond
	opts.Record = runtime.RecordOptions{Writer: w, Hash: checkpointOf(a), Every: 10}
	rt, err := runtime.New(a, ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	runErr := rt.Run()
	if err := w.Close(runErr); err != nil {
		t.Fatal(err)
	}
	if runErr != nil {
		t.Fatal(runErr)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
