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
	var snap input.Snapshot // the platform thread's
	src.Poll(8*ms, &snap)
	q.PushPoll(8*ms, &snap)

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

// An analog action takes its value from a stick, past its dead zone, or
// from keys standing in for it. Movement uses its simulation time, the
// integral of the value over the observed interval scaled to the update.
func ExampleActions_RegisterAxis() {
	actions := input.NewActions()
	moveX := actions.MustRegisterAxis("move_x",
		input.GamepadLeftX.Bind().WithDeadZone(0.2),
		input.ButtonAxis(input.KeyLeft, input.KeyRight))
	ms := timing.Instant(time.Millisecond)
	src := inputtest.NewScript().
		Gamepad(0, true).
		Axis(0, input.GamepadLeftX, 0.1).    // resting noise, inside the dead zone
		Axis(50*ms, input.GamepadLeftX, 0.6) // pushed right for the second half

	q, err := input.NewQueue(actions, input.DefaultPollingOptions())
	if err != nil {
		panic(err)
	}
	q.Start(0)
	var snap input.Snapshot
	src.Poll(60*ms, &snap)
	q.PushPoll(60*ms, &snap)
	var tick input.Tick
	q.TakeAll(100*ms, &tick)
	const speed = 200.0 // units per second at full deflection
	fmt.Printf("value %.2f, held %v, pressed %v\n", tick.Value(moveX), tick.Held(moveX), tick.Pressed(moveX))
	fmt.Printf("moved %.1f units in a 20 ms update\n", speed*tick.SimulationSeconds(moveX, 20*time.Millisecond))
	// Output:
	// value 0.50, held 50ms, pressed true
	// moved 1.0 units in a 20 ms update
}

// Axis bindings have a text form for config files; a plain button name is
// one too.
func ExampleParseAxisBinding() {
	for _, s := range []string{"GamepadLeftY invert", "A/D", "GamepadRightTrigger deadzone=0.05", "W"} {
		b, err := input.ParseAxisBinding(s)
		fmt.Printf("%-34q -> %v (%v)\n", s, b, err)
	}
	_, err := input.ParseAxisBinding("GamepadLeftZ")
	fmt.Println(err)
	// Output:
	// "GamepadLeftY invert"              -> GamepadLeftY invert deadzone=0.2 (<nil>)
	// "A/D"                              -> A/D (<nil>)
	// "GamepadRightTrigger deadzone=0.05" -> GamepadRightTrigger deadzone=0.05 (<nil>)
	// "W"                                -> W (<nil>)
	// input: unknown axis or button name "GamepadLeftZ" (did you mean "GamepadLeftX", "GamepadLeftY", "GamepadLeftTrigger"?)
}
