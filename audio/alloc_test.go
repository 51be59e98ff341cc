//go:build !race

package audio_test

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/metronome-go/metronome/audio"
)

func TestRenderAllocatesNothing(t *testing.T) {
	m, buf := busyMixer(t, 64)
	p := m.Player()
	s := constant(t, 100, 0.01)
	m.Render(buf) // warm up
	frame := 0
	allocs := testing.AllocsPerRun(200, func() {
		// A steady state with traffic: a request, a change and a buffer.
		frame += 512
		v, _ := p.Play(s, atFrame(frame+1000), audio.DefaultParams())
		p.SetVolume(v, 0.5, time.Millisecond)
		m.Render(buf)
	})
	if allocs != 0 {
		t.Errorf("%g allocations per buffer, want 0", allocs)
	}
	if st := m.Stats(); st.Voices != 64 || st.Streams != 1 {
		t.Errorf("voices %d, streams %d; want 64 and 1 busy", st.Voices, st.Streams)
	}
}

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
