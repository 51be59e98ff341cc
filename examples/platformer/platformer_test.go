package main

import (
	"testing"

	"github.com/metronome-go/metronome/input"
)

// TestStartsOnTheGround: the player starts at the map's start object and
// stands on the ground under it.
func TestStartsOnTheGround(t *testing.T) {
	sim := start(t)
	step(t, sim, 30)
	f := feet(t, sim)
	_, p := player(t, sim)
	t.Logf("feet at %v, grounded %v, coins %d/%d", f, p.Grounded, progress(sim).Coins, progress(sim).Total)
	if f.Y != 15*16 || !p.Grounded {
		t.Errorf("feet at %v, grounded %v; want standing on row 15 (y=240)", f, p.Grounded)
	}
}

// TestRunRight: holding D runs right at run_speed.
func TestRunRight(t *testing.T) {
	sim := start(t)
	step(t, sim, 5)
	x0 := feet(t, sim).X
	hold(sim, next(sim), input.KeyD, 60)
	step(t, sim, 30)
	if got := feet(t, sim).X - x0; got < 58 || got > 62 {
		t.Errorf("ran %v pixels in 30 ticks, want 60 (120 px/s)", got)
	}
}
