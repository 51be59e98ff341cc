package ecs_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

const (
	audioRate    = 48000
	audioLatency = 50 * time.Millisecond
	audioStep    = 16_666_667 * time.Nanosecond // 60 Hz, not a whole number of frames
)

// audioOrigin is the instant matched to the mixer's frame 0.
const audioOrigin = timing.Instant(3_000_000_000)

// frameAt is the placement rule written out independently of the audio
// package: (t - origin) × rate / 1e9 + latency frames, for t after origin.
func frameAt(d time.Duration) int {
	return int(int64(d)*audioRate/int64(time.Second)) + int(int64(audioLatency)*audioRate/int64(time.Second))
}

// audioRig is an App playing into a mixer rendered offline.
type audioRig struct {
	t     testing.TB
	app   *ecs.App
	m     *audio.Mixer
	au    *ecs.Audio
	lib   *assets.Library
	ticks []runtime.TickContext // every tick given to the App, for a replay
	next  uint64
}

func newAudioRig(t testing.TB, build func(r *audioRig)) *audioRig {
	t.Helper()
	return newRig(t, true, build)
}

// newRig is newAudioRig, without the Audio resource and its systems
// unless withAudio (a baseline for benchmarks).
func newRig(t testing.TB, withAudio bool, build func(r *audioRig)) *audioRig {
	t.Helper()
	o := audio.DefaultOptions()
	o.Rate, o.Latency, o.Tolerance, o.MaxVoices = audioRate, audioLatency, 20*time.Millisecond, 256
	m, err := audio.NewMixer(o)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	r := &audioRig{t: t, m: m, lib: lib}
	r.app = newApp(t, ecs.Options{Seed: 7, Assets: lib})
	if withAudio {
		r.au = ecs.AddAudio(r.app, m.Player())
		r.au.StopFade = 0 // cut exactly, so the tests can see the stop frame
	}
	if build != nil {
		build(r)
	}
	if err := r.app.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	m.Start(audioOrigin)
	return r
}

// sound adds a mono sound of n frames, every sample v, to the library.
func (r *audioRig) sound(name string, n int, v float32) assets.Sound {
	r.t.Helper()
	d := make([]float32, n)
	for i := range d {
		d[i] = v
	}
	s, err := audio.NewSound(name, audioRate, 1, d)
	if err != nil {
		r.t.Fatal(err)
	}
	h, err := r.lib.AddSound(s)
	if err != nil {
		r.t.Fatal(err)
	}
	return h
}

// tick runs the next fixed update, whose span starts start after the
// origin.
func (r *audioRig) tick(start time.Duration, quiet bool) {
	r.t.Helper()
	tk := runtime.TickContext{
		Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: audioStep, Number: r.next,
			Start: audioOrigin + timing.Instant(start), End: audioOrigin + timing.Instant(start+audioStep), Quiet: quiet, Final: !quiet},
		Window: input.Window{Size: input.Size{Width: 320, Height: 240}, Framebuffer: input.Size{Width: 320, Height: 240}},
	}
	r.next++
	r.ticks = append(r.ticks, tk)
	if err := r.app.Update(&tk); err != nil {
		r.t.Fatal(err)
	}
}

// render renders frames frames in device-sized buffers and returns both
// channels.
func (r *audioRig) render(frames int) (left, right []float32) {
	buf := make([]float32, 2*441)
	for done := 0; done < frames; {
		n := min(441, frames-done)
		r.m.Render(buf[:2*n])
		for i := range n {
			left = append(left, buf[2*i])
			right = append(right, buf[2*i+1])
		}
		done += n
	}
	return left, right
}

// onsets returns the frames where each run of non-zero samples begins.
func onsets(s []float32) []int {
	var out []int
	for i, v := range s {
		if v != 0 && (i == 0 || s[i-1] == 0) {
			out = append(out, i)
		}
	}
	return out
}

// A sound requested in an update starts at the exact frame matching the
// start of that update's span, plus the latency, wherever the span lies.
func TestPlayStartsAtTheUpdatesSpan(t *testing.T) {
	for _, at := range []uint64{0, 1, 7, 59, 600} {
		var blip assets.Sound
		r := newAudioRig(t, func(r *audioRig) {
			blip = r.sound("blip", 40, 0.5)
			r.app.AddSystem(ecs.Update, ecs.System{Name: "shoot", Run: func(ctx *ecs.Sys) {
				if ctx.Time.Number == at {
					if _, err := ctx.PlaySound(blip, audio.DefaultParams()); err != nil {
						ctx.Fail(err)
					}
				}
			}})
		})
		for n := range at + 3 {
			r.tick(time.Duration(n)*audioStep, false)
		}
		want := frameAt(time.Duration(at) * audioStep)
		left, right := r.render(want + 100)
		if got := onsets(left); !slices.Equal(got, []int{want}) {
			t.Errorf("tick %d: sound starts at frames %v, want [%d]", at, got, want)
		}
		if left[want] != 0.5 || right[want] != 0.5 || left[want+39] != 0.5 || left[want+40] != 0 {
			t.Errorf("tick %d: frames %d..%d = %g..%g, %g after; want 40 frames of 0.5", at, want, want+39, left[want], left[want+39], left[want+40])
		}
		if st := r.m.Stats(); st.Placed != 1 || st.Late+st.Dropped != 0 {
			t.Errorf("tick %d: mixer stats %+v, want one placed sound", at, st)
		}
		if st := r.au.Stats(); st.Played != 1 || st.Errors != 0 {
			t.Errorf("tick %d: audio stats %+v, want one request and no error", at, st)
		}
	}
}

// A catch-up burst runs four fixed updates back to back after the device
// has already played past their spans' starts; their footsteps still come
// out one step apart. The burst's first three ticks are quiet: a sound
// triggered from an ordinary system plays on each of them, one triggered
// from a cosmetic system only on the last.
func TestCatchUpBurstPlacesSoundsAStepApart(t *testing.T) {
	for _, cosmetic := range []bool{false, true} {
		var step assets.Sound
		r := newAudioRig(t, func(r *audioRig) {
			step = r.sound("step", 10, 0.25)
			r.app.AddSystem(ecs.Update, ecs.System{Name: "footsteps", Cosmetic: cosmetic, Run: func(ctx *ecs.Sys) {
				if _, err := ctx.PlaySound(step, audio.DefaultParams()); err != nil {
					ctx.Fail(err)
				}
			}})
		})
		// The device has played 90 ms; the simulation stalled and now runs
		// four updates whose spans start at 80 ms, 96.7 ms, ...
		played := int(90 * time.Millisecond * audioRate / time.Second)
		r.render(played)
		burst := 80 * time.Millisecond
		for k := range 4 {
			r.tick(burst+time.Duration(k)*audioStep, k < 3)
		}
		left, _ := r.render(frameAt(burst+4*audioStep) + 100 - played)
		var want []int
		for k := range 4 {
			if !cosmetic || k == 3 {
				want = append(want, frameAt(burst+time.Duration(k)*audioStep)-played)
			}
		}
		got := onsets(left)
		if !slices.Equal(got, want) {
			t.Errorf("cosmetic %v: footsteps at frames %v (after the %d played), want %v", cosmetic, got, played, want)
		}
		if len(got) == 4 {
			for k := 1; k < 4; k++ {
				gap := got[k] - got[k-1]
				if gap != 800 && gap != 799 && gap != 801 { // a 60 Hz step is 800 frames, rounded on each side
					t.Errorf("gap %d = %d frames, want a step (800)", k, gap)
				}
			}
		}
		if st := r.m.Stats(); int(st.Placed) != len(want) || st.Late+st.Dropped != 0 {
			t.Errorf("cosmetic %v: mixer stats placed %d, late %d, dropped %d; want %d placed", cosmetic, st.Placed, st.Late, st.Dropped, len(want))
		}
	}
}

// A looping source starts on the span of the tick that spawned it and
// stops on the span of the tick that despawned it (or removed its
// component), sample-exact.
func TestLoopingSourceStopsWithItsEntity(t *testing.T) {
	for _, how := range []string{"despawn", "remove", "change sound"} {
		t.Run(how, func(t *testing.T) {
			var hum, buzz assets.Sound
			var e ecs.Entity
			var pending ecs.Pending
			r := newAudioRig(t, func(r *audioRig) {
				hum = r.sound("hum", 100, 0.5) // loops many times across buffers
				buzz = r.sound("buzz", 100, 0.125)
				r.app.AddSystem(ecs.Update, ecs.System{Name: "life", Run: func(ctx *ecs.Sys) {
					switch ctx.Time.Number {
					case 2:
						pending = ctx.Commands.Spawn()
						ecs.With(pending, ecs.At(160, 120))
						ecs.With(pending, ecs.LoopingSource(hum))
					case 3:
						e, _ = ctx.Commands.Resolve(pending)
					case 9:
						switch how {
						case "despawn":
							ctx.Commands.Despawn(e)
						case "remove":
							ecs.Remove[ecs.SoundSource](ctx.Commands, e)
						case "change sound":
							ecs.Set(ctx.Commands, e, ecs.LoopingSource(buzz))
						}
					}
				}})
			})
			for n := range 14 {
				r.tick(time.Duration(n)*audioStep, false)
			}
			on, off := frameAt(2*audioStep), frameAt(9*audioStep)
			left, right := r.render(off + 2000)
			for i := range left {
				want := float32(0)
				switch {
				case i >= on && i < off:
					want = 0.5
				case i >= off && how == "change sound":
					want = 0.125
				}
				if left[i] != want || right[i] != want {
					t.Fatalf("frame %d = (%g, %g), want %g (on at %d, off at %d)", i, left[i], right[i], want, on, off)
				}
			}
			st := r.au.Stats()
			wantSources, wantStarted := 0, uint64(1)
			if how == "change sound" {
				wantSources, wantStarted = 1, 2
			}
			if st.Sources != wantSources || st.Started != wantStarted || st.Stopped != 1 || st.Errors != 0 {
				t.Errorf("audio stats %+v, want %d source, %d started, 1 stopped", st, wantSources, wantStarted)
			}
		})
	}
}

// An entity despawned and another spawned in the same batch may share its
// ID (a new generation): the old voice stops, the new one starts, and the
// new source keeps its voice on the following ticks.
func TestRecycledEntityIDGetsItsOwnVoice(t *testing.T) {
	var hum, buzz assets.Sound
	var first ecs.Entity
	var ids [2]uint32
	r := newAudioRig(t, func(r *audioRig) {
		hum = r.sound("hum", 100, 0.5)
		buzz = r.sound("buzz", 100, 0.25)
		f := ecs.NewFilter1[ecs.SoundSource](r.app.World())
		r.app.AddSystem(ecs.Update, ecs.System{Name: "swap", Run: func(ctx *ecs.Sys) {
			switch ctx.Time.Number {
			case 0:
				ecs.With(ctx.Commands.Spawn(), ecs.LoopingSource(hum))
			case 1:
				q := f.Query()
				for q.Next() {
					first = q.Entity()
				}
				ids[0] = first.ID()
				ctx.Commands.Despawn(first)
				ecs.With(ctx.Commands.Spawn(), ecs.LoopingSource(buzz))
			case 2:
				q := f.Query()
				for q.Next() {
					ids[1] = q.Entity().ID()
				}
			}
		}})
	})
	for n := range 5 {
		r.tick(time.Duration(n)*audioStep, false)
	}
	if ids[0] != ids[1] {
		t.Skipf("the world did not recycle the ID (%d, then %d); nothing to test", ids[0], ids[1])
	}
	left, _ := r.render(frameAt(5 * audioStep))
	switchAt := frameAt(audioStep)
	if left[switchAt-1] != 0.5 || left[switchAt] != 0.25 || left[len(left)-1] != 0.25 {
		t.Errorf("frames around the swap %g, %g, at the end %g; want 0.5, then 0.25 to the end", left[switchAt-1], left[switchAt], left[len(left)-1])
	}
	if st := r.au.Stats(); st.Started != 2 || st.Stopped != 1 || st.Sources != 1 {
		t.Errorf("stats %+v, want 2 started, 1 stopped, 1 source", st)
	}
}

// A positional source is panned by its place relative to the listener,
// every tick, and faded by distance within its Range.
func TestPositionalSourceFollowsTransform(t *testing.T) {
	var hum assets.Sound
	var src ecs.Entity
	r := newAudioRig(t, func(r *audioRig) {
		hum = r.sound("hum", 100, 0.5)
		r.au.PanWidth = 100
		r.app.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
			ecs.With(ctx.Commands.Spawn(), ecs.At(1000, 0)) // the listener
			p := ctx.Commands.Spawn()
			ecs.With(p, ecs.At(1050, 0)) // half the pan width to the right
			s := ecs.LoopingSource(hum)
			s.Range = 200
			ecs.With(p, s)
		}})
		r.app.AddSystem(ecs.Startup, ecs.System{Name: "resolve", Run: func(ctx *ecs.Sys) {
			f := ecs.NewFilter1[ecs.SoundSource](ctx.World)
			q := f.Query()
			for q.Next() {
				src = q.Entity()
			}
			fl := ecs.NewFilter1[ecs.Transform](ctx.World).Without(ecs.TypeOf[ecs.SoundSource]())
			ql := fl.Query()
			for ql.Next() {
				r.au.Listener = ql.Entity()
			}
		}})
		r.app.AddSystem(ecs.Update, ecs.System{Name: "move", Run: func(ctx *ecs.Sys) {
			if ctx.Time.Number == 5 {
				m := ecs.NewMap[ecs.Transform](ctx.World)
				m.Get(src).Position.X = 900 // the whole width to the left
			}
		}})
	})
	// Render as a device does, up to each tick's instant before it runs:
	// changes to a playing voice take effect when the mixer takes them.
	var left, right []float32
	for n := range 8 {
		start := time.Duration(n) * audioStep
		l, rr := r.render(frameAt(start) - frameAt(0) - len(left))
		left, right = append(left, l...), append(right, rr...)
		r.tick(start, false)
	}
	l, rr := r.render(frameAt(9*audioStep) - len(left))
	left, right = append(left, l...), append(right, rr...)
	// Tick 0: pan 0.5 (left gain 0.5), distance 50 of 200 (volume 0.75).
	at := frameAt(0) + 10
	if got, want := [2]float32{left[at], right[at]}, [2]float32{0.5 * 0.75 * 0.5, 0.5 * 0.75}; got != want {
		t.Errorf("source to the right: frame = %v, want %v", got, want)
	}
	// From tick 5 it is 100 to the left: pan -1, volume 0.5 (the volume
	// change ramps over one tick; the pan is immediate).
	late := len(left) - 10
	if got, want := [2]float32{left[late], right[late]}, [2]float32{0.5 * 0.5, 0}; got != want {
		t.Errorf("source to the left: frame = %v, want %v", got, want)
	}
}

// With a nil player the game runs silently: requests succeed, nothing is
// started, and a stale handle is still reported.
func TestSilentAudio(t *testing.T) {
	app := newApp(t, ecs.Options{})
	lib, _ := assets.NewLibrary(assets.DefaultOptions())
	s, _ := audio.NewSound("s", audioRate, 1, make([]float32, 10))
	h, _ := lib.AddSound(s)
	au := ecs.AddAudio(app, nil)
	au.Sounds = lib
	var errs []error
	app.AddSystem(ecs.Update, ecs.System{Name: "play", Run: func(ctx *ecs.Sys) {
		if ctx.Time.Number == 0 {
			ecs.With(ctx.Commands.Spawn(), ecs.LoopingSource(h))
		}
		_, err := ctx.PlaySound(h, audio.DefaultParams())
		errs = append(errs, err)
		_, err = ctx.PlaySound(assets.Sound{}, audio.DefaultParams())
		errs = append(errs, err)
	}})
	if err := app.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	for n := range uint64(3) {
		if err := app.Update(tick(n, 1)); err != nil {
			t.Fatal(err)
		}
	}
	for i, err := range errs {
		if stale := i%2 == 1; stale != errors.Is(err, assets.ErrStale) {
			t.Errorf("request %d: %v, want stale %v", i, err, stale)
		}
	}
	if st := au.Stats(); st.Started != 0 || st.Sources != 0 || st.Played != 6 || st.Errors != 3 {
		t.Errorf("stats %+v, want 6 requests, 3 errors (the stale ones), nothing started", st)
	}

	// Without any Audio resource, Play is silent too.
	bare := newApp(t, ecs.Options{})
	var err error
	bare.AddSystem(ecs.Update, ecs.System{Name: "play", Run: func(ctx *ecs.Sys) { _, err = ctx.Play(s, audio.DefaultParams()) }})
	if err := bare.Update(tick(0, 1)); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Errorf("Play without an Audio resource: %v, want nil", err)
	}
}

// scriptedAudioGame plays sounds chosen by the deterministic random
// source, spawns moving looping sources and despawns them: everything a
// game does with sound, driven only by the ticks it is given.
func scriptedAudioGame(r *audioRig) {
	var shots [3]assets.Sound
	for i := range shots {
		shots[i] = r.sound("shot", 30+20*i, 0.1*float32(i+1))
	}
	hum := r.sound("hum", 64, 0.05)
	type mover struct{ VX float32 }
	var movers *ecs.Filter2[ecs.Transform, mover]
	var sources *ecs.Filter1[ecs.SoundSource]
	r.app.AddSystem(ecs.Update, ecs.System{Name: "game", Run: func(ctx *ecs.Sys) {
		if movers == nil {
			movers = ecs.NewFilter2[ecs.Transform, mover](ctx.World)
			sources = ecs.NewFilter1[ecs.SoundSource](ctx.World)
		}
		if ctx.Rand.IntN(3) == 0 {
			p := audio.DefaultParams()
			p.Pan = float32(ctx.Rand.IntN(5))/2 - 1
			if _, err := ctx.PlaySound(shots[ctx.Rand.IntN(3)], p); err != nil {
				ctx.Fail(err)
			}
		}
		if ctx.Time.Number%7 == 0 {
			p := ctx.Commands.Spawn()
			ecs.With(p, ecs.At(float32(ctx.Rand.IntN(320)), 120))
			ecs.With(p, mover{VX: float32(ctx.Rand.IntN(200)) - 100})
			ecs.With(p, ecs.LoopingSource(hum))
		}
		q := movers.Query()
		for q.Next() {
			tr, m := q.Get()
			tr.Position.X += m.VX * float32(ctx.RunDeltaSeconds())
		}
		if ctx.Time.Number%11 == 5 {
			q := sources.Query()
			for q.Next() {
				ctx.Commands.Despawn(q.Entity())
				q.Close()
				break
			}
		}
	}})
}

// runScript runs the scripted game over ticks with a burst in the middle,
// rendering as a device would, and returns the whole output.
func runScript(r *audioRig, ticks []runtime.TickContext) []float32 {
	var out []float32
	buf := make([]float32, 2*480)
	render := func() {
		r.m.Render(buf)
		out = append(out, buf...)
	}
	for i := range ticks {
		tk := ticks[i]
		// The device plays in step with the ticks' spans, except that the
		// simulation stalls before tick 40: the device has played up to
		// tick 46's span when ticks 40 to 45 run back to back.
		at := tk.Update.Start
		if i >= 40 && i < 46 {
			at = ticks[46].Update.Start
		}
		for r.m.Stats().Frames < int64(frameAt(time.Duration(at-audioOrigin))-frameAt(0)) {
			render()
		}
		r.ticks = append(r.ticks, tk)
		if err := r.app.Update(&tk); err != nil {
			r.t.Fatal(err)
		}
	}
	for range 40 {
		render()
	}
	return out
}

// A replay gives the game the recorded ticks (the same spans) and so makes
// the same requests: on a mixer with the same timeline it plays the same
// samples, frame for frame. With Audio.Shift the same requests land on a
// device timeline that started at another instant, as a replay at
// recorded speed with a device sees.
func TestReplayPlaysTheSameSamples(t *testing.T) {
	var recorded []runtime.TickContext
	for n := range 120 {
		start := time.Duration(n) * audioStep
		recorded = append(recorded, runtime.TickContext{
			Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: audioStep, Number: uint64(n),
				Start: audioOrigin + timing.Instant(start), End: audioOrigin + timing.Instant(start+audioStep),
				Quiet: n >= 40 && n < 45, Final: n < 40 || n >= 45},
			Window: input.Window{Framebuffer: input.Size{Width: 320, Height: 240}},
		})
	}
	live := newAudioRig(t, scriptedAudioGame)
	want := runScript(live, recorded)
	wantStats := live.m.Stats()
	if wantStats.Placed < 30 || live.au.Stats().Started < 10 || live.au.Stats().Stopped < 5 {
		t.Fatalf("the script played too little to compare: mixer %+v, audio %+v", wantStats, live.au.Stats())
	}
	if wantStats.Late+wantStats.Dropped == 0 {
		t.Errorf("the burst made no late or dropped sound: mixer %+v; the script should exercise the policy", wantStats)
	}

	replay := newAudioRig(t, scriptedAudioGame)
	got := runScript(replay, live.ticks)
	if !slices.Equal(got, want) {
		t.Errorf("the replay's output differs from the session's (first at sample %d)", firstDiff(got, want))
	}
	if st := replay.m.Stats(); st.Placed != wantStats.Placed || st.Late != wantStats.Late || st.Dropped != wantStats.Dropped {
		t.Errorf("replay placed/late/dropped %d/%d/%d, session %d/%d/%d", st.Placed, st.Late, st.Dropped, wantStats.Placed, wantStats.Late, wantStats.Dropped)
	}

	// The recorded ticks again, on a device timeline 5 s later.
	const shift = 5 * time.Second
	o := audio.DefaultOptions()
	o.Rate, o.Latency, o.Tolerance, o.MaxVoices = audioRate, audioLatency, 20*time.Millisecond, 256
	shifted := newAudioRig(t, scriptedAudioGame)
	shifted.m, _ = audio.NewMixer(o)
	shifted.m.Start(audioOrigin + timing.Instant(shift))
	shifted.au.Player = shifted.m.Player()
	shifted.au.Shift = shift
	if got := runScript(shifted, live.ticks); !slices.Equal(got, want) {
		t.Errorf("the shifted replay's output differs from the session's (first at sample %d)", firstDiff(got, want))
	}
}

func firstDiff(a, b []float32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// Sound sources are plain data, so the world hashes with them, and the
// voices are not game state: the same game hashes the same with a mixer
// and silent.
func TestSoundSourcesHashAlikeWithAndWithoutSound(t *testing.T) {
	spawn := func(r *audioRig) {
		h := r.sound("hum", 10, 0.1)
		r.app.AddSystem(ecs.Update, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
			if ctx.Time.Number%2 == 0 {
				ecs.With(ctx.Commands.Spawn(), ecs.LoopingSource(h))
			}
		}})
	}
	loud := newAudioRig(t, spawn)
	quiet := newAudioRig(t, spawn)
	quiet.au.Player = nil
	for n := range 6 {
		loud.tick(time.Duration(n)*audioStep, false)
		quiet.tick(time.Duration(n)*audioStep, false)
	}
	a, err := loud.app.Hash()
	if err != nil {
		t.Fatalf("hash with sound sources: %v", err)
	}
	b, err := quiet.app.Hash()
	if err != nil {
		t.Fatal(err)
	}
	if a.Total != b.Total {
		t.Errorf("hash with a mixer %x, silent %x; want the same", a.Total, b.Total)
	}
	if got := loud.au.Stats(); got.Sources != 3 || got.Started != 3 {
		t.Errorf("loud stats %+v, want 3 sources started", got)
	}
	if got := quiet.au.Stats(); got.Sources != 0 || got.Started != 0 {
		t.Errorf("silent stats %+v, want nothing started", got)
	}
}

// A second AddAudio (a game calling it under the framework, which adds
// one first) returns the app's resource and adds no second set of
// systems: a looping source plays once, not twice as loud.
func TestAddAudioTwiceKeepsOne(t *testing.T) {
	var hum assets.Sound
	var second *ecs.Audio
	r := newAudioRig(t, func(r *audioRig) {
		second = ecs.AddAudio(r.app, r.m.Player())
		hum = r.sound("hum", 100, 0.5)
		r.app.AddSystem(ecs.Update, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
			if ctx.Time.Number == 1 {
				p := ctx.Commands.Spawn()
				ecs.With(p, ecs.LoopingSource(hum))
			}
		}})
	})
	if second != r.au {
		t.Fatalf("second AddAudio returned %p, want the app's resource %p", second, r.au)
	}
	for n := range 6 {
		r.tick(time.Duration(n)*audioStep, false)
	}
	left, _ := r.render(frameAt(5 * audioStep))
	if got := left[frameAt(3*audioStep)]; got != 0.5 {
		t.Errorf("looping source at %g, want 0.5 (one voice)", got)
	}
	if st := r.au.Stats(); st.Started != 1 {
		t.Errorf("audio stats %+v, want one source started", st)
	}
}

// A looping source whose tick is already past the mixer's tolerance when
// it starts (the mixer has rendered far beyond it) still plays, at once;
// a one-shot requested on the same tick is dropped.
func TestLateLoopingSourceStillPlays(t *testing.T) {
	var hum, blip assets.Sound
	r := newAudioRig(t, func(r *audioRig) {
		hum = r.sound("hum", 100, 0.5)
		blip = r.sound("blip", 100, 0.25)
		r.app.AddSystem(ecs.Update, ecs.System{Name: "late", Run: func(ctx *ecs.Sys) {
			if ctx.Time.Number == 2 {
				p := ctx.Commands.Spawn()
				ecs.With(p, ecs.LoopingSource(hum))
				if _, err := ctx.PlaySound(blip, audio.DefaultParams()); err != nil {
					ctx.Fail(err)
				}
			}
		}})
	})
	r.tick(0, false)
	r.tick(audioStep, false)
	r.render(audioRate) // a second of output before the tick at two steps runs
	r.tick(2*audioStep, false)
	left, _ := r.render(audioRate / 10)
	if st := r.m.Stats(); st.Late != 1 || st.Dropped != 1 || st.Placed != 0 {
		t.Errorf("placed/late/dropped %d/%d/%d, want 0/1/1 (the loop late, the one-shot dropped)", st.Placed, st.Late, st.Dropped)
	}
	if got := left[len(left)/2]; got != 0.5 {
		t.Errorf("output %g after the late loop started, want 0.5", got)
	}
}
