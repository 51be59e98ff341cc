//go:build !linux || cgo

package otoaudio

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/timing"
)

// simulate feeds a source as a device would, on virtual time: it fills
// the buffers at once (fill of audio), then takes a chunk each time its
// own clock, ppm parts per million fast (negative: slow), says one has
// played, for the given duration, with an optional stall of stallFor
// at stallAt. It returns the source and its mixer.
func simulate(t *testing.T, ppm float64, d time.Duration, stallAt, stallFor time.Duration) (*source, *audio.Mixer) {
	t.Helper()
	m, err := audio.NewMixer(audio.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewManualClock(timing.Instant(time.Hour))
	var s source
	s.init(m, Options{Clock: clock}.withDefaults())
	p := make([]byte, 8*s.chunk)
	rate := float64(m.Options().Rate)
	read := func() {
		if n, err := s.Read(p); err != nil || n != len(p) {
			t.Fatalf("Read: %d, %v", n, err)
		}
	}
	fill := func() {
		for range int(60 * time.Millisecond / (5 * time.Millisecond)) {
			read() // the buffers fill
		}
	}
	fill()
	start := clock.Now()
	var played float64 // frames the device has played since start
	stalled := false
	for clock.Now()-start < timing.Instant(d) {
		if !stalled && stallFor > 0 && clock.Now()-start >= timing.Instant(stallAt) {
			stalled = true
			// Nothing is read: the device plays what its buffers hold,
			// then silence, then takes frames quickly until they are full.
			clock.Advance(stallFor)
			played += stallFor.Seconds() * rate * (1 + ppm/1e6)
			fill()
		}
		// The device plays a chunk in chunk/(rate·(1+ppm)) seconds of the
		// monotonic clock, then asks for the next.
		played += float64(s.chunk)
		at := start + timing.Instant(played/(rate*(1+ppm/1e6))*1e9)
		clock.Set(max(at, clock.Now()))
		read()
	}
	return &s, m
}

// TestDriftIsFollowed: a device clock a few hundred parts per million off
// the monotonic clock keeps the mixer's lead where it was after warm-up
// (without correction it would move by 120 ms in ten minutes at 200 ppm,
// and sounds would come out early, then late), without counting a gap.
func TestDriftIsFollowed(t *testing.T) {
	for _, ppm := range []float64{200, -200, 50, 0} {
		s, m := simulate(t, ppm, 10*time.Minute, 0, 0)
		st := m.Stats()
		lead := time.Duration(s.lead.Load() * int64(time.Second) / s.rate)
		base := time.Duration(s.base * int64(time.Second) / s.rate)
		t.Logf("%+.0f ppm: lead %v (first window's minimum %v), %d realigns totalling %v, %d underruns", ppm, lead, base, st.Realigns, st.Realigned, st.Underruns)
		if st.Underruns != 0 {
			t.Errorf("%+.0f ppm: %d underruns counted, want none", ppm, st.Underruns)
		}
		if d := lead - base; d < -5*time.Millisecond || d > 10*time.Millisecond {
			t.Errorf("%+.0f ppm: lead %v after ten minutes, want within a few ms of %v", ppm, lead, base)
		}
		if want := time.Duration(-ppm * 1e-6 * float64(10*time.Minute)); ppm != 0 && (st.Realigned-want > 4*time.Millisecond || want-st.Realigned > 4*time.Millisecond) {
			t.Errorf("%+.0f ppm: realigned %v in all, want about %v", ppm, st.Realigned, want)
		}
		if ppm == 0 && st.Realigns > 1 {
			t.Errorf("no drift: %d realigns (%v), want none after warm-up", st.Realigns, st.Realigned)
		}
	}
}

// TestStallIsAGapNotDrift: a stall of 100 ms after warm-up is counted as
// an underrun, the 40 ms the 60 ms of buffered audio did not cover are
// skipped, and the drift tracking is not disturbed.
func TestStallIsAGapNotDrift(t *testing.T) {
	_, m := simulate(t, 0, 20*time.Second, 10*time.Second, 100*time.Millisecond)
	st := m.Stats()
	t.Logf("stats %+v", st)
	if st.Underruns != 1 {
		t.Errorf("%d underruns, want 1", st.Underruns)
	}
	if skipped := time.Duration(int64(st.SkippedFrames) * int64(time.Second) / int64(m.Options().Rate)); skipped < 35*time.Millisecond || skipped > 50*time.Millisecond {
		t.Errorf("skipped %v, want about the 40 ms the buffers did not cover", skipped)
	}
	if st.Realigns != 0 {
		t.Errorf("%d realigns (%v) around a stall, want none", st.Realigns, st.Realigned)
	}
}
