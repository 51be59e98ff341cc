// Package ecs runs a game as an entity component system inside Metronome's
// runtime. An [App] owns an Arche world, implements the runtime's game hooks
// ([runtime.Game]), runs systems in ordered stages on every simulation tick
// and turns sprites, text and cameras into draw packets when a frame is
// prepared.
//
// # A game
//
//	app, _ := ecs.NewApp(ecs.Options{Seed: 1})
//	movers := ecs.NewFilter2[ecs.Transform, Velocity](app.World())
//	app.AddSystem(ecs.Update, ecs.System{Name: "move", Run: func(ctx *ecs.Context) {
//		dt := float32(ctx.DeltaSeconds())
//		q := movers.Query()
//		for q.Next() {
//			t, v := q.Get()
//			t.Position.X += v.X * dt
//		}
//	}})
//	rt, _ := runtime.New(app, platform, runtime.DefaultOptions())
//	err := rt.Run()
//
// A game that uploads textures or binds input actions embeds *App in its own
// type and adds InitPlatform (and DeinitPlatform) there.
//
// # Worlds, queries and commands
//
// A [World] holds entities ([Entity]) and their components, plain Go
// structs. Filters ([Filter1] to [Filter4], with With and Without) select
// entities and hand out queries; [Map] reads one component of one entity;
// [AddResource] and [GetResource] keep singletons. These are thin layers
// over Arche's generic API, so game code never names Arche and a move to
// another ECS stays mechanical.
//
// While a query is open the world is locked. Structural changes (spawning,
// despawning, adding, setting and removing components) are therefore queued
// in [Commands] ([Commands.Spawn] with [With], [Commands.Despawn], [Add],
// [Set], [Remove]) and applied at a sync point, which the App places after
// every system. Arche's locked-world panics cannot happen through this API.
// An operation that cannot be applied, such as a despawn of an entity that
// is already gone, is counted in [CommandStats] and reported to
// [Options.OnCommandError], never a panic. A query a system leaves open is
// closed at the sync point and counted in [AppStats].
//
// # Stages and systems
//
// A [System] is a named function of a [Context]. Systems run in the stage
// they were added to and in the order they were added: [Startup] once in
// InitSimulation; [PreUpdate], [Update] and [PostUpdate] on every tick;
// [Extract] in PrepareFrame, after the built-in extraction; [Shutdown] once
// in DeinitSimulation.
//
// The Context carries what a tick provides, also stored as world
// resources: [Time] (delta, kind, steps, quiet and final flags, alpha, tick
// number and the scheduler's debt statistics), the tick's input
// ([input.Tick]), the window sizes and focus ([input.Window]), the deterministic random
// source seeded by [Options.Seed], and the gameplay queue
// ([schedule.Queue] of [Event]), which advances once per tick before
// PreUpdate and hands its deliveries to [Event.Run] and [Context.Events].
//
// A cosmetic system ([System.Cosmetic]) skips the quiet ticks of a catch-up
// burst and the ticks the timing policy's coarse cosmetic rate leaves out;
// when it runs, [Context.Delta] covers every tick it skipped, so animations
// keep time.
//
// # Drawing
//
// The built-in components [Transform], [Sprite], [Text] and [Camera] reach
// the screen without glue code. Before each fixed tick that may end a batch
// the App records every Transform as its previous value; PrepareFrame then
// draws each sprite and text between its previous and current transform by
// the batch's alpha (after a variable or catch-up update nothing is pending
// and the current state is drawn). Packets are ordered by layer, keeping
// query order inside a layer (see [Sprite.Layer]), and sprites or texts
// entirely outside a
// camera's view are left out. Each enabled Camera makes one pass; without
// one, a default pass maps world units to framebuffer pixels. Text is laid
// out by the [assets.Library] given in [Options.Assets]. An [Animator]
// plays a sprite-sheet animation on its entity's Sprite from a built-in
// cosmetic system.
//
// # Build tags
//
// The default build uses Arche through its public API only. Building with
// the metronome_unsafe tag (go build -tags metronome_unsafe) makes the
// per-tick Transform snapshot walk Arche's component columns in memory,
// which cuts the cost of a fixed tick over many transforms by about a third
// but depends on Arche's internal layout: it may break on an Arche upgrade
// (checked when the package loads) and suits a game that pins Arche's
// version.
//
// # Threads
//
// An App, its World and everything borrowed from a Context belong to the
// runtime's simulation owner: the goroutine that calls the Update hook.
package ecs
