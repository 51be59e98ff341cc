package runtimetest_test

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// jumper counts jumps and stops after a simulated second.
type jumper struct {
	runtime.Base
	jump  input.Action
	jumps int
}

func (g *jumper) InitPlatform(plat *runtime.Platform) error {
	var err error
	g.jump, err = plat.Actions.RegisterNames("jump", "Space")
	return err
}

func (g *jumper) Update(t *runtime.TickContext) error {
	g.jumps += t.Input.Presses(g.jump)
	if t.Number == 99 { // 100 ticks of 10 ms
		return t.RequestStop()
	}
	return nil
}

// A whole session on fakes and virtual time, in concurrent mode: scripted
// taps reach the game, frames are presented, and the run takes no real time.
func ExampleNewAdapters() {
	clock := runtimetest.NewClock()
	ctx, fakes := runtimetest.NewAdapters(clock)
	for _, at := range []time.Duration{100, 350, 720} {
		fakes.Input.Tap(clock.At(at*time.Millisecond), input.KeySpace, 30*time.Millisecond)
	}
	fakes.Display.Resize(clock.At(500*time.Millisecond), input.Size{Width: 800, Height: 600}, input.Size{Width: 800, Height: 600})

	opts := runtimetest.Options(clock, runtime.Concurrent)
	opts.Timing.Mode = timing.FixedMode
	opts.Timing.FixedStep = 10 * time.Millisecond
	game := &jumper{}
	rt, err := runtime.New(game, ctx, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("run:", rt.Run())
	fmt.Println("jumps:", game.jumps)
	fmt.Println("virtual time:", time.Duration(clock.Now()-clock.At(0)))
	fmt.Println("framebuffer sizes:", fakes.Renderer.FramebufferSizes())
	fmt.Println("presented:", fakes.Presenter.Presents() > 90)
	// Output:
	// run: <nil>
	// jumps: 3
	// virtual time: 1s
	// framebuffer sizes: [{640 360} {800 600}]
	// presented: true
}
