package ecs_test

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/schedule"
	"github.com/metronome-go/metronome/timing"
)

// Velocity is a game's own component: world units per second.
type Velocity struct{ X, Y float32 }

// A small game: balls fall under gravity, bounce off the floor and, once
// bounced three times, are despawned; a gameplay event drops a new ball
// every few ticks. The event is plain data (a Kind the rain system acts
// on), so a snapshot with it pending can travel to another process. The
// runtime would call the hooks; here the example drives them with
// hand-built ticks of 50 ms.
func Example() {
	app, err := ecs.NewApp(ecs.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	type Bounces struct{ N int }
	const dropBall = 1 // the Kind of the event that drops a ball
	app.AddSystem(ecs.Startup, ecs.System{Name: "clouds", Run: func(ctx *ecs.Sys) {
		ctx.Queue.Every(1, 4, schedule.Skip(), ecs.Event{Kind: dropBall})
	}})
	app.AddSystem(ecs.PreUpdate, ecs.System{Name: "rain", Run: func(ctx *ecs.Sys) {
		for _, d := range ctx.Events() {
			if d.Payload.Kind == dropBall {
				ball := ctx.Commands.Spawn()
				ecs.With(ball, ecs.At(float32(ctx.Rand.IntN(300)), 0))
				ecs.With(ball, Velocity{})
				ecs.With(ball, Bounces{})
				ecs.With(ball, ecs.Sprite{Size: geom.Vec2{X: 8, Y: 8}, Layer: 1})
			}
		}
	}})

	balls := ecs.NewFilter3[ecs.Transform, Velocity, Bounces](app.World())
	app.AddSystem(ecs.Update, ecs.System{Name: "physics", Run: func(ctx *ecs.Sys) {
		dt := float32(ctx.RunDeltaSeconds())
		q := balls.Query()
		for q.Next() {
			t, v, b := q.Get()
			v.Y += 1000 * dt
			t.Position.Y += v.Y * dt
			if t.Position.Y > 200 { // the floor
				t.Position.Y, v.Y = 200, -v.Y*0.8
				if b.N++; b.N == 3 {
					ctx.Commands.Despawn(q.Entity()) // safe: applied after the system
				}
			}
		}
	}})

	if err := app.InitSimulation(nil); err != nil {
		fmt.Println(err)
		return
	}
	for n := range uint64(60) {
		tick := &runtime.TickContext{
			Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: 50 * time.Millisecond, Number: n, Final: true},
			Timing: timing.Stats{Alpha: 0.5},
			Window: input.Window{Framebuffer: input.Size{Width: 320, Height: 240}}}
		if err := app.Update(tick); err != nil {
			fmt.Println(err)
			return
		}
	}
	var frame render2d.Frame
	if err := app.PrepareFrame(render2d.NewFrameWriter(&frame)); err != nil {
		fmt.Println(err)
		return
	}
	st := app.Stats()
	fmt.Printf("balls alive: %d, drawn: %d\n", balls.Count(), frame.PacketCount())
	fmt.Printf("spawned %d, despawned %d, failed %d\n", st.Commands.Spawned, st.Commands.Despawned, st.Commands.Failed())
	// Output:
	// balls alive: 11, drawn: 11
	// spawned 15, despawned 4, failed 0
}

// Structural changes queued while a query runs are applied at the next sync
// point; an operation on an entity that is already gone is reported, not a
// panic.
func ExampleCommands() {
	w := ecs.NewWorld()
	w.Commands().OnError(func(err ecs.CommandError) { fmt.Println(err) })
	for i := range 3 {
		ecs.With(w.Commands().Spawn(), Velocity{X: float32(i)})
	}
	w.Apply()

	moving := ecs.NewFilter1[Velocity](w)
	q := moving.Query()
	for q.Next() {
		if q.Get().X == 1 {
			w.Commands().Despawn(q.Entity())
			w.Commands().Despawn(q.Entity())
		}
	}
	w.Apply()
	fmt.Println("left:", moving.Count())
	// Output:
	// ecs: despawn on entity(2.0): entity is dead
	// left: 2
}

// Two runs of the same game from the same seed end in the same world, and
// their hashes say so; a run that went another way is told apart part by
// part, down to the entity.
func ExampleWorld_Hash() {
	type Coins struct{ N int }
	play := func(bonus bool) (*ecs.World, ecs.Hash) {
		w := ecs.NewWorld()
		ecs.HashResource[Coins](w) // the score is state; resources are not by default
		ecs.AddResource(w, &Coins{})
		for i := range 3 {
			p := w.Commands().Spawn()
			ecs.With(p, ecs.At(float32(10*i), 0))
			ecs.With(p, Velocity{X: 1})
		}
		w.Apply()
		if bonus {
			ecs.GetResource[Coins](w).N++
			m := ecs.NewMap[ecs.Transform](w)
			q := ecs.NewFilter1[Velocity](w).Query()
			for q.Next() {
				if e := q.Entity(); m.Get(e).Position.X == 10 {
					m.Get(e).Position.Y = 1
				}
			}
		}
		h, err := w.Hash()
		if err != nil {
			fmt.Println(err)
		}
		return w, h
	}
	a, ha := play(false)
	_, hb := play(false)
	c, hc := play(true)
	fmt.Println("same runs agree:", ha.Total == hb.Total)
	fmt.Println("parts that differ:", ecs.DiffHashes(ha, hc))
	ea, _ := a.EntityHashes(ecs.TypeOf[ecs.Transform]())
	ec, _ := c.EntityHashes(ecs.TypeOf[ecs.Transform]())
	fmt.Println("entities that differ:", len(ecs.DiffEntities(ea, ec)))
	for _, t := range ha.Types {
		fmt.Printf("%s: %d\n", t.Name, t.Count)
	}
	// Output:
	// same runs agree: true
	// parts that differ: [ecs.Transform resource ecs_test.Coins]
	// entities that differ: 1
	// ecs.Transform: 3
	// ecs.entities: 3
	// ecs_test.Velocity: 3
	// resource ecs_test.Coins: 1
}

// Screen is a game's own set of states.
type Screen int

const (
	Title Screen = iota
	Playing
	Pause
	GameOver
)

func (s Screen) String() string { return [...]string{"title", "playing", "pause", "game over"}[s] }

// A game's screens as states: the ball moves only while playing, the pause
// screen stops it and its game time, and the serve delay, scheduled in
// seconds, waits out the pause. The serve is an event of a Kind that a
// system acts on.
func ExampleAddStates() {
	app, _ := ecs.NewApp(ecs.Options{})
	screens := ecs.AddStates(app, Title).PauseIn(Pause)
	const serve = 1 // the Kind of the serve event
	served := false
	screens.OnEnter(Playing, ecs.System{Name: "serve", Run: func(ctx *ecs.Sys) {
		if served {
			return // back from the pause: the serve is still pending
		}
		served = true
		ctx.AfterTime(150*time.Millisecond, ecs.Event{Kind: serve})
	}})
	screens.OnEnter(GameOver, ecs.System{Name: "final score", Run: func(ctx *ecs.Sys) {
		fmt.Printf("tick %d: game over at %v of game time, %v in all\n", ctx.Time.Number, ctx.Time.Game-ctx.Time.Delta, ctx.Time.Elapsed-ctx.Time.Delta)
	}})
	app.AddSystem(ecs.Update, ecs.System{Name: "ball", Gameplay: true, When: ecs.InState(screens, Playing), Run: func(ctx *ecs.Sys) {}})
	app.AddSystem(ecs.PreUpdate, ecs.System{Name: "events", Gameplay: true, Run: func(ctx *ecs.Sys) {
		for _, d := range ctx.TimerEvents() {
			if d.Payload.Kind == serve {
				fmt.Printf("tick %d: serve, at %v of game time\n", ctx.Time.Number, ctx.Time.Game-ctx.Time.Delta)
			}
		}
	}})
	// The player's key presses, by tick.
	presses := map[uint64]Screen{1: Playing, 3: Pause, 8: Playing, 12: GameOver}
	app.AddSystem(ecs.PreUpdate, ecs.System{Name: "keys", Run: func(ctx *ecs.Sys) {
		if s, ok := presses[ctx.Time.Number]; ok {
			screens.Set(s)
			fmt.Printf("tick %d: %v -> %v\n", ctx.Time.Number, screens.Current(), s)
		}
	}})
	for n := uint64(1); n <= 13; n++ {
		app.Update(&runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: 50 * time.Millisecond, Number: n}})
	}
	for _, st := range app.Systems() {
		if st.Name == "ball" {
			fmt.Println("ball moved on", st.Runs, "ticks")
		}
	}
	// Output:
	// tick 1: title -> playing
	// tick 3: playing -> pause
	// tick 8: pause -> playing
	// tick 10: serve, at 200ms of game time
	// tick 12: playing -> game over
	// tick 13: game over at 350ms of game time, 600ms in all
	// ball moved on 6 ticks
}
