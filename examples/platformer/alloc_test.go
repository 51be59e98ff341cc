//go:build !race

package main

import (
	"slices"
	"testing"

	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

// TestTickAllocatesNothing runs the whole game headless while the player
// runs, jumps, raises dust and collects a coin's sparkles, and counts the
// allocations of its ticks: the game's systems, the map's drawing, the
// particles and the frame the runtime publishes. The test harness itself
// allocates a little on each Step (its clock's waiter), so the test
// compares a Step of one tick with a Step of 30: the 29 more ticks must
// add nothing.
func TestTickAllocatesNothing(t *testing.T) {
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Sets: slices.Clone(small)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	sim.Fakes.Renderer.Discard = true
	hold(sim, 1, input.KeyD, 100000)
	for i := 0; i < 2000; i += 40 {
		hold(sim, 20+i, input.KeySpace, 20)
	}
	step(t, sim, 60) // warm up: the coin at the start is taken, dust is flying
	if progress(sim).Coins == 0 {
		t.Fatal("no coin taken while warming up")
	}
	one := testing.AllocsPerRun(10, func() { step(t, sim, 1) })
	many := testing.AllocsPerRun(10, func() { step(t, sim, 30) })
	t.Logf("allocations: %v for a Step of 1 tick, %v for a Step of 30", one, many)
	if many != one {
		t.Errorf("a Step of 30 ticks allocates %v times, a Step of 1 tick %v: ticks allocate", many, one)
	}
}

// TestMenuTickAllocatesNothing does the same on the title menu while the
// focus moves up and down: the UI's layout, navigation and drawing
// allocate nothing per tick either.
func TestMenuTickAllocatesNothing(t *testing.T) {
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Sets: append(slices.Clone(small), "game.title=true")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	sim.Fakes.Renderer.Discard = true
	for i := 10; i < 2000; i += 8 {
		key := input.KeyDown
		if i%16 == 2 {
			key = input.KeyUp
		}
		hold(sim, i, key, 2)
	}
	step(t, sim, 60)
	if screen(sim) != Title {
		t.Fatalf("screen %v, want the title", screen(sim))
	}
	one := testing.AllocsPerRun(10, func() { step(t, sim, 1) })
	many := testing.AllocsPerRun(10, func() { step(t, sim, 30) })
	t.Logf("allocations: %v for a Step of 1 tick, %v for a Step of 30", one, many)
	if many != one {
		t.Errorf("a Step of 30 ticks allocates %v times, a Step of 1 tick %v: menu ticks allocate", many, one)
	}
}

// TestOptionsTickAllocatesNothing: on the options screen too, with its
// sliders, toggle and binding rows, a tick where the focus moves up and
// down allocates nothing.
func TestOptionsTickAllocatesNothing(t *testing.T) {
	sim, _ := openOptions(t, "")
	sim.Fakes.Renderer.Discard = true
	for i := next(sim) + 10; i < 2000; i += 8 {
		key := input.KeyDown
		if i%16 == 2 {
			key = input.KeyUp
		}
		hold(sim, i, key, 2)
	}
	step(t, sim, 60)
	if screen(sim) != Options {
		t.Fatalf("screen %v, want the options", screen(sim))
	}
	one := testing.AllocsPerRun(10, func() { step(t, sim, 1) })
	many := testing.AllocsPerRun(10, func() { step(t, sim, 30) })
	t.Logf("allocations: %v for a Step of 1 tick, %v for a Step of 30", one, many)
	if many != one {
		t.Errorf("a Step of 30 ticks allocates %v times, a Step of 1 tick %v: options ticks allocate", many, one)
	}
}
