// Package runtimetest is the test kit for code that runs on the runtime:
// fake adapters, virtual clocks and the helpers the project's own tests use,
// so a game's tests can drive a whole session without a window, a GPU or a
// sleep. Production code never imports it (it links package testing through
// the recording renderer and scripted input).
//
// # Clocks
//
// [Clock] is virtual time: a [timing.ManualClock] whose waiters move it once
// every goroutine of the session is waiting, and which orders the platform
// before the simulation at every instant, so a session gives the same ticks
// in both run modes on every machine. [Clock.Spend] stands for work that
// takes time on one owner while the other keeps running. [BubbleClock]
// reads the fake time of a testing/synctest bubble instead, where work that
// takes time is a time.Sleep.
//
// # Fakes
//
// [NewAdapters] assembles a [runtime.Adapters] of fakes on a clock:
//
//   - [Display]: a window whose resizes, focus, hiding and close requests
//     are scripted at instants ([Display.Resize], [Display.Hide],
//     [Display.Focus], [Display.RequestClose]) or set at once
//     ([Display.Set]);
//   - [Presenter]: records the instant of every present;
//   - [Renderer]: a recording renderer that keeps a copy of every frame,
//     also after the runtime closes it;
//   - [Input]: the runtime's input adapter over an inputtest.Script
//     (buttons, cursor, scroll, text; the window comes from the Display).
//
// Each fake takes a [Hook] that sees every call by method name, to log
// calls or inject failures, and the presenter and renderer take a Cost,
// charged to the platform's clock.
//
//	clock := runtimetest.NewClock()
//	ctx, fakes := runtimetest.NewAdapters(clock)
//	fakes.Input.Tap(clock.At(100*time.Millisecond), input.KeySpace, 20*time.Millisecond)
//	rt, _ := runtime.New(game, ctx, runtimetest.Options(clock, runtime.Concurrent))
//	err := rt.Run() // until the game stops itself
//	// inspect fakes.Renderer.Frames, fakes.Presenter.Instants()
//
// Games built with package framework are tested one level up, with
// framework/frameworktest, which runs the whole game on this kit.
package runtimetest
