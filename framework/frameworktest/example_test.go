package frameworktest_test

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

// counter is a component: how many times its entity was pushed, and the
// number of the tick that saw the latest push.
type counter struct {
	Pushes int
	Tick   uint64
}

// A game's test steps the game, inspects its world, scripts more input and
// steps again. Ticks are exact: 10 ms fixed steps on virtual time. Tick
// numbers count from 0, so after 10 updates the clock reads 100 ms, the end
// of tick 9's span, and input scripted for that instant (or earlier) while
// paused reaches the next update, tick 10, the first of the next Step.
func ExampleSim_Step() {
	var push input.Action
	game := framework.Game{Setup: func(s *framework.Setup) error {
		var err error
		if push, err = s.Actions.RegisterNames("push", "Space"); err != nil {
			return err
		}
		counters := ecs.NewFilter1[counter](s.App.World())
		s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
			ecs.With(ctx.Commands.Spawn(), counter{})
		}})
		s.App.AddSystem(ecs.Update, ecs.System{Name: "push", Run: func(ctx *ecs.Sys) {
			n := ctx.Input.Presses(push)
			for q := counters.Query(); q.Next(); {
				if c := q.Get(); n > 0 {
					c.Pushes += n
					c.Tick = ctx.Time.Number
				}
			}
		}})
		return nil
	}}
	cfg := config.Default()
	_ = cfg.Set("timing.mode=fixed")
	_ = cfg.Set("timing.step=10ms")
	sim, err := frameworktest.New(game, frameworktest.Options{Config: &cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	pushed := func() counter {
		q := ecs.NewFilter1[counter](sim.App.World()).Query()
		defer q.Close()
		q.Next()
		return *q.Get()
	}
	sim.Input.Tap(sim.At(25*time.Millisecond), input.KeySpace, 5*time.Millisecond)
	_ = sim.Step(10)
	fmt.Printf("after %d ticks, at %v: %+v\n", sim.Ticks(), time.Duration(sim.Clock.Now()-sim.At(0)), pushed())
	sim.Input.Tap(sim.Clock.Now(), input.KeySpace, 5*time.Millisecond)
	_ = sim.Step(1)
	fmt.Printf("after %d ticks: %+v\n", sim.Ticks(), pushed())
	sim.Input.Tap(sim.At(150*time.Millisecond), input.KeySpace, 5*time.Millisecond)
	_ = sim.Step(9)
	fmt.Printf("after %d ticks: %+v\n", sim.Ticks(), pushed())
	fmt.Println(sim.Close(), sim.Ticks())
	// Output:
	// after 10 ticks, at 100ms: {Pushes:1 Tick:2}
	// after 11 ticks: {Pushes:2 Tick:10}
	// after 20 ticks: {Pushes:3 Tick:15}
	// <nil> 20
}

// With Options.Sound, a test hears the game: the jump sound of the update
// at 250 ms starts exactly the configured latency later, at frame
// (250 ms + 50 ms) × 48 kHz.
func ExampleSim_Samples() {
	game := framework.Game{Setup: func(s *framework.Setup) error {
		tone := make([]float32, 480) // 10 ms at 48 kHz, amplitude 0.25
		for i := range tone {
			tone[i] = 0.25
		}
		snd, err := audio.NewSound("jump", 48000, 1, tone)
		if err != nil {
			return err
		}
		jump, err := s.Assets.AddSound(snd)
		if err != nil {
			return err
		}
		s.App.AddSystem(ecs.Update, ecs.System{Name: "jump", Run: func(ctx *ecs.Sys) {
			if ctx.Time.Number == 25 { // the update whose span starts at 250 ms
				if _, err := ctx.PlaySound(jump, audio.DefaultParams()); err != nil {
					ctx.Fail(err)
				}
			}
		}})
		return nil
	}}
	sim, err := frameworktest.New(game, frameworktest.Options{Sound: true, Sets: []string{
		"timing.mode=fixed", "timing.step=10ms", "audio.latency=50ms",
		"audio.master_volume=1", "audio.effects_volume=1",
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := sim.RunTicks(50); err != nil {
		fmt.Println(err)
		return
	}
	out := sim.Samples(500 * time.Millisecond) // left, right, left, right, ...
	first := -1
	for i := 0; i < len(out); i += 2 {
		if out[i] != 0 {
			first = i / 2
			break
		}
	}
	st := sim.Mixer().Stats()
	fmt.Println("first sounding frame:", first, "amplitude:", out[2*first])
	fmt.Println("placed:", st.Placed, "late:", st.Late, "dropped:", st.Dropped)
	// Output:
	// first sounding frame: 14400 amplitude: 0.25
	// placed: 1 late: 0 dropped: 0
}
