package audio_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
)

func TestPlacementGolden(t *testing.T) {
	const step = 16_666_667 * time.Nanosecond
	tests := []struct {
		name  string
		start time.Duration // of the update's span, after origin
		block int
	}{
		{"at origin", 0, 256},
		{"one step in", step, 256},
		{"odd buffer size", 3 * step, 333},
		{"tiny buffers", 7 * step, 17},
		{"one big buffer", 2*time.Second + 123456789, 1 << 20},
		{"sub-frame instant", 20833*time.Nanosecond + 1, 512}, // one frame is 20833.3 ns
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMixer(t, options())
			s := constant(t, 100, 0.5)
			if _, err := m.Player().Play(s, audio.InUpdate(update(tt.start, tt.start+step)), audio.DefaultParams()); err != nil {
				t.Fatal(err)
			}
			// (t - origin) × rate / 1e9 + latency, exactly.
			want := int(int64(tt.start)*rate/1e9) + int(50*time.Millisecond)*rate/1e9
			left, right := render(m, want+200, tt.block)
			if got := firstNonZero(left); got != want {
				t.Errorf("first sample at %d, want %d", got, want)
			}
			if got := firstNonZero(right); got != want {
				t.Errorf("right channel starts at %d, want %d", got, want)
			}
			for i := want; i < want+100; i++ {
				if left[i] != 0.5 || right[i] != 0.5 {
					t.Fatalf("frame %d = (%g, %g), want (0.5, 0.5)", i, left[i], right[i])
				}
			}
			if left[want+100] != 0 {
				t.Errorf("frame after the end = %g, want 0", left[want+100])
			}
			st := m.Stats()
			if st.Placed != 1 || st.Late != 0 || st.Dropped != 0 || st.Voices != 0 {
				t.Errorf("stats %+v, want one placed sound and no voice left", st)
			}
		})
	}
}
