package frameworktest_test

import (
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// beepGame plays a 20-frame beep of amplitude 0.5 from every update that
// sees "fire" pressed, through the framework's own wiring: it adds no
// Audio resource of its own. starts collects the span start of each
// update that played one; sound gets the game's view of its output.
func beepGame(t *testing.T, starts *[]timing.Instant, sound **framework.Sound) framework.Game {
	return framework.Game{
		Title: "beep",
		Setup: func(s *framework.Setup) error {
			*sound = s.Sound
			fire, err := s.Actions.RegisterNames("fire", "Space")
			if err != nil {
				return err
			}
			beep := constantSound(t, s.Assets, "beep", 20, 0.5)
			s.App.AddSystem(ecs.Update, ecs.System{Name: "beep", Run: func(ctx *ecs.Sys) {
				if !ctx.Input.Pressed(fire) {
					return
				}
				if _, err := ctx.PlaySound(beep, audio.DefaultParams()); err != nil {
					ctx.Fail(err)
				}
				*starts = append(*starts, ctx.Time.Start)
			}})
			return nil
		},
	}
}

var beepSets = []string{"timing.mode=fixed", "audio.latency=50ms", "audio.master_volume=1", "audio.effects_volume=1"}

// With Options.Sound, a game's sounds are mixed offline on the session's
// clock: each beep starts at exactly its update's span start plus the
// latency, in both runtime modes, and the mixer's counters say so.
func TestSoundIsMixedOnTheVirtualClock(t *testing.T) {
	for _, mode := range []string{"sequential", "concurrent"} {
		t.Run(mode, func(t *testing.T) {
			var starts []timing.Instant
			var sound *framework.Sound
			sim, err := frameworktest.New(beepGame(t, &starts, &sound), frameworktest.Options{
				Sound: true,
				Sets:  append([]string{"runtime.mode=" + mode}, beepSets...),
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, at := range []time.Duration{100, 400, 700} {
				sim.Input.Tap(sim.At(at*time.Millisecond), input.KeySpace, 5*time.Millisecond)
			}
			if err := sim.Step(30); err != nil {
				t.Fatal(err)
			}
			if st := sim.Mixer().Stats(); st.Placed != 2 {
				t.Errorf("after half a second: %d sounds placed, want 2", st.Placed)
			}
			if err := sim.RunTicks(30); err != nil {
				t.Fatal(err)
			}
			if len(starts) != 3 {
				t.Fatalf("%d beeps played (%v), want one per tap, 3", len(starts), starts)
			}
			const rate, latency = 48000, 2400 // 50 ms at 48 kHz
			out := sim.Samples(time.Second)
			if len(out) != 2*rate {
				t.Fatalf("Samples(1s) has %d values, want %d (stereo frames)", len(out), 2*rate)
			}
			for _, s := range starts {
				f := int(audio.DurationFrames(time.Duration(s-sim.At(0)), rate)) + latency
				if out[2*f-2] != 0 || out[2*f] != 0.5 || out[2*f+1] != 0.5 || out[2*(f+19)] != 0.5 || out[2*(f+20)] != 0 {
					t.Errorf("beep of the update at %v: frames %d..%d = %g, %g .. %g, %g; want 0, then 0.5 for 20 frames", time.Duration(s-sim.At(0)), f-1, f+20, out[2*f-2], out[2*f], out[2*(f+19)], out[2*(f+20)])
				}
			}
			st := sim.Mixer().Stats()
			if st.Placed != 3 || st.Late != 0 || st.Dropped != 0 {
				t.Errorf("placed/late/dropped %d/%d/%d, want 3/0/0", st.Placed, st.Late, st.Dropped)
			}
			// The game sees the same output through Setup.Sound.
			if ss := sound.Stats(); !sound.Playing() || sound.Off() != "" || ss.Mixer.Placed != 3 || ss.Latency != 50*time.Millisecond {
				t.Errorf("Setup.Sound: playing %v, off %q, placed %d, latency %v; want playing, 3 placed, 50ms", sound.Playing(), sound.Off(), ss.Mixer.Placed, ss.Latency)
			}
			if again := sim.Samples(500 * time.Millisecond); !slices.Equal(again, out[:rate]) {
				t.Errorf("Samples(500ms) has %d values, want the first %d of what was mixed", len(again), rate)
			}
		})
	}
}

// Without Options.Sound, or with audio disabled, a game's sound requests
// go nowhere and there is no mixer.
func TestSoundOff(t *testing.T) {
	for _, o := range []frameworktest.Options{
		{Sets: beepSets},
		{Sound: true, Sets: append([]string{"audio.enabled=false"}, beepSets...)},
	} {
		var starts []timing.Instant
		var sound *framework.Sound
		sim, err := frameworktest.New(beepGame(t, &starts, &sound), o)
		if err != nil {
			t.Fatal(err)
		}
		sim.Input.Tap(sim.At(100*time.Millisecond), input.KeySpace, 5*time.Millisecond)
		if err := sim.RunTicks(20); err != nil {
			t.Fatal(err)
		}
		if sim.Mixer() != nil || sim.Samples(time.Second) != nil {
			t.Errorf("options %+v: a mixer or samples, want none", o)
		}
		if sound.Playing() || sound.Off() == "" {
			t.Errorf("options %+v: Setup.Sound playing %v, off %q; want silent, saying why", o, sound.Playing(), sound.Off())
		}
		if len(starts) != 1 {
			t.Errorf("options %+v: %d updates played a beep, want 1 (the game runs the same, silently)", o, len(starts))
		}
	}
}
