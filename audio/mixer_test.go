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

// frameOf is the exact placement formula, written out independently of the
// package: (t - origin) × rate / 1e9 + latency, with t after origin.
func frameOf(d time.Duration) int {
	return int(int64(d)*rate/int64(time.Second)) + int(int64(50*time.Millisecond)*rate/int64(time.Second))
}

// starts returns the frames where each run of non-zero samples begins.
func starts(s []float32) []int {
	var out []int
	for i, v := range s {
		if v != 0 && (i == 0 || s[i-1] == 0) {
			out = append(out, i)
		}
	}
	return out
}

func TestCatchUpBurstKeepsSpacing(t *testing.T) {
	const step = 16_666_667 * time.Nanosecond
	m := newMixer(t, options())
	p := m.Player()
	step1 := constant(t, 10, 0.25)
	// The device has played 120 ms; the simulation stalled and now runs
	// four updates back to back, whose spans start at 80 ms.
	render(m, int(120*time.Millisecond)*rate/1e9, 480)
	var want []int
	for k := range 4 {
		s := 80*time.Millisecond + time.Duration(k)*step
		if _, err := p.Play(step1, audio.InUpdate(update(s, s+step)), audio.DefaultParams()); err != nil {
			t.Fatal(err)
		}
		want = append(want, frameOf(s))
	}
	pos := int(m.Stats().Frames)
	left, _ := render(m, 10000, 480)
	got := starts(left)
	if len(got) != 4 {
		t.Fatalf("sounds start at %v (relative to frame %d), want 4 starts", got, pos)
	}
	for k := range got {
		if got[k]+pos != want[k] {
			t.Errorf("footstep %d starts at frame %d, want %d", k, got[k]+pos, want[k])
		}
		if k > 0 {
			if gap := got[k] - got[k-1]; gap != 800 && gap != 799 && gap != 801 {
				t.Errorf("gap %d frames between footsteps %d and %d, want one step (800)", gap, k-1, k)
			}
		}
	}
	if st := m.Stats(); st.Placed != 4 || st.Late+st.Dropped != 0 {
		t.Errorf("stats %+v, want 4 placed", st)
	}
}

func TestLateEssentialAndDropped(t *testing.T) {
	// The device is at 300 ms; latency 50 ms, tolerance 20 ms. A start at
	// t+50ms is on time when t >= 250 ms, late but tolerated down to 230
	// ms, and past tolerance below that.
	tests := []struct {
		name      string
		at        time.Duration
		essential bool
		wantStart int // -1: dropped; otherwise the frame it starts at
		placed    uint64
		late      uint64
		dropped   uint64
	}{
		{"on time", 260 * time.Millisecond, false, frameOf(260 * time.Millisecond), 1, 0, 0},
		{"exactly now", 250 * time.Millisecond, false, frameOf(250 * time.Millisecond), 1, 0, 0},
		{"late within tolerance", 240 * time.Millisecond, false, 14400, 0, 1, 0},
		{"at the tolerance", 230 * time.Millisecond, false, 14400, 0, 1, 0},
		{"past tolerance", 200 * time.Millisecond, false, -1, 0, 0, 1},
		{"past tolerance, essential", 200 * time.Millisecond, true, 14400, 0, 1, 0},
		{"long ago, essential", -10 * time.Second, true, 14400, 0, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMixer(t, options())
			render(m, 14400, 480) // 300 ms
			p := audio.DefaultParams()
			p.Essential = tt.essential
			if _, err := m.Player().Play(constant(t, 10, 0.5), audio.AtInstant(instant(tt.at)), p); err != nil {
				t.Fatal(err)
			}
			left, _ := render(m, 6000, 480)
			got := firstNonZero(left)
			if got >= 0 {
				got += 14400
			}
			if got != tt.wantStart {
				t.Errorf("starts at frame %d, want %d", got, tt.wantStart)
			}
			st := m.Stats()
			if st.Placed != tt.placed || st.Late != tt.late || st.Dropped != tt.dropped {
				t.Errorf("placed/late/dropped = %d/%d/%d, want %d/%d/%d", st.Placed, st.Late, st.Dropped, tt.placed, tt.late, tt.dropped)
			}
			if tt.late > 0 && st.WorstLate <= 0 {
				t.Errorf("WorstLate = %v, want the lateness", st.WorstLate)
			}
		})
	}
}

func TestQuietTicksStillSound(t *testing.T) {
	// Quiet updates of a burst request sounds like any other; they are
	// placed on their own spans.
	const step = 20 * time.Millisecond
	m := newMixer(t, options())
	render(m, 2400, 240)
	for k := range 3 {
		u := update(time.Duration(k)*step+40*time.Millisecond, time.Duration(k+1)*step+40*time.Millisecond)
		u.Quiet = k < 2
		u.Final = k == 2
		if _, err := m.Player().Play(constant(t, 5, 0.5), audio.InUpdate(u), audio.DefaultParams()); err != nil {
			t.Fatal(err)
		}
	}
	left, _ := render(m, 9600, 240)
	got := starts(left)
	want := []int{frameOf(40*time.Millisecond) - 2400, frameOf(60*time.Millisecond) - 2400, frameOf(80*time.Millisecond) - 2400}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("starts %v, want %v", got, want)
	}
}

func TestLoopAcrossBufferBoundaries(t *testing.T) {
	for _, block := range []int{1, 5, 7, 64, 1000} {
		m := newMixer(t, options())
		p := audio.DefaultParams()
		p.Loop = true
		s := rampSound(t, 7)
		v, err := m.Player().Play(s, audio.AtInstant(origin-timing50ms()), p)
		if err != nil {
			t.Fatal(err)
		}
		left, _ := render(m, 1000, block)
		for i, got := range left {
			if want := float32(i%7+1) / 1024; got != want {
				t.Fatalf("block %d: frame %d = %g, want %g (source frame %d)", block, i, got, want, i%7)
			}
		}
		if err := m.Player().Stop(v, audio.AtInstant(origin-timing50ms()), 0); err != nil { // placed in the past: stops at once
			t.Fatal(err)
		}
		left, _ = render(m, 100, block)
		if i := firstNonZero(left); i >= 0 {
			t.Errorf("block %d: sound after stop at frame %d", block, i)
		}
	}
}

// timing50ms is the test latency as a duration, so that AtInstant(origin -
// latency) lands on frame 0.
func timing50ms() timingInstant { return timingInstant(50 * time.Millisecond) }
