package audio_test

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/timing"
)

const rate = 48000

// origin is an arbitrary, non-zero instant matched to frame 0.
const origin = timing.Instant(5_000_000_000)

func options() audio.Options {
	o := audio.DefaultOptions()
	o.Rate = rate
	o.Latency = 50 * time.Millisecond // 2400 frames
	o.Tolerance = 20 * time.Millisecond
	return o
}

func newMixer(t testing.TB, o audio.Options) *audio.Mixer {
	t.Helper()
	m, err := audio.NewMixer(o)
	if err != nil {
		t.Fatal(err)
	}
	m.Start(origin)
	return m
}

// constant makes a mono sound of n frames, every sample v.
func constant(t testing.TB, n int, v float32) *audio.Sound {
	t.Helper()
	d := make([]float32, n)
	for i := range d {
		d[i] = v
	}
	s, err := audio.NewSound("const", rate, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ramp makes a mono sound whose frame i is (i+1)/1024: every frame differs,
// so an output sample says exactly which source frame it came from.
func rampSound(t testing.TB, n int) *audio.Sound {
	t.Helper()
	d := make([]float32, n)
	for i := range d {
		d[i] = float32(i+1) / 1024
	}
	s, err := audio.NewSound("ramp", rate, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// render renders frames frames in buffers of block frames and returns the
// left and right channels.
func render(m *audio.Mixer, frames, block int) (left, right []float32) {
	buf := make([]float32, 2*block)
	for done := 0; done < frames; {
		n := min(block, frames-done)
		m.Pump()
		m.Render(buf[:2*n])
		for i := 0; i < n; i++ {
			left = append(left, buf[2*i])
			right = append(right, buf[2*i+1])
		}
		done += n
	}
	return left, right
}

// firstNonZero returns the index of the first non-zero sample, or -1.
func firstNonZero(s []float32) int {
	for i, v := range s {
		if v != 0 {
			return i
		}
	}
	return -1
}

// instant returns origin + d.
func instant(d time.Duration) timing.Instant { return origin + timing.Instant(d) }

func update(start, end time.Duration) timing.Update {
	return timing.Update{Kind: timing.FixedUpdate, Start: instant(start), End: instant(end), Delta: end - start}
}

type timingInstant = timing.Instant

// busyMixer returns a mixer with n looping voices (mono and stereo, some
// resampled, some panned and fading) and a looping stream, and a buffer of
// 512 frames.
func busyMixer(t testing.TB, n int) (*audio.Mixer, []float32) {
	o := options()
	m := newMixer(t, o)
	p := m.Player()
	mono := tone(t, rate, 500*time.Millisecond)
	st, err := audio.NewSound("stereo", 44100, 2, make([]float32, 2*22050))
	if err != nil {
		t.Fatal(err)
	}
	for k := range n {
		params := audio.DefaultParams()
		params.Loop = true
		params.Volume = 0.01
		params.Pan = float32(k%5)/2 - 1
		params.Bus = audio.Bus(k % 3)
		s := mono
		if k%2 == 1 {
			s = st
		}
		if k%4 == 3 {
			params.Speed = 1.5
		}
		if _, err := p.Play(s, atFrame(0), params); err != nil {
			t.Fatal(err)
		}
	}
	stream, err := p.OpenStream(fstest.MapFS{"m.wav": {Data: wavBytes(t, mono)}}, "m.wav")
	if err != nil {
		t.Fatal(err)
	}
	params := audio.DefaultParams()
	params.Loop, params.Bus = true, audio.Music
	p.PlayStream(stream, atFrame(0), params)
	buf := make([]float32, 2*512)
	m.Render(buf)
	return m, buf
}
