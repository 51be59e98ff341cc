package schedule_test

import (
	"fmt"

	"github.com/metronome-go/metronome/schedule"
)

// A turret with a 3-tick cooldown tries to shoot every tick, while a queue
// delivers a repeating "wave" every 4 ticks and a one-off delayed effect.
func Example() {
	q, err := schedule.New[string](schedule.Options{Capacity: 16})
	if err != nil {
		panic(err)
	}
	if _, err := q.Every(4, 4, schedule.Skip(), "wave"); err != nil {
		panic(err)
	}
	if _, err := q.After(6, "explosion"); err != nil {
		panic(err)
	}

	var turret schedule.Cooldown
	for tick := uint64(1); tick <= 8; tick++ {
		// Once per simulation tick, before the systems run.
		_ = q.Advance(tick, func(d schedule.Delivery[string]) {
			fmt.Printf("tick %d: %s\n", tick, d.Payload)
		})
		if turret.Use(tick, 3) {
			fmt.Printf("tick %d: turret fires\n", tick)
		} else {
			fmt.Printf("tick %d: turret ready in %d\n", tick, turret.Remaining(tick))
		}
	}
	// Output:
	// tick 1: turret fires
	// tick 2: turret ready in 2
	// tick 3: turret ready in 1
	// tick 4: wave
	// tick 4: turret fires
	// tick 5: turret ready in 2
	// tick 6: explosion
	// tick 6: turret ready in 1
	// tick 7: turret fires
	// tick 8: wave
	// tick 8: turret ready in 2
}

// When Advance jumps over ticks, each periodic entry's late policy decides
// what it owes; the phase never moves.
func ExampleQueue_Every() {
	q, _ := schedule.New[string](schedule.Options{Capacity: 4})
	_, _ = q.Every(10, 10, schedule.Skip(), "skip")
	_, _ = q.Every(10, 10, schedule.Coalesce(), "coalesce")
	_, _ = q.Every(10, 10, schedule.CatchUp(2), "catch up")

	// Ticks 10, 20, 30 and 40 are all due at 45.
	_ = q.Advance(45, func(d schedule.Delivery[string]) {
		fmt.Printf("%-8s due %d count %d dropped %d\n", d.Payload, d.Due, d.Count, d.Dropped)
	})
	fmt.Println("then at 50")
	_ = q.Advance(50, func(d schedule.Delivery[string]) {
		fmt.Printf("%-8s due %d\n", d.Payload, d.Due)
	})
	// Output:
	// catch up due 30 count 1 dropped 2
	// skip     due 40 count 1 dropped 3
	// coalesce due 40 count 4 dropped 0
	// catch up due 40 count 1 dropped 0
	// then at 50
	// skip     due 50
	// coalesce due 50
	// catch up due 50
}

// A handle kept on a component can cancel or move the entry; once the entry
// is gone the handle is stale and every call through it does nothing.
func ExampleQueue_Cancel() {
	q, _ := schedule.New[string](schedule.Options{Capacity: 2})
	poison, _ := q.After(5, "poison ends")
	fmt.Println(q.Cancel(poison)) // cured early
	fmt.Println(q.Cancel(poison)) // stale: nothing to do
	moved, err := q.Reschedule(poison, 9)
	fmt.Println(moved, err)
	// Output:
	// true
	// false
	// false <nil>
}

func ExampleCooldown() {
	var dash schedule.Cooldown
	dash.Start(100, 40) // used at tick 100, ready again 40 ticks later
	fmt.Println(dash.Ready(120), dash.Remaining(120), dash.Progress(120))
	fmt.Println(dash.Ready(140), dash.ReadyAt())
	// Output:
	// false 20 0.5
	// true 140
}

func ExampleRepeat() {
	spawn := schedule.NewRepeat(60, 60) // every second at 60 ticks per second
	for _, tick := range []uint64{59, 60, 61, 250} {
		fmt.Printf("tick %d: spawn %d\n", tick, spawn.Fire(tick))
	}
	next, _ := spawn.Next()
	fmt.Println("next at", next)
	// Output:
	// tick 59: spawn 0
	// tick 60: spawn 1
	// tick 61: spawn 0
	// tick 250: spawn 3
	// next at 300
}
