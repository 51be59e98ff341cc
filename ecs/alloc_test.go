//go:build !race

package ecs_test

import (
	"errors"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
	"github.com/metronome-go/metronome/runtime"
)

// TestSteadyStateAllocations runs a game of 10,000 moving sprites with
// every per-tick feature busy — movement, spawn and despawn churn through
// the command buffer, a gameplay event per tick, a cosmetic system — and
// fails on any allocation per tick or per frame once warmed up.
func TestSteadyStateAllocations(t *testing.T) {
	a := busyApp(t, 10_000)
	frame := steadyAllocs(t, a, tick(0, 0.5))
	if got := frame.PacketCount(); got < 9_000 {
		t.Errorf("packets in the frame: got %d, want most of the 10,000 sprites", got)
	}
	if st := a.Stats(); st.Commands.Failed() != 0 || st.LeakedQueries != 0 {
		t.Errorf("stats: got %+v, want no failures", st)
	}
}

type churn struct{}

func busyApp(t testing.TB, n int) *ecs.App {
	a := newApp(t, ecs.Options{Seed: 3})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for i := range n {
			p := ctx.Commands.Spawn()
			ecs.With(p, ecs.At(float32(i%320), float32(i/320)))
			ecs.With(p, ecs.Sprite{Size: geom.Vec2{X: 2, Y: 2}, Layer: int16(i % 3)})
			ecs.With(p, speed{X: 1, Y: 1})
		}
	}})
	a.AddSystem(ecs.Update, moveSystem())
	churned := ecs.NewFilter1[churn](a.World())
	a.AddSystem(ecs.Update, ecs.System{Name: "churn", Run: func(ctx *ecs.Sys) {
		q := churned.Query()
		for q.Next() {
			ctx.Commands.Despawn(q.Entity())
		}
		for range 10 {
			p := ctx.Commands.Spawn()
			ecs.With(p, churn{})
			ecs.With(p, ecs.At(ctx.Rand.Float32()*320, 0))
		}
		if _, err := ctx.Queue.After(1, ecs.Event{Kind: 1, Run: func(ctx *ecs.Sys, d ecs.EventDelivery) {
			ecs.With(ctx.Commands.Spawn(), churn{})
		}}); err != nil {
			ctx.Fail(err)
		}
	}})
	a.AddSystem(ecs.PostUpdate, ecs.System{Name: "sparkle", Cosmetic: true, Run: func(ctx *ecs.Sys) {
		_ = ctx.RunDelta()
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestQueryBookkeepingAllocations covers the query paths a tick may take
// besides a plain loop: nested queries, Close of a finished query under an
// open one (which recovers Arche's panic, see locks.go) and a leak closed
// at the sync point.
func TestQueryBookkeepingAllocations(t *testing.T) {
	w := ecs.NewWorld()
	spawnPV(w, 8)
	f := ecs.NewFilter1[position](w)
	run := func() {
		outer := f.Query()
		for outer.Next() {
			inner := f.Query()
			for inner.Next() {
			}
			inner.Close()
		}
		leak := f.Query()
		leak.Next()
		if got := w.Apply(); got != 1 {
			t.Fatalf("leaked queries: got %d, want 1", got)
		}
	}
	run()
	if got := testing.AllocsPerRun(20, run); got != 0 {
		t.Errorf("allocations: got %v, want 0", got)
	}
}

// TestHashIntoAllocations: a checkpoint's hash allocates nothing once the
// world's set of types is known.
func TestHashIntoAllocations(t *testing.T) {
	a := busyApp(t, 1000)
	var h ecs.Hash
	if err := a.HashInto(&h); err != nil {
		t.Fatal(err)
	}
	if got := testing.AllocsPerRun(20, func() {
		if err := a.HashInto(&h); err != nil {
			t.Fatal(err)
		}
	}); got != 0 {
		t.Errorf("allocations per hash: got %v, want 0", got)
	}
}

// TestScreenAllocations: under a logical screen, with a following camera,
// a minimap and a system reading the cursor through a camera every tick,
// neither a tick nor a frame allocates.
func TestScreenAllocations(t *testing.T) {
	a := busyApp(t, 1_000)
	if err := a.SetScreen(render2d.Screen{Width: 320, Height: 180, Scaling: render2d.ScaleInteger, ClearColor: render2d.Black}); err != nil {
		t.Fatal(err)
	}
	var cam ecs.Entity
	a.AddSystem(ecs.Startup, ecs.System{Name: "cameras", Run: func(ctx *ecs.Sys) {
		leader := ctx.Commands.Spawn()
		ecs.With(leader, ecs.At(100, 50))
		ecs.With(leader, speed{X: 1})
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.At(0, 0))
		ecs.With(p, ecs.Camera{Anchor: geom.Vec2{X: 0.5, Y: 0.5}, Zoom: 2, Follow: leader.Entity()})
		m := ctx.Commands.Spawn()
		ecs.With(m, ecs.At(0, 0))
		ecs.With(m, ecs.Camera{Viewport: geom.Rect{X: 240, W: 80, H: 45}, Zoom: 0.25, Order: 1})
	}})
	a.AddSystem(ecs.Startup, ecs.System{Name: "find", Run: func(ctx *ecs.Sys) {
		q := ecs.NewFilter1[ecs.Camera](ctx.World).Query()
		for q.Next() {
			if q.Get().Order == 0 {
				cam = q.Entity()
			}
		}
	}})
	var picked geom.Vec2
	a.AddSystem(ecs.Update, ecs.System{Name: "pick", Run: func(ctx *ecs.Sys) {
		x, y := ctx.Input.Cursor()
		w, ok := ctx.ScreenToWorld(cam, geom.Vec2{X: float32(x), Y: float32(y)})
		if !ok {
			ctx.Fail(errors.New("ScreenToWorld failed"))
		}
		picked, _ = ctx.WorldToScreen(cam, w)
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	tk := tick(0, 0.5)
	tk.Window = input.Window{Size: input.Size{Width: 700, Height: 400}, Framebuffer: input.Size{Width: 1400, Height: 800}}
	frame := steadyAllocs(t, a, tk)
	if len(frame.Passes) != 2 {
		t.Fatalf("frame: %d passes, want two laid-out passes", len(frame.Passes))
	}
	if frame.Passes[0].Camera.Size != (geom.Vec2{X: 320, Y: 180}) || !frame.Clear {
		t.Errorf("frame: first view %v, clear %v; want 320x180 and a clear", frame.Passes[0].Camera.Size, frame.Clear)
	}
	_ = picked
}

// steadyAllocs warms a up with ticks from tk and frames, fails on any
// allocation per tick or per frame after that, and returns the last frame.
func steadyAllocs(t *testing.T, a *ecs.App, tk *runtime.TickContext) *render2d.Frame {
	t.Helper()
	frame := &render2d.Frame{}
	fw := render2d.NewFrameWriter(frame)
	runTick := func() {
		tk.Number++
		if err := a.Update(tk); err != nil {
			t.Fatal(err)
		}
	}
	runFrame := func() {
		frame.Reset()
		if err := a.PrepareFrame(fw); err != nil {
			t.Fatal(err)
		}
	}
	for range 10 {
		runTick()
		runFrame()
	}
	if got := testing.AllocsPerRun(20, runTick); got != 0 {
		t.Errorf("allocations per tick: got %v, want 0", got)
	}
	if got := testing.AllocsPerRun(20, runFrame); got != 0 {
		t.Errorf("allocations per frame: got %v, want 0", got)
	}
	return frame
}

// TestShapesSteadyStateAllocations: a thousand moving shapes of every
// kind and a hundred debug lines a tick allocate nothing per tick or per
// frame once warmed up.
func TestShapesSteadyStateAllocations(t *testing.T) {
	a := newApp(t, ecs.Options{Seed: 3})
	kinds := []shape.Shape{
		shape.Circle(6), shape.Circle(6).Stroked(1), shape.Rect(8, 4), shape.RoundRect(10, 6, 2).Stroked(1),
		shape.Polygon(geom.Vec2{X: 0, Y: 0}, geom.Vec2{X: 8, Y: 0}, geom.Vec2{X: 8, Y: 8}, geom.Vec2{X: 4, Y: 3}, geom.Vec2{X: 0, Y: 8}),
		shape.Arc(5, 0, 2, 1),
	}
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for i := range 1000 {
			p := ctx.Commands.Spawn()
			ecs.With(p, ecs.At(float32(i%320), float32(i/320)))
			ecs.With(p, ecs.Shape{Shape: kinds[i%len(kinds)], Layer: int16(i % 3)})
			ecs.With(p, speed{X: 1, Y: 1})
		}
	}})
	a.AddSystem(ecs.Update, moveSystem())
	a.AddSystem(ecs.Update, ecs.System{Name: "gizmos", Run: func(ctx *ecs.Sys) {
		for i := range 100 {
			ctx.Draw.Line(geom.Vec2{X: float32(i)}, geom.Vec2{X: float32(i), Y: 50}, 1, render2d.White)
		}
		ctx.Draw.Circle(geom.Vec2{X: 10, Y: 10}, 5, 0, render2d.White)
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	frame := steadyAllocs(t, a, tick(0, 0.5))
	if got := frame.PacketCount(); got != 1101 {
		t.Errorf("packets in the frame: got %d, want 1,101", got)
	}
}
