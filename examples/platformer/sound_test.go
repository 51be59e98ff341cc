package main

import (
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

// TestJumpSoundStartsOnItsTick hears the game: with the sound mixed
// offline on the session's clock, the jump's sound is the one sound
// placed, and it starts exactly at the span start of the jump's tick plus
// the output latency.
func TestJumpSoundStartsOnItsTick(t *testing.T) {
	sim := startWith(t, frameworktest.Options{Sound: true})
	step(t, sim, 60)
	if st := sim.Mixer().Stats(); st.Placed != 0 {
		t.Fatalf("%d sounds placed while standing at the start, want none", st.Placed)
	}
	hold(sim, next(sim), input.KeySpace, 10)
	step(t, sim, 1)
	if _, p := player(t, sim); p.Vel.Y >= 0 {
		t.Fatalf("no jump: speed %v", p.Vel.Y)
	}
	span := ecs.GetResource[ecs.Time](sim.App.World()).Start // the jump's tick
	step(t, sim, 10)
	if st := sim.Mixer().Stats(); st.Placed != 1 || st.Late != 0 || st.Dropped != 0 {
		t.Fatalf("placed %d, late %d, dropped %d; want the jump's sound placed", st.Placed, st.Late, st.Dropped)
	}
	o := sim.Mixer().Options()
	at := time.Duration(span - sim.At(0))
	want := int(audio.DurationFrames(at, o.Rate) + audio.DurationFrames(o.Latency, o.Rate))
	out := sim.Samples(at + o.Latency + 100*time.Millisecond)
	first := slices.IndexFunc(out, func(v float32) bool { return v != 0 }) / 2
	t.Logf("jump of the tick at %v: first sounding frame %d, want %d", at, first, want)
	if first != want {
		t.Errorf("the jump's first sounding frame is %d; want %d (the tick at %v plus %v)", first, want, at, o.Latency)
	}
}
