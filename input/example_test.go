package input_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/timing"
)

// Actions are registered once, with bindings from code or from a config file.
func ExampleActions() {
	actions := input.NewActions()
	jump := actions.MustRegister("jump", input.KeySpace, input.GamepadA)
	fire, err := actions.RegisterNames("fire", "MouseLeft", "LeftControl")
	fmt.Println(actions.Name(jump), actions.Bindings(jump), err)
	fmt.Println(actions.Name(fire), actions.Bindings(fire))

	_, err = actions.RegisterNames("dash", "LeftShfit")
	var ne *input.NameError
	fmt.Println(errors.As(err, &ne), ne.Suggestions)
	// Output:
	// jump [Space GamepadA] <nil>
	// fire [MouseLeft LeftControl]
	// true [LeftShift]
}

// A queue turns polls into one tick per update. Here a scripted source stands
// in for the window; the runtime polls on the platform thread and takes on
// the simulation goroutine.
func ExampleQueue() {
	actions := input.NewActions()
	jump := actions.MustRegister("jump", input.KeySpace)
	q, err := input.NewQueue(actions, input.DefaultPollingOptions())
	if err != nil {
		panic(err)
	}
	ms := timing.Instant(time.Millisecond)
	src := inputtest.NewScript().Tap(3*ms, input.KeySpace, 2*time.Millisecond)
	q.Start(0)
	q.Poll(src, 8*ms)

	var tick input.Tick
	q.TakeAll(16*ms, &tick) // first update: the tap, though it was released
	fmt.Println(tick.Pressed(jump), tick.Released(jump), tick.Down(jump), tick.Held(jump))
	q.TakeAll(16*ms, &tick) // a second update in the same batch: nothing new
	fmt.Println(tick.Pressed(jump), tick.Observed())
	// Output:
	// true true false 2ms
	// false 0s
}

// Seed 000's movement policy: a 50 ms tap observed in a 500 ms interval.
func ExampleTick_SimulationTime() {
	actions := input.NewActions()
	right := actions.MustRegister("right", input.KeyRight)
	ms := timing.Instant(time.Millisecond)
	var tick input.Tick
	tick.Fill(actions, 0, 500*ms, input.State{}, []input.Record{
		{Time: 100 * ms, Kind: input.RecordPress, Button: input.KeyRight},
		{Time: 150 * ms, Kind: input.RecordRelease, Button: input.KeyRight},
	})
	fmt.Println(tick.SimulationTime(right, 20*time.Millisecond))
	fmt.Println(tick.SimulationTime(right, 100*time.Millisecond))
	fmt.Println(tick.Held(right))
	// Output:
	// 2ms
	// 10ms
	// 50ms
}

func ExampleParseButton() {
	b, err := input.ParseButton("escape")
	fmt.Println(b, b.Device(), err)
	_, err = input.ParseButton("Spcae")
	fmt.Println(err)
	// Output:
	// Escape keyboard <nil>
	// input: unknown button name "Spcae" (did you mean "Space"?)
}
