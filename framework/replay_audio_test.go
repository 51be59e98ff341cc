package framework_test

import (
	"errors"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/timing"
)

// beepGame plays a short constant-valued beep every 10 ticks and one on
// every press of "fire", and keeps the span start of every request and
// the session's sound output.
func beepGame(t *testing.T, starts *[]timing.Instant) framework.Game {
	return beepGameSound(t, starts, new(*framework.Sound))
}

func beepGameSound(t *testing.T, starts *[]timing.Instant, sound **framework.Sound) framework.Game {
	return framework.Game{Title: "beeps", Seed: 5, Setup: func(s *framework.Setup) error {
		*sound = s.Sound
		fire, err := s.Actions.RegisterNames("fire", "Space")
		if err != nil {
			return err
		}
		data := make([]float32, 20)
		for i := range data {
			data[i] = 0.25
		}
		snd, err := audio.NewSound("beep", audio.DefaultOptions().Rate, 1, data)
		if err != nil {
			return err
		}
		beep, err := s.Assets.AddSound(snd)
		if err != nil {
			return err
		}
		s.App.AddSystem(ecs.Update, ecs.System{Name: "beep", Run: func(ctx *ecs.Sys) {
			if ctx.Time.Number%10 == 5 || ctx.Input.Pressed(fire) {
				if _, err := ctx.PlaySound(beep, audio.DefaultParams()); err != nil {
					ctx.Fail(err)
				}
				*starts = append(*starts, ctx.Time.Start)
			}
		}})
		return nil
	}}
}

// fakeDevice stands for the output device: it starts the mixer's timeline
// on the clock when opened, as a device does, and the test renders the
// mixer afterwards.
type fakeDevice struct {
	opened int
	m      *audio.Mixer
}

func (d *fakeDevice) open(m *audio.Mixer, clock timing.Clock) (io.Closer, error) {
	d.opened++
	d.m = m
	m.Start(clock.Now())
	return io.NopCloser(nil), nil
}

// rises returns the frames at which the left channel of m's output steps
// up by 0.25 (a beep starting), rendering frames frames.
func rises(m *audio.Mixer, frames int) []int {
	buf := make([]float32, 2*480)
	var out []int
	prev := float32(0)
	for f := 0; f < frames; f += len(buf) / 2 {
		m.Render(buf)
		for i := 0; i < len(buf); i += 2 {
			if math.Abs(float64(buf[i]-prev-0.25)) < 1e-6 {
				out = append(out, f+i/2)
			}
			prev = buf[i]
		}
	}
	return out
}

// A replay in a window plays the recorded sounds on the device, at the
// recorded spacing, placed (none late or dropped) though the recording's
// clock is not the replay's; a headless replay opens no device (issue 18).
func TestWindowedReplayPlaysRecordedSounds(t *testing.T) {
	testdisplay.Require(t)
	path := filepath.Join(t.TempDir(), "beeps.rec")
	var live []timing.Instant
	sim, err := frameworktest.New(beepGame(t, &live), frameworktest.Options{Record: path, Sets: []string{"timing.mode=fixed", "timing.rate=60"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Duration{120, 333, 610} {
		sim.Input.Tap(sim.At(at*time.Millisecond), input.KeySpace, 20*time.Millisecond)
	}
	if err := sim.RunTicks(60); err != nil {
		t.Fatal(err)
	}
	if len(live) != 9 {
		t.Fatalf("the session played %d beeps (%v), want 6 timed and 3 fired", len(live), live)
	}

	var dev fakeDevice
	defer framework.SetOpenDevice(dev.open)()

	var headless []timing.Instant
	var quiet *framework.Sound
	res, err := framework.Replay(beepGameSound(t, &headless, &quiet), path, framework.ReplayOptions{})
	if err != nil || res.Ticks != 60 {
		t.Fatalf("headless replay: %d ticks, %v; want 60 and no error", res.Ticks, err)
	}
	if dev.opened != 0 {
		t.Errorf("a headless replay opened the audio device %d times; want none", dev.opened)
	}
	if quiet.Playing() || quiet.Off() != "this session has no sound output" {
		t.Errorf("Setup.Sound in a headless replay: playing %v, off %q; want silent, saying it has no output", quiet.Playing(), quiet.Off())
	}
	if len(headless) != len(live) {
		t.Errorf("headless replay requested %d beeps, the session %d", len(headless), len(live))
	}

	var replayed []timing.Instant
	var sound *framework.Sound
	testdisplay.OnMain(func() {
		res, err = framework.Replay(beepGameSound(t, &replayed, &sound), path, framework.ReplayOptions{Window: true, Headless: true})
	})
	if err != nil || res.Ticks != 60 {
		t.Fatalf("windowed replay: %d ticks, %v; want 60 and no error", res.Ticks, err)
	}
	if dev.opened != 1 || dev.m == nil {
		t.Fatalf("the windowed replay opened the audio device %d times; want once", dev.opened)
	}
	rate := dev.m.Options().Rate
	got := rises(dev.m, 10*rate) // the session's second, the latency, and room for a slow window start
	st := dev.m.Stats()
	if st.Placed != uint64(len(live)) || st.Late != 0 || st.Dropped != 0 {
		t.Errorf("mixer placed/late/dropped %d/%d/%d; want all %d recorded beeps placed", st.Placed, st.Late, st.Dropped, len(live))
	}
	if len(got) != len(live) {
		t.Fatalf("%d beeps in the output at frames %v, want %d", len(got), got, len(live))
	}
	// What the game sees of its output (Setup.Sound): playing, the
	// mixer's counters and latency; a stand-in device keeps no stats.
	if ss := sound.Stats(); !sound.Playing() || sound.Off() != "" || ss.Mixer.Placed != st.Placed || ss.Latency != dev.m.Options().Latency || ss.HasDevice {
		t.Errorf("Setup.Sound: playing %v, off %q, stats %+v; want playing with the mixer's counters", sound.Playing(), sound.Off(), ss)
	}
	for i := 1; i < len(live); i++ {
		want := float64(live[i]-live[0]) * float64(rate) / 1e9
		if d := float64(got[i] - got[0]); math.Abs(d-want) > 1 {
			t.Errorf("beep %d starts %v frames after the first, want %.1f (its span's distance in the recording)", i, d, want)
		}
	}

	// Without a device the windowed replay runs silently: a sound system
	// never stops a game.
	defer framework.SetOpenDevice(func(*audio.Mixer, timing.Clock) (io.Closer, error) {
		return nil, errors.New("no device here")
	})()
	var silent []timing.Instant
	testdisplay.OnMain(func() {
		res, err = framework.Replay(beepGameSound(t, &silent, &sound), path, framework.ReplayOptions{Window: true, Headless: true})
	})
	if err != nil || res.Ticks != 60 || len(silent) != len(live) {
		t.Errorf("windowed replay without a device: %d ticks, %d beeps requested, %v; want 60, %d and no error", res.Ticks, len(silent), err, len(live))
	}
	if off := sound.Off(); sound.Playing() || !strings.Contains(off, "no audio device: no device here") || sound.Stats() != (framework.SoundStats{}) {
		t.Errorf("Setup.Sound without a device: playing %v, off %q; want silent, saying why", sound.Playing(), off)
	}
}
