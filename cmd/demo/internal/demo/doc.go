// Package demo is the Metronome demo's game, built only on the public
// framework and ECS API: a bunnymark, a player with a dash and shots on
// cooldowns and their sounds, music, a loading screen over a background
// load, a close confirm, a live timing overlay with graphs, and a resilience
// panel with a control for every timing setting and keys that inject load.
// The command in cmd/demo opens the window; everything here is pure Go and
// runs headless on a manual clock in tests (frameworktest.New).
//
// # Scene
//
// Bunnies are entities with a Transform, a Velocity, a Sprite and the Bunny
// marker, moved under gravity by an Update system with the tick's simulation
// delta: when the timing policy speeds the simulation up to repay debt, they
// visibly speed up too. The player moves by the share of each tick its keys
// were held ([input.Tick.SimulationSeconds]), dashes on Space with a cooldown
// counted in ticks ([schedule.Cooldown]) and ends the dash with an event on
// the gameplay queue; shots expire through queue events as well. The events
// carry only a Kind (and the entity or shot they are about), which the first
// PreUpdate system acts on, so a snapshot with any of them pending can be
// sent to another process.
//
// # Sound
//
// The dash, the shot and a four-second music loop are generated in code
// (audio.Synth and a small arpeggio generator) into the asset library. The
// player system plays the effects with [ecs.Sys.PlaySound], so each is
// placed on the span of the tick that made it plus the mixer's latency (a
// catch-up burst spaces them a step apart); the music is a looping
// [ecs.SoundSource] on the music bus, spawned with the scene, so it is game
// state like any other and a replay starts it on the same tick. The panel
// sets the master volume and mutes the music live. The overlay's audio line
// shows the latency, voices, placed, late and dropped sounds, underruns and
// the device's lead, from the session's output (framework.Setup.Sound). A
// session without sound says why ("audio: off (...)") and runs the same.
//
// # Loading screen
//
// With [Options].AtlasImages set (the command's --atlas, 48 by default),
// Setup starts loading that many generated images in the background
// (assets.PatternFiles through assetsrt on a worker group of the session,
// one processor left to the loop), with the atlas pages it fills reserved
// before Setup's upload, so that no texture is made in the load's frames.
// A loading screen with a progress bar
// from [assets.Load.Progress] covers the scene while the game keeps
// presenting; when the load is done the images become the scene's
// background. Gameplay never waits for the load, and the loading screen and
// the tiles stay out of the world hash, so a recording replays to the same
// hashes however fast the replaying machine loads. [LoadReport] says how
// long the load took and the longest frame interval during it, against the
// frame cap and the same figure after it, and [LoadSplit] where the load's
// time went.
//
// # Quitting
//
// Setup installs a shutdown policy ([runtime.ShutdownEndpoint.SetPolicy]).
// Esc asks for the end through the endpoint (ReasonQuit), as the close
// button does; with the bunny count unchanged since the start or the
// latest save (F5) the policy accepts at once, otherwise it defers the
// request and a confirm comes up: a second Esc or close accepts, any other
// key refuses. The run limits stop the session with Stop, which bypasses
// the policy. F11 switches fullscreen ([runtime.GameRuntime.SetFullscreen]);
// a panel row switches the focus policy.
//
// # Overlay and panel
//
// The overlay is made of ordinary entities: Text blocks laid out by the
// assets library on the simulation side and one solid Sprite per graph bar.
// A PostUpdate system refreshes the bars after every batch from
// [runtime.GameRuntime.TelemetryFrames] (frame intervals coloured by pacing
// lateness, the lateness, and the debt after each frame) and the text four
// times a second: presents and ticks per second, whether frames are
// interpolated, the alpha of the latest present and the judder figure,
// updates by kind, debt in steps and time, rate, dropped and suspended time,
// the ledger's balance, pacing lateness (median and p99), skipped
// publications and the input of the latest tick with presses.
//
// # Judder
//
// A motion probe, a small orange square right of the statistics, circles a
// hub at a constant 240 pixels per simulated second. The demo wraps the
// session's renderer to note, at every present, its instant and where the
// probe is drawn at that present's alpha (what the GPU draws). The judder
// figure is the coefficient of variation (standard deviation over mean) of
// the probe's on-screen displacement from one frame slot to the next over
// the latest 120 slots ([PresentSummary]): a slot is one interval of the
// frame cap, or each present when there is no cap, and a slot without a
// present shows the previous picture again. It is 0 when every slot shows
// an equal share of the motion; 60 Hz ticks under a 144 fps cap without
// interpolation hold each tick for two or three slots, about 1.18, and
// with interpolation about 0.001. Displacement is measured rather than
// present intervals because even intervals can still carry uneven motion:
// it is what the eye follows.
//
// The [Panel] changes the runtime's timing options, frame cap, (where the
// runtime allows it) input delivery and interpolation at once; a refused
// change leaves everything as it was and says why. Interpolation is
// switched through the ECS app ([ecs.App.SetInterpolation]) from the next
// tick: off, frames carry no previous placements and no step, so the
// platform presents each one once, as it is. [Game.Inject] serves the load keys: a
// stall blocks the next update (the simulation owner), a suspension blocks
// every thread, the slow render blocks the platform thread on every cycle.
//
// # Command line and reports
//
// [ParseArgs] takes the framework's flags (framework.Flags: --config,
// --set, --headless, --ticks, --frames, --run-for, --screenshot, --print-config) and
// adds the demo's. The seed's timing switches are shortcuts for --set:
//
//	--concurrent --fixed-step-ms=20 --variable-catch-up --max-fixed-updates=2 --recovery-prefix=2 --recovery-cap-ms=100
//
// becomes runtime.mode=concurrent, timing.mode=fixed, timing.step=20ms,
// timing.recovery=variable-catch-up, timing.max_fixed_updates=2,
// timing.recovery_prefix=2 and timing.recovery_cap=100ms, applied after the
// configuration file and in command-line order with --set; an invalid value
// is reported with the flag that gave it. [Report] is the timing report
// written by --timing-report, as JSON or as an SVG chart. Its JSON keys are
// snake case with units ("_ns") and each figure appears once: the
// scheduler's ledger is timing.ledger, and ledger_check adds it up and
// checks it balances; its presentation section has presents and ticks per
// second over the latest 120 presents.
//
//	g, _ := demo.New(demo.Options{Sprites: 500})
//	sim, _ := frameworktest.New(g.Framework(), frameworktest.Options{})
//	_ = sim.RunTicks(300)
//	r := g.Report()
//	fmt.Println(r.Ledger.Balanced)
package demo
