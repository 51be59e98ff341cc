package runtime_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// exampleContext returns the test kit's fakes, standing in for
// glfwplatform.New in examples that must run anywhere.
func exampleContext() *runtime.Adapters {
	ctx, _ := runtimetest.NewAdapters(timing.NewManualClock(0))
	return ctx
}

// exampleOptions runs on a virtual clock whose waits return at once, so the
// example prints the same thing on every machine.
func exampleOptions() runtime.Options {
	opts := runtime.DefaultOptions()
	opts.Clock = timing.NewManualClock(0)
	opts.Timing.Mode = timing.FixedMode
	opts.Timing.FixedStep = 20 * time.Millisecond
	return opts
}

type counterGame struct {
	runtime.Base // every hook but Update is optional
	frames       int
}

func (g *counterGame) Update(tick *runtime.TickContext) error {
	fmt.Printf("tick %d: %v %v (%.2f s), window %dx%d\n",
		tick.Number, tick.Kind, tick.Delta, tick.DeltaSeconds(), tick.Window.Size.Width, tick.Window.Size.Height)
	if tick.Number == 2 {
		return tick.RequestStop() // this update finishes; no other starts
	}
	return nil
}

func (g *counterGame) PrepareFrame(w *render2d.FrameWriter) error {
	g.frames++
	w.BeginPass(render2d.PassDesc{Clear: true})
	return nil
}

func Example() {
	game := &counterGame{}
	rt, err := runtime.New(game, exampleContext(), exampleOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	err = rt.Run() // blocks on the thread that owns the window
	fmt.Println("run:", err, "- state:", rt.Lifecycle().State(), "- frames prepared:", game.frames)
	// Output:
	// tick 0: fixed 20ms (0.02 s), window 640x360
	// tick 1: fixed 20ms (0.02 s), window 640x360
	// tick 2: fixed 20ms (0.02 s), window 640x360
	// run: <nil> - state: stopped - frames prepared: 3
}

func ExampleTickContext_RequestStop() {
	// A hand-built tick for a unit test of game code.
	tick := runtime.TickContext{Update: timing.Update{Delta: 20 * time.Millisecond}}
	fmt.Println(tick.RequestStop())

	tick.Stop = runtime.NewStopSignal()
	fmt.Println(tick.RequestStop(), tick.StopRequested())
	// Output:
	// runtime: tick has no stop source
	// <nil> true
}

// uploadGame submits work to the platform thread from an update and picks
// up the result in a later one, without ever blocking the simulation.
type uploadGame struct {
	runtime.Base
	sim    *runtime.Simulation
	upload *runtime.Future[int]
}

func (g *uploadGame) InitSimulation(sim *runtime.Simulation) error {
	g.sim = sim
	return nil
}

func (g *uploadGame) Update(tick *runtime.TickContext) error {
	switch {
	case g.upload == nil:
		g.upload = runtime.Submit(g.sim.Dispatcher, func() (int, error) {
			return 42, nil // runs on the platform thread, graphics context current
		})
		fmt.Println("tick", tick.Number, "submitted")
	case g.upload.Ready():
		v, err := g.upload.Result()
		fmt.Println("tick", tick.Number, "result", v, err)
		return tick.RequestStop()
	default:
		fmt.Println("tick", tick.Number, "pending")
	}
	return nil
}

func ExampleSubmit() {
	rt, err := runtime.New(&uploadGame{}, exampleContext(), exampleOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rt.Run())
	// Output:
	// tick 0 submitted
	// tick 1 result 42 <nil>
	// <nil>
}

type failingGame struct{ runtime.Base }

func (failingGame) Update(*runtime.TickContext) error { return errors.New("out of bananas") }
func (failingGame) DeinitPlatform() error             { panic("cleanup bug") }

func ExampleGameRuntime_Run_failures() {
	rt, err := runtime.New(failingGame{}, exampleContext(), exampleOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	err = rt.Run()
	fmt.Println(err)
	var pe *runtime.PhaseError
	fmt.Println(errors.As(err, &pe), pe.Phase)
	// Output:
	// runtime: update: out of bananas
	// runtime: deinit platform: panic: cleanup bug
	// true update
}

func ExampleGameRuntime_SetTimingOptions() {
	rt, err := runtime.New(&counterGame{}, exampleContext(), exampleOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	o := rt.TimingOptions()
	o.FixedStep = 0
	fmt.Println(rt.SetTimingOptions(o) != nil)
	o.FixedStep = 10 * time.Millisecond
	fmt.Println(rt.SetTimingOptions(o), rt.TimingOptions().FixedStep)
	// Output:
	// true
	// <nil> 10ms
}
