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
// pauses before the next update so the test can look at the world, script
// more input and go on. [Sim.Display] scripts the window (resize, focus,
// hide, close button); the adapters are in [Sim.Fakes] (see package
// runtime/runtimetest).
//
// With [Options.Sound] the game's sounds are mixed offline on the same
// virtual clock: [Sim.Mixer] has the counters (placed, late, dropped) and
// [Sim.Samples] the output, sample for sample, so a test can check that a
// footstep starts where its update's span says it should.
package frameworktest
