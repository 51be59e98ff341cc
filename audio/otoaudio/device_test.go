package otoaudio

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/audio/internal/soundserver"
	"github.com/metronome-go/metronome/timing"
)

var serverErr error

func TestMain(m *testing.M) {
	s, err := soundserver.Start()
	serverErr = err
	code := m.Run()
	if s != nil {
		s.Close()
	}
	os.Exit(code)
}

// open opens the real device through the private sound server. Outside CI
// a machine without one skips; in CI that is a failure.
func open(t *testing.T, m *audio.Mixer) *Device {
	t.Helper()
	err := serverErr
	var d *Device
	if err == nil {
		d, err = Open(m, Options{})
	}
	if err != nil {
		if soundserver.InCI() {
			t.Fatalf("a sound device is required in CI: %v", err)
		}
		t.Skipf("no sound device: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return d
}

// waitFor polls cond until it holds or the deadline passes. Real output
// runs in real time, so this test cannot use a fake clock; it waits on
// conditions, never for a fixed time.
func waitFor(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	deadline := time.After(limit)
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
	}
}

func TestRealOutputCallbackAndUnderrun(t *testing.T) {
	o := audio.DefaultOptions()
	m, err := audio.NewMixer(o)
	if err != nil {
		t.Fatal(err)
	}
	d := open(t, m)
	p := m.Player()
	s, err := audio.Synth{Wave: audio.Sine, Freq: 440, Amplitude: 0.3, Duration: time.Second, Rate: o.Rate}.Sound("beep")
	if err != nil {
		t.Fatal(err)
	}
	params := audio.DefaultParams()
	params.Loop, params.Essential = true, true
	if _, err := p.Play(s, audio.AtInstant(timing.Now()), params); err != nil {
		t.Fatal(err)
	}
	// The callback runs: 300 ms of output.
	waitFor(t, "300 ms of frames", 20*time.Second, func() bool {
		return m.Stats().Frames >= int64(o.Rate)*3/10
	})
	if d.Stats().Reads == 0 {
		t.Fatal("oto never asked for audio")
	}
	if ms := m.Stats(); ms.Placed+ms.Late != 1 || ms.Voices != 1 {
		t.Errorf("mixer stats %+v, want the sound playing", ms)
	}
	if err := d.Err(); err != nil {
		t.Fatalf("backend error: %v", err)
	}

	// Timing through the device: how far ahead of the clock the mixer
	// renders, sampled over 300 ms of steady output. oto reports nothing
	// past its own player buffer (Queued), so this and the queue are what
	// can be measured.
	lo, hi := time.Duration(1<<62), time.Duration(-1<<62)
	var queued time.Duration
	end := m.Stats().Frames + int64(o.Rate)*3/10
	waitFor(t, "300 ms more", 20*time.Second, func() bool {
		st := d.Stats()
		lo, hi, queued = min(lo, st.Lead), max(hi, st.Lead), max(queued, st.Queued)
		return m.Stats().Frames >= end
	})
	t.Logf("steady lead over the clock %v to %v; oto queued up to %v; configured latency %v", lo, hi, queued, o.Latency)

	// Starve the device: hold the reader, as a stalled process would,
	// until the clock has passed everything rendered by 100 ms. The sound
	// server keeps playing (silence) meanwhile; when reads resume the
	// device finds the gap and moves the timeline on.
	before := m.Stats()
	d.src.mu.Lock()
	pos := m.Position()
	gapEnd := m.Timeline().InstantOf(pos + int64(o.Rate)/10)
	waitFor(t, "the clock to pass the rendered audio", 20*time.Second, func() bool { return timing.Now() >= gapEnd })
	d.src.mu.Unlock()
	waitFor(t, "an underrun to be counted", 20*time.Second, func() bool { return d.Stats().Underruns > 0 && m.Stats().Underruns > before.Underruns })
	after := m.Stats()
	if skipped := after.SkippedFrames - before.SkippedFrames; skipped < uint64(o.Rate)/20 {
		t.Errorf("skipped %d frames over a stall of more than %d, want at least %d", skipped, o.Rate/10, o.Rate/20)
	}
	t.Logf("device stats %+v; mixer underruns %d, skipped %d frames, realigns %d (%v)", d.Stats(), after.Underruns, after.SkippedFrames, after.Realigns, after.Realigned)

	// The timeline kept real time through the gap: the frames rendered
	// stay within the device's buffering of the frame the clock is at.
	waitFor(t, "100 ms more output", 20*time.Second, func() bool { return m.Stats().Frames >= after.Frames+int64(o.Rate)/10 })
	d.src.mu.Lock()
	ahead := m.Position() - m.Timeline().FrameOf(timing.Now())
	d.src.mu.Unlock()
	if limit := int64(o.Rate) / 5; ahead < -limit || ahead > limit {
		t.Errorf("rendered position %d frames from the clock after the gap, want within ±%d", ahead, limit)
	}
}

func TestOpenValidatesAndRefusesASecondDevice(t *testing.T) {
	m, _ := audio.NewMixer(audio.DefaultOptions())
	if _, err := Open(m, Options{DeviceBuffer: time.Hour, Chunk: -1}); err == nil {
		t.Error("Open with bad options succeeded")
	}
	open(t, m)
	m2, _ := audio.NewMixer(audio.DefaultOptions())
	if _, err := Open(m2, Options{}); !errors.Is(err, ErrNoDevice) {
		t.Errorf("second Open: %v, want ErrNoDevice", err)
	}
}
