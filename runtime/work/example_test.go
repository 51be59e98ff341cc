package work_test

import (
	"context"
	"fmt"

	"github.com/metronome-go/metronome/runtime/work"
	"github.com/metronome-go/metronome/timing"
)

// A session outside a runtime: its results go to a queue that this
// goroutine, standing for the simulation owner, drains. In a game the
// runtime makes the session and the results run before an update.
func ExampleGo() {
	toSim := make(chan func(), 1)
	post := func(f func()) error { toSim <- f; return nil }
	s, err := work.NewSession(work.Options{Workers: 2}, post, post, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	err = work.Go(s.Group("level"), func(ctx context.Context) (int, error) {
		return 64 * 64, nil // on a worker
	}, func(cells int, err error) {
		fmt.Println("level of", cells, "cells", err) // on the owner
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	(<-toSim)()
	s.Close()
	clock := timing.SystemClock{}
	fmt.Println(s.Settle(clock, clock.NewWaiter(), 0, func() {}), s.Pool().Running())
	// Output:
	// level of 4096 cells <nil>
	// <nil> 0
}
