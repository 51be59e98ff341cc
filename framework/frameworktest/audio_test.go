package frameworktest_test

import (
	"math"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// soundLog is what one session of the sound game did: its mixer (rendered
// offline after the session) and the span start of every shot it played.
type soundLog struct {
	m      *audio.Mixer
	shots  []timing.Instant
	humOn  timing.Instant
	humOff timing.Instant
}

const (
	soundRate    = 48000
	soundLatency = 50 * time.Millisecond
)

func constantSound(t *testing.T, lib *assets.Library, name string, n int, v float32) assets.Sound {
	d := make([]float32, n)
	for i := range d {
		d[i] = v
	}
	s, err := audio.NewSound(name, soundRate, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	h, err := lib.AddSound(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// soundGame shoots while "fire" is pressed (a sound per shot), clicks
// every 10 ticks, and plays a looping hum from an entity alive from tick
// 20 to tick 80. The game adds the audio resource itself, with a mixer it
// renders offline, so it needs nothing of the framework's audio wiring.
func soundGame(t *testing.T, log *soundLog) framework.Game {
	return framework.Game{
		Title: "sound",
		Seed:  3,
		Setup: func(s *framework.Setup) error {
			fire, err := s.Actions.RegisterNames("fire", "Space")
			if err != nil {
				return err
			}
			o := audio.DefaultOptions()
			o.Rate, o.Latency, o.QueueSize = soundRate, soundLatency, 1<<16
			if log.m, err = audio.NewMixer(o); err != nil {
				return err
			}
			ecs.AddAudio(s.App, log.m.Player())
			shot := constantSound(t, s.Assets, "shot", 20, 0.5)
			click := constantSound(t, s.Assets, "click", 5, 0.125)
			hum := constantSound(t, s.Assets, "hum", 64, 0.015625)
			var humming ecs.Entity
			hums := ecs.NewFilter1[ecs.SoundSource](s.App.World())
			s.App.AddSystem(ecs.Update, ecs.System{Name: "sounds", Run: func(ctx *ecs.Sys) {
				n := ctx.Time.Number
				if ctx.Input.Pressed(fire) {
					if _, err := ctx.PlaySound(shot, audio.DefaultParams()); err != nil {
						ctx.Fail(err)
					}
					log.shots = append(log.shots, ctx.Time.Start)
				}
				if n%10 == 5 {
					if _, err := ctx.PlaySound(click, audio.DefaultParams()); err != nil {
						ctx.Fail(err)
					}
				}
				switch n {
				case 20:
					ecs.With(ctx.Commands.Spawn(), ecs.LoopingSource(hum))
					log.humOn = ctx.Time.Start
				case 21:
					q := hums.Query()
					for q.Next() {
						humming = q.Entity()
					}
				case 80:
					ctx.Commands.Despawn(humming)
					log.humOff = ctx.Time.Start
				}
			}})
			return nil
		},
	}
}

// render starts m at origin and renders frames frames of its left channel.
func renderOffline(m *audio.Mixer, origin timing.Instant, frames int) []float32 {
	m.Start(origin)
	buf := make([]float32, 2*512)
	var left []float32
	for len(left) < frames {
		m.Render(buf)
		for i := 0; i < len(buf); i += 2 {
			left = append(left, buf[i])
		}
	}
	return left[:frames]
}

func frameOf(origin, t timing.Instant) int {
	return int(int64(t-origin)*soundRate/int64(time.Second)) + int(int64(soundLatency)*soundRate/int64(time.Second))
}

// A recorded session and its replay make the same sound requests on the
// same spans, so offline they render the same samples, frame for frame;
// and each shot starts exactly at its update's span plus the latency, even
// though a slow renderer makes the runtime run the updates in bursts.
func TestReplayPlaysTheSameSounds(t *testing.T) {
	for _, mode := range []string{"sequential", "concurrent"} {
		t.Run(mode, func(t *testing.T) { replaySounds(t, mode) })
	}
}

func replaySounds(t *testing.T, mode string) {
	path := filepath.Join(t.TempDir(), "sound.rec")
	var live soundLog
	sim, err := frameworktest.New(soundGame(t, &live), frameworktest.Options{
		Record:     path,
		RenderCost: 40 * time.Millisecond, // frames are slow: updates run in bursts of two or three
		Sets:       []string{"timing.mode=fixed", "timing.max_fixed_updates=4", "runtime.mode=" + mode},
	})
	if err != nil {
		t.Fatal(err)
	}
	origin := sim.At(0)
	for _, at := range []time.Duration{200, 450, 460, 900, 1150} {
		sim.Input.Tap(sim.At(at*time.Millisecond), input.KeySpace, 5*time.Millisecond)
	}
	if err := sim.RunTicks(120); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d presents for 120 updates", sim.Presents())
	if sim.Presents() > 90 {
		t.Errorf("%d presents for 120 updates: the slow renderer should have batched updates", sim.Presents())
	}
	frames := frameOf(origin, origin+timing.Instant(2200*time.Millisecond))
	want := renderOffline(live.m, origin, frames)

	var replayed soundLog
	rep, err := frameworktest.NewReplay(soundGame(t, &replayed), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.RunTicks(1 << 20); err != nil {
		t.Fatalf("replay: %v", err)
	}
	if !slices.Equal(replayed.shots, live.shots) || replayed.humOn != live.humOn || replayed.humOff != live.humOff {
		t.Errorf("replay played shots at %v, hum %v to %v; the session at %v, %v to %v", replayed.shots, replayed.humOn, replayed.humOff, live.shots, live.humOn, live.humOff)
	}
	got := renderOffline(replayed.m, origin, frames)
	if !slices.Equal(got, want) {
		i := 0
		for i < len(got) && got[i] == want[i] {
			i++
		}
		t.Errorf("the replay's samples differ from the session's from frame %d", i)
	}
	if a, b := live.m.Stats(), replayed.m.Stats(); a.Placed != b.Placed || a.Late != b.Late || a.Dropped != b.Dropped {
		t.Errorf("placed/late/dropped: session %d/%d/%d, replay %d/%d/%d", a.Placed, a.Late, a.Dropped, b.Placed, b.Late, b.Dropped)
	}

	// The session itself put every sound where it belongs.
	if len(live.shots) != 5 {
		t.Errorf("%d shots (%v), want one per tap, 5", len(live.shots), live.shots)
	}
	step := func(f int, d float32) bool { return math.Abs(float64(want[f]-want[f-1]-d)) < 1e-6 }
	for _, s := range live.shots {
		if f := frameOf(origin, s); !step(f, 0.5) {
			t.Errorf("shot of the update starting %v: frames %d, %d = %g, %g; want a rise of 0.5 at %d", time.Duration(s-origin), f-1, f, want[f-1], want[f], f)
		}
	}
	if f := frameOf(origin, live.humOn); !step(f, 0.015625) {
		t.Errorf("hum start: frames %d, %d = %g, %g; want a rise of 1/64", f-1, f, want[f-1], want[f])
	}
	// The stop fades out over ecs.DefaultStopFade (10 ms, 480 frames) from
	// the despawning update's frame.
	if f := frameOf(origin, live.humOff); want[f-1] != 0.015625 || !(want[f+1] < want[f-1]) || want[f+240] > 0.008 || want[f+480] != 0 {
		t.Errorf("hum stop at frame %d: %g before, %g after, %g 5 ms in, %g 10 ms in; want a 10 ms fade from 1/64 to 0", f, want[f-1], want[f+1], want[f+240], want[f+480])
	}
}
