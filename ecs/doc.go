// Package ecs runs a game as an entity component system inside Metronome's
// runtime: an [App] owns an Arche world, runs systems in ordered stages on
// every simulation tick and turns sprites and cameras into draw packets when
// a frame is prepared.
//
// # Worlds, queries and commands
//
// A [World] holds entities ([Entity]) and their components, plain Go
// structs. Filters select entities by component types and hand out queries:
//
//	move := ecs.NewFilter2[ecs.Transform, Velocity](world)
//	q := move.Query()
//	for q.Next() {
//		t, v := q.Get()
//		t.Position.X += v.X * dt
//	}
//
// [Map] reads one component of one entity; [AddResource] and [GetResource]
// keep singletons. These are thin layers over Arche's generic API, so the
// game code does not depend on Arche's names.
//
// While a query is open the world is locked. Structural changes — spawning,
// despawning, adding, setting and removing components — are therefore
// queued in [Commands] ([Commands.Spawn] with [With], [Commands.Despawn],
// [Add], [Set], [Remove]) and applied at a sync point, which the App places
// after every system. An operation that cannot be applied, such as a
// despawn of an entity that is already gone, is counted and reported, never
// a panic. A query a system forgets to close is closed at the sync point and
// counted in [AppStats].
//
// # Stages and systems
//
// A [System] is a named function of a [Context]. Systems run in the stage
// they were added to ([Startup], [PreUpdate], [Update], [PostUpdate],
// [Extract], [Shutdown]) and in the order they were added. The Context
// carries the tick's [Time], the window sizes, the deterministic random
// source seeded by [Options.Seed], the world and its commands.
//
// A cosmetic system ([System.Cosmetic]) skips the quiet ticks of a catch-up
// burst and follows the timing policy's coarse cosmetic rate; when it runs,
// [Context.Delta] covers every tick it skipped, so animations keep time.
//
// # Drawing
//
// The built-in components [Transform], [Sprite] and [Camera] need no glue
// code. Before the last tick of each batch the App records every Transform
// as its previous value; when the runtime asks for a frame, extraction draws
// each visible sprite between its previous and current transform by the
// tick's interpolation alpha, orders the packets by layer (keeping query
// order inside a layer) and leaves out sprites outside each camera's view.
// Each enabled Camera makes one pass; without one, a default pass maps world
// units to framebuffer pixels.
package ecs
