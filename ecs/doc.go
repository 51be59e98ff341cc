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
//	app.AddSystem(ecs.Update, ecs.System{Name: "move", Run: func(ctx *ecs.Sys) {
//		dt := float32(ctx.RunDeltaSeconds())
//		q := movers.Query()
//		for q.Next() {
//			t, v := q.Get()
//			t.Position.X += float32(v.X * dt) // rounded: see Determinism
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
// A spawn's [Pending.Entity] stands for the entity before it exists: a
// system can spawn a player and, in the same run, a camera that follows it
// ([Camera.Follow]) or a child that points at it; the sync point replaces
// each such reference in the queued values by the new entity.
//
// # Stages and systems
//
// A [System] is a named function of a [Sys]. Systems run in the stage
// they were added to and in the order they were added: [Startup] once in
// InitSimulation; [PreUpdate], [Update] and [PostUpdate] on every tick;
// [Extract] in PrepareFrame, after the built-in extraction; [Shutdown] once
// in DeinitSimulation.
//
// The Sys carries what a tick provides, also stored as world
// resources: [Time] (delta, kind, steps, quiet and final flags, alpha, tick
// number and the scheduler's debt statistics), the tick's input
// ([input.Tick]), the window sizes and focus ([input.Window]), the deterministic random
// source seeded by [Options.Seed], and the gameplay queue
// ([schedule.Queue] of [Event]), which advances once per tick before
// PreUpdate and hands its deliveries to [Event.Run] and [Sys.Events].
//
// An [Event] says what falls due by its Kind (Entity and Value say what
// about), and a system of the game acts on it. Make that system the first
// of PreUpdate, and the effect comes exactly where the delivery does:
//
//	const serve = 1 // the game's event kinds
//	ctx.AfterTime(time.Second, ecs.Event{Kind: serve}) // in the system that starts the countdown
//	app.AddSystem(ecs.PreUpdate, ecs.System{Name: "events", Gameplay: true, Run: func(ctx *ecs.Sys) {
//		for _, d := range ctx.TimerEvents() { // ctx.Events() for the gameplay queue
//			if d.Payload.Kind == serve {
//				launch(ctx)
//			}
//		}
//	}})
//
// Such an event is plain data, so a snapshot holding it can be encoded and
// sent to another process (see Snapshots below). An event with Run set
// calls that function instead as it is delivered; it saves and restores
// in memory, so a single-process game may use it, but a snapshot with one
// pending cannot travel. Use Kind for every event of state that must roll
// back over a network, reach a rejoining player or a spectator.
//
// Delays in seconds: [Sys.TicksFor] converts one to ticks of the
// gameplay queue (exact up to whole steps in fixed mode, an estimate from
// the current tick in variable mode), and [Sys.AfterTime] and
// [Sys.EveryTime] schedule by game time on [Sys.Timers], which
// means the same in every mode.
//
// Which count of ticks to use for what:
//
//   - ctx.Queue.Now(), the ticks of play (1 during the first, standing still
//     while the game is paused): cooldowns ([schedule.Cooldown],
//     [schedule.Repeat]), the gameplay queue, anything a pause must freeze.
//   - [Time.Game], game time (also frozen by a pause): delays in seconds,
//     with [Sys.AfterTime] and [Sys.EveryTime]; a zero delay is the
//     next tick.
//   - ctx.Time.Number ([timing.Update.Number]), the runtime's count of
//     every update, paused or not: logs, recordings and replays (a replay's
//     ticks and checkpoints are counted in it), never gameplay.
//
// # States and pause
//
// [AddStates] gives a game a state machine of its own type (menu, play,
// pause, game over): [InState] as a system's [System.When] runs it only in
// some states, [States.OnEnter] and [States.OnExit] systems run at the
// start of the tick after [States.Set], and [States.PauseIn] (or
// [App.SetPaused]) pauses the game: [System.Gameplay] systems stop, and
// game time ([Time.Game]), the gameplay queue and the timers stand still,
// while menus and the overlay run on.
//
// A cosmetic system ([System.Cosmetic]) skips the quiet ticks of a catch-up
// burst and the ticks the timing policy's coarse cosmetic rate leaves out;
// when it runs, [Sys.RunDelta] covers every tick it skipped, so animations
// keep time.
//
// # Drawing
//
// The built-in components [Transform], [Sprite], [Text], [Shape] and [Camera] reach
// the screen without glue code. PrepareFrame writes each sprite and text
// at its current Transform, packets ordered by layer, keeping query order
// inside a layer (see [Sprite.Layer]); sprites or texts entirely outside a
// camera's view are left out. Each enabled Camera makes one pass; without
// one, a default pass maps world units to framebuffer pixels. Text is laid
// out by the [assets.Library] given in [Options.Assets]. An [Animator]
// plays a sprite-sheet animation on its entity's Sprite from a built-in
// cosmetic system.
//
// Positions, sizes and offsets in these components are [geom.Vec2], the
// vector of package geom that draw packets and collision tests use too, so
// a game moves an entity with t.Position = t.Position.Add(v.Scale(dt)) and
// no conversion.
//
// A [Shape] draws a vector shape (package render2d/shape: lines,
// polylines, polygons, circles, ellipses, arcs, rectangles, filled or
// stroked, antialiased) at its entity's Transform, sorted and interpolated
// like a sprite; shapes are not culled. [Sys.Draw] draws debug lines,
// circles and shapes on top of everything until the next tick starts:
//
//	ctx.Draw.Line(t.Position, t.Position.Add(v), 1, red)
//
// See ExampleShape for an Asteroids-like ship.
//
// # Tile maps
//
// [AddTileMaps] adds the system that draws [TileChunk] entities: prebuilt
// blocks of draw packets, culled by the camera whole, with parallax and
// animated tiles. Package ecs/tilemap loads a level drawn in Tiled and
// spawns it as chunks; it lives apart so that a game without tile maps
// links no map parser. Chunks are plain data, so a snapshot and a
// rollback carry the map.
//
// # Screen
//
// [App.SetScreen] gives the window a clear colour, applied to the whole
// window before any pass (the bars around a letterboxed view), and
// optionally a logical resolution with a [render2d.Scaling] mode:
// letterbox, integer, stretch or resize. Each frame lays the logical
// screen out in the framebuffer of the latest tick's window, so it follows
// resizes, and window cameras work in logical units: a Camera's Viewport
// is a rectangle of the logical screen and its Zoom counts logical units
// per world unit. [Sys.ScreenToWorld] and [Sys.WorldToScreen]
// convert between window coordinates (the cursor's) and the world through
// a camera, or through the default view for a HUD:
//
//	x, y := ctx.Input.Cursor()
//	at, ok := ctx.ScreenToWorld(camera, geom.Vec2{X: float32(x), Y: float32(y)})
//
// # Interpolation
//
// Ticks and presents do not line up: at 60 ticks a second on a 144 Hz
// display, a sprite drawn where the latest tick left it moves by a whole
// step on some refreshes and not at all on others. So the drawing side
// interpolates between the last two frames it was given. Extraction
// remembers where it found every entity (placement and tint) and gives
// each packet, besides its current placement, the one its entity had in
// the previous frame extracted ([render2d.DrawPacket2D.Prev]; for a
// camera's pass [render2d.PassDesc.PrevCamera]). The runtime stamps the
// frame with the span of the update it shows, and the platform draws the
// frame again at every present, moved from the previous placement to the
// current one by the time since that span ended over its step. The cost
// is one step of latency and a little work per sprite per frame; a tick
// pays nothing for it, so a fixed-step game's own loops over Transform run
// as fast as on Arche directly.
//
// Frames skipped for want of a free slot are not extracted: the next one
// moves on from the last frame that was. An entity drawn for the first
// time, on a recycled index, after [Transform.Teleport] or after a whole
// Transform was written with [Set] or [Add] is drawn where it is; so is one
// whose [Transform.SetInterpolation] is off. A camera that follows an
// entity ([Camera.Follow]) moves exactly as that entity does. After a
// variable update the frame's state is already that of the present, and
// the runtime gives it no step: it is presented once, as it is.
// [App.SetInterpolation] (and [Options.NoInterpolation]) turns all of
// this off at run time, for comparison.
//
// Nothing of this is game state: extraction keeps its records outside the
// world, so a replay that never draws reaches the same world.
//
// # Audio
//
// [AddAudio] connects an App to a mixer's [audio.Player] (framework.Run
// does it for every game, with the output device's player, or nil when the
// game runs silently): it stores the [Audio] resource and adds the system
// that runs [SoundSource] components. A system plays a sound with
// [Sys.PlaySound] (an [assets.Sound] handle) or [Sys.Play] (an
// *audio.Sound); a SoundSource component plays from its entity, starting
// when it appears, panned and faded by the entity's [Transform] relative
// to the listener ([Audio.Listener]), and stopping when it is removed or
// the entity despawned.
//
// Every request is placed on the span of the tick that made it, not the
// moment the tick happened to run: the mixer starts it at the device's
// output point for that span's start plus its fixed latency. The ticks of
// a catch-up burst run back to back, but their spans are a step apart, and
// so are their sounds. Quiet ticks request sounds like any other (what is
// too late by more than the mixer's tolerance is dropped, unless
// essential), so play sounds from ordinary simulation systems: a cosmetic
// system skips the quiet ticks and the ticks a coarse cosmetic rate leaves
// out, and the sounds they would have triggered with them. Because the
// requests come from the simulation, a replay that gets the recorded ticks
// makes the same requests on the same spans ([Audio.Shift] moves them
// onto another device timeline). Voices are kept outside the world and the
// resource is not hashed, so a silent run (a nil Player: every request
// succeeds and plays nothing) reaches the same world as one with sound.
// [Audio.Stats] counts requests, voices and errors; the mixer counts
// where each sound landed (placed, late, dropped).
//
//	shot, _ := lib.LoadSound(gameFS, "sfx/shot.wav")
//	app.AddSystem(ecs.Update, ecs.System{Name: "fire", Run: func(ctx *ecs.Sys) {
//		if ctx.Input.Pressed(fire) {
//			_, _ = ctx.PlaySound(shot, audio.DefaultParams())
//		}
//	}})
//
// # Particles
//
// [AddParticles] adds the systems that run particle emitters. An emitter
// is a component beside a [Transform]: a [ParticleEffect] (rate per
// second, bursts, lifetime, speed and angle ranges, gravity, drag, size,
// colour and alpha as keyframed curves over life, a point, circle or
// rectangle to spawn in, world or local space) and a pool of a fixed
// capacity, so a step allocates nothing and a snapshot copies the pool in
// place. A [Curve] or [ColorCurve] runs from Start at birth to End at
// death through up to [MaxCurveStops] stops at life fractions between, in
// a fixed array, so an effect stays plain data and evaluating it
// allocates nothing. A config key holds one as text, "at:value" stops
// from 0 to 1 ("0:0, 0.1:1, 0.8:1, 1:0" fades in, holds and fades out):
// a [game] settings field of type Curve reads it, with its errors named
// like any key's. The game chooses per emitter by the component it adds:
//
//   - [CosmeticEmitter] ([NewCosmeticEmitter]) is the default for effects:
//     its particles live outside the world, drawn from a random source of
//     their own in a cosmetic system, so they are not hashed, not rolled
//     back and cost snapshots nothing, and an effect can be retuned without
//     invalidating a recording.
//   - [Emitter] ([NewEmitter]) when particles are game state (a hit test
//     reads them): they are stepped in Update from [Sys.Rand], hashed and
//     carried by snapshots, so a replay, a rollback and every peer see the
//     same ones.
//
// Both are drawn after the built-in extraction as quads in every pass, in
// layer order, each moving from where it was a tick ago
// ([Particle].Prev) at present time, like a sprite.
//
// # World hash
//
// [World.Hash] digests the world's state so that a replay can check, at
// each checkpoint, that it reached the world the recorded session did:
// the live entities (IDs and generations), every component value of every
// entity but for presentation-only types, and the resources registered
// with [HashResource]; [App.Hash] adds the random source, the gameplay
// queue and its clock, the timers and every [States]. Values are hashed
// field by field by value, so components must be plain data (numbers,
// booleans, strings, and arrays, slices and structs of them); a type
// holding a pointer, map, interface, channel or function is reported with
// the field's path. Per-entity hashes are combined per type by addition,
// so neither Arche's storage order nor the order the world was built in
// matters. The hash breaks down by type ([Hash.Types], shaped like the
// recording package's checkpoints), [DiffHashes] names the parts two
// hashes differ in and [World.EntityHashes] with [DiffEntities] the
// entities. Presentation is left out by default: the built-in Sprite,
// Text, Shape, Animator and Camera and every type embedding
// [PresentationOnly], so a HUD's wording or layout can change without
// invalidating a recording; the full rule is stated once, in hash.go
// above [Unhashed]. [ExcludeFromHash] leaves out other cosmetic state
// (particles, screen shake). [World.HashInto]
// reuses its result and allocates nothing in steady state.
//
// # Snapshots
//
// [App.Save] copies the whole simulation state into a [Snapshot] and
// [App.Restore] puts it back, so the ticks run after a restore do exactly
// what they did the first time: the entities with their generations (an
// [Entity] kept in a component still names the same entity, and the next
// spawn gets the entity it got before), every component, the resources
// registered with [HashResource], the random source, the gameplay queue
// and timers with their pending events and handles, game time, the pause
// and every [States]. The snapshot and the world hash cover the same
// state, stated once in hash.go, so a sync-test that compares hashes sees
// everything a restore brings back. A game writes no save or load code;
// [NewSnapshots] keeps the last n ticks in a ring reused in place:
//
//	ring, err := ecs.NewSnapshots(app, 8)
//	...
//	err = ring.Save(n)    // before tick n
//	...                   // ticks n, n+1, ... run
//	err = ring.Restore(n) // back to just before tick n
//
// A state type a snapshot could not copy (one holding a pointer, map,
// interface, channel or function) is refused when snapshots are enabled
// ([App.EnableSnapshots], called by NewSnapshots): an error for the types
// known then, a panic naming the type and field for one registered later.
// Mark cosmetic types [PresentationOnly] or leave them out with
// [ExcludeFromHash]; snapshots carry them along by assignment. Saving and
// restoring allocate nothing once the ring's slots have been used, across
// spawns and despawns too: the entity pool is copied out of and back into
// the storage Arche and the snapshot already have (builds tagged
// archesafe use Arche's public API instead, a few allocations per save
// or restore across a structural change), and the slices in the rebuilt
// components reuse the arrays the world held. Take snapshots between
// ticks, with no command queued.
//
// A snapshot also travels, to bring another process of the same game to
// the same tick (a peer that fell too far behind, a player rejoining, a
// spectator arriving late): [Snapshot.AppendBinary] encodes one and
// [App.DecodeSnapshot] decodes it into a Snapshot of another App, which
// [App.Restore] then puts in the sender's state, with the sender's hash;
// [Snapshots.Load] decodes into a ring's slot. The form is versioned,
// checksummed (CRC-64) and little-endian at fixed widths, so it is the
// same on amd64, arm64 and wasm (Go's int is 64 bits on all three), and
// it describes its types by name and a fingerprint of their fields, so a
// snapshot of another game or build is refused, naming the first type
// that differs. A truncated or corrupt input is an error, never a panic,
// and a decode allocates at most a bound of its length. Presentation-only
// and excluded component values travel too, so the receiver's entities
// look as the sender's did (one of such a type that is not plain data
// arrives zero). Two things cannot travel: an [Event] pending with a Run
// function (encoding fails, naming its Kind: schedule plain events and
// act on their Kind in a system with [Sys.Events]), and a component type
// the receiving App has not met (decoding fails, naming it; a filter or
// map of it made at set-up is enough).
//
//	b, err := snap.AppendBinary(buf[:0])      // sender
//	err = other.DecodeSnapshot(&recv, b)      // receiver, between ticks
//	err = other.Restore(&recv)
//
// Package ecs/ecstest checks this in a game's tests (ecstest.Travel,
// ecstest.FuzzDecode).
//
// [SyncTest] runs an App in sync-test mode: after every tick it restores
// the snapshot of a few ticks back ([DefaultSyncTestDepth]), runs those
// ticks again with their input and compares the hashes. State a system
// keeps outside the world makes them differ, and the first mismatch stops
// the game with a [SyncTestError]: the tick, the replay divergence report
// (component types and entity counts) and the field of each component
// value that differs. The framework's --synctest K runs any game this way.
// [App.FieldDiffs] gives the same field report between an App and a
// snapshot of another App of the same game (two replays of one match,
// which --replay A --compare B runs after a desync).
//
// # Determinism across machines
//
// A replay, a sync-test and a networked match all expect the same ticks
// to give the same world on every machine. Integers, the random source
// and the gameplay queue do; floating-point arithmetic does too, with one
// exception the Go specification allows: a compiler may fuse a multiply
// and an add into one instruction (FMA) that rounds once instead of
// twice, unless an explicit conversion rounds the product first. The Go
// compiler for arm64 (and for amd64 at GOAMD64=v3 and above) fuses; for
// amd64 at the default level it does not. So the same code gives results
// a bit apart, and a recording made on one machine diverges on the other.
// In simulation code, round every product that is added to or subtracted
// from something with an explicit conversion to its own type:
//
//	t.Position.X += float32(v.X * dt)                 // not t.Position.X += v.X * dt
//	v.Y = float32(v.Y*drag) + float32(gravity*dt)     // not v.Y*drag + gravity*dt
//	e := float64(0.5*vx*vx) + float64(m*g*h)          // the same in float64
//
// or keep the state in fixed-point integers. Division, square roots and
// products that are not added to anything need nothing. The methods of
// [geom.Vec2] follow the rule (Scale, Dot, Lerp, Reflect...), so
// t.Position.Add(v.Scale(dt)) is safe; mathgl's matrices are not, so keep
// them to drawing. The package's own systems follow it too, and so does
// examples/breakout. TestReplayAcrossMachines replays a session recorded
// on amd64 (testdata/amd64.rec) and checks every hash; scripts/cross.sh
// runs it under GOARCH=arm64 with qemu, where it fails if the rule is
// broken.
//
// A game that runs the same ticks on several machines, or again after a
// rollback, keeps a few more rules (fixed ticks, no map order, the math
// functions, what is state and what is presentation): they are gathered
// in one checklist, docs/ready-for-rollback.md in the framework's
// repository. This package's helpers for them: [TickRateOf] turns the
// timing configuration's step into whole ticks and per-tick amounts at
// set-up, [AddStateResource] makes a value outside the entities (a score)
// game state in one line, and [Text.SetContent] lets a cosmetic HUD
// rewrite a text without allocating.
//
// # Reflection
//
// Go's generics cannot list a type's fields, so the package reads the
// game's types with reflect and their values with unsafe in one file,
// layout.go, which gives the reasons and the measured cost. Each type is
// walked once per world, when first met, into a layout that the world
// hash, the command buffer (replacing [Pending.Entity] references inside
// queued values) and the state machines' hash share; afterwards a value
// costs a few loads at known offsets and allocates nothing. Only plain
// data is read, and an Entity inside a component is read through Arche's
// public methods. Everything else, queries, maps, resources and filters,
// goes through Arche's public API.
//
// # Analysis
//
// A replay debugger sees a tick system by system: [App.ObserveSystems]
// calls a function after every system of a tick, once its commands are
// applied, with a [SystemStep] that hashes the state there or saves the
// world for [App.FieldDiffs]; --compare uses it to name the first system
// whose output differs. [World.ComponentTypes], [World.EntitiesWith] and
// [World.Component] read components by type, without a typed filter, for
// an inspector and package inspect/query's conditions. None of it runs in
// a live game: a tick without an observer pays one nil check per system.
//
// # Threads
//
// An App, its World and everything borrowed from a Sys belong to the
// runtime's simulation owner: the goroutine that calls the Update hook.
package ecs
