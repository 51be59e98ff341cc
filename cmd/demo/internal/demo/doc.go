// Package demo is the Metronome demo's game, built only on the public
// framework and ECS API: a bunnymark, a player with a dash and shots on
// cooldowns, a live timing overlay with graphs, and a resilience panel with a
// control for every timing setting and keys that inject load. The command in
// cmd/demo opens the window; everything here is pure Go and runs headless on
// a manual clock in tests (frameworktest.New).
//
// # Scene
//
// Bunnies are entities with a Transform, a Velocity, a Sprite and the Bunny
// marker, moved under gravity by an Update system with the tick's simulation
// delta: when the timing policy speeds the simulation up to repay debt, they
// visibly speed up too. The player moves by the share of each tick its keys
// were held ([input.Tick.SimulationSeconds]), dashes on Space with a cooldown
// counted in ticks ([schedule.Cooldown]) and ends the dash with an event on
// the gameplay queue; shots expire through queue events as well.
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
// A motion probe, a small orange square, crosses a track under the
// statistics at a constant 240 pixels per simulated second. The demo wraps
// the session's renderer to note, at every present, where the probe is
// drawn at that present's alpha (what the GPU draws). The judder figure is
// the coefficient of variation (standard deviation over mean) of the
// probe's displacement from one present to the next over the latest 120
// presents ([PresentSummary]): 0 when every present shows an equal share of
// the motion, about 1.2 for 60 Hz ticks on a 144 Hz display when each tick
// is held for two or three presents, 0.45 for 50 Hz ticks on 60 Hz.
// Displacement is measured rather than present intervals because even
// intervals can still show uneven motion; it is what the eye follows.
//
// The [Panel] changes the runtime's timing options, frame cap, (where the
// runtime allows it) input delivery and interpolation at once; a refused
// change leaves everything as it was and says why. Interpolation is
// switched off by giving each frame a zero step in an Extract system, which
// makes the platform present it once, at its latest tick; the ECS app keeps
// recording previous placements, so switching back on is immediate, and a
// session started with render.interpolation = false cannot switch it on. [Game.Inject] serves the load keys: a
// stall blocks the next update (the simulation owner), a suspension blocks
// every thread, the slow render blocks the platform thread on every cycle.
//
// # Command line and reports
//
// [ParseArgs] takes the framework's flags (framework.Flags: --config,
// --set, --headless, --frames, --run-for, --screenshot, --print-config) and
// adds the demo's. The seed's timing switches are shortcuts for --set:
//
//	--concurrent --fixed-step-ms=20 --variable-catch-up --max-fixed-updates=2 --recovery-prefix=2 --recovery-cap-ms=100
//
// becomes runtime.mode=concurrent, timing.mode=fixed, timing.step=20ms,
// timing.recovery=variable-catch-up, timing.max_fixed_updates=2,
// timing.recovery_prefix=2 and timing.recovery_cap=100ms, applied after the
// configuration file and in command-line order with --set; an invalid value
// is reported with the flag that gave it. [Report] is the timing report
// written by --timing-report, as JSON or as an SVG chart; its presentation
// section has presents and ticks per second over the latest 120 presents.
//
//	g, _ := demo.New(demo.Options{Sprites: 500})
//	sim, _ := frameworktest.New(g.Framework(), frameworktest.Options{})
//	_ = sim.RunTicks(300)
//	r := g.Report()
//	fmt.Println(r.Ledger.Balanced)
package demo
