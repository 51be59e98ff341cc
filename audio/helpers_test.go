package audio_test

import (
	"testing"
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
