package main

import (
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/geom"
)

// TestWallBlipStartsOnItsTick hears the game: with the sound mixed
// offline on the session's clock, the wall's blip starts exactly at the
// span start of the tick in which the ball met the wall, plus the output
// latency, however the ticks fall against the audio frames.
func TestWallBlipStartsOnItsTick(t *testing.T) {
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Sound: true, Sets: small})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	serve(t, sim)
	// Hold the ball still in mid-court until every earlier sound is over.
	aim(t, sim, 480, 350, geom.V(0, 0))
	step(t, sim, 120)
	placed := sim.Mixer().Stats().Placed

	aim(t, sim, 945, 350, geom.V(480, 240)) // meets the right wall in the next tick
	step(t, sim, 1)
	if _, _, b := ball(t, sim); b.Vel.X >= 0 {
		t.Fatalf("the ball did not bounce off the right wall: velocity %v", b.Vel)
	}
	span := ecs.GetResource[ecs.Time](sim.App.World()).Start // the bounce's tick
	aim(t, sim, 480, 350, geom.V(0, 0))
	step(t, sim, 10)
	if st := sim.Mixer().Stats(); st.Placed != placed+1 || st.Late != 0 || st.Dropped != 0 {
		t.Fatalf("placed %d (before the bounce %d), late %d, dropped %d; want the one blip placed", st.Placed, placed, st.Late, st.Dropped)
	}

	o := sim.Mixer().Options()
	want := int(audio.DurationFrames(time.Duration(span-sim.At(0)), o.Rate) + audio.DurationFrames(o.Latency, o.Rate))
	out := sim.Samples(time.Duration(span-sim.At(0)) + o.Latency + 100*time.Millisecond)
	// Look from half a second before: the earlier sounds ended a second
	// before the bounce.
	from := want - o.Rate/2
	first := from + slices.IndexFunc(out[2*from:], func(v float32) bool { return v != 0 })/2
	t.Logf("blip of the tick at %v: first sounding frame %d, want %d", time.Duration(span-sim.At(0)), first, want)
	if first != want {
		t.Errorf("the blip's first sounding frame is %d; want %d (the tick at %v plus %v)", first, want, time.Duration(span-sim.At(0)), o.Latency)
	}
}
