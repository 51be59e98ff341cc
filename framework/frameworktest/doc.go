// Package frameworktest runs a [framework.Game] headless for the game's own
// tests, through the real runtime loop, the way the project tests itself:
// virtual time, scripted input and window events, a renderer that records
// every frame, and the same ticks in sequential and concurrent mode on
// every machine. Nothing sleeps and no display is needed. It is to a game
// what net/http/httptest is to a handler; a game binary never imports it.
//
//	func TestDash(t *testing.T) {
//		cfg := config.Default()
//		_ = cfg.Set("timing.mode=fixed")
//		sim, err := frameworktest.New(newGame(), frameworktest.Options{Config: &cfg})
//		if err != nil {
//			t.Fatal(err)
//		}
//		sim.Input.Tap(sim.At(100*time.Millisecond), input.KeySpace, 20*time.Millisecond)
//		if err := sim.Step(30); err != nil { // half a second at 60 Hz
//			t.Fatal(err)
//		}
//		// inspect sim.App.World(), sim.LastFrame(), sim.Presents()
//		if err := sim.Step(30); err != nil {
//			t.Fatal(err)
//		}
//		if err := sim.Close(); err != nil {
//			t.Fatal(err)
//		}
//	}
//
// [Sim.RunTicks] runs a number of ticks to a clean stop in one call; [Sim.Step]
// pauses after the last update it ran, with the clock held at that update's
// instant, so the test can look at the world, script more input and go on.
//
// # When input lands
//
// A scripted event is polled at the first poll at or after its instant
// (polls are polling.spacing apart, 4 ms by default) and taken by the next
// update, as a real key press is. While a Step is paused, input scripted
// for the clock's reading or earlier reaches the next update, the first of
// the next Step, in sequential and concurrent mode alike.
//
// Tick numbers count from 0 everywhere: the first update is tick 0
// (ctx.Time.Number, the recording's ticks, a replay's messages), tick n of a
// fixed step spans [n×step, (n+1)×step) from the start, and [Sim.Ticks], the
// number of updates run, is the number of the next one. [Sim.Display] scripts the window (resize, focus,
// hide, close button); the adapters are in [Sim.Fakes] (see package
// runtime/runtimetest).
//
// With [Options.Sound] the game's sounds are mixed offline on the same
// virtual clock: [Sim.Mixer] has the counters (placed, late, dropped) and
// [Sim.Samples] the output, sample for sample, so a test can check that a
// footstep starts where its update's span says it should.
//
// With [Options.SyncTest] the game runs in sync-test mode, as under
// --synctest: every tick is run again from a snapshot, and a tick whose
// world hash differs ends the session with an ecs.SyncTestError naming it
// ([Sim.SyncTestStats] counts the checks).
//
// # Networked matches
//
// [Match] plays a game with framework.Game.Net between two or more
// sessions in one process, each through the real runtime loop on the
// fakes, all on one virtual clock, their messages carried over a simulated
// network (rollback/netsim, through rollbacktest.NewTransports):
//
//	peers, err := frameworktest.Match(newGame, frameworktest.MatchOptions{
//		Net: netsim.Options{Latency: 75 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Seed: 1},
//		For: 20 * time.Second,
//		Script: func(peer int, sim *frameworktest.Sim) { /* each peer's input on sim.Input */ },
//	})
//	// peers[i].Stats (rollbacks, depth, advantage, bytes), .Trace (ticks
//	// over time), .Fakes.Presenter.Instants(), .Tick and .Hash
//
// A desync ends the match with the rollback.Desync of each peer.
package frameworktest
