//go:build !race

package audio_test

import (
	"testing"
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
