//go:build !linux || cgo

package otoaudio

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/audio/internal/soundserver"
	"github.com/metronome-go/metronome/timing"
)

var (
	server    *soundserver.Server
	serverErr error
)

func TestMain(m *testing.M) {
	if os.Getenv("OTOAUDIO_NO_SERVER") != "" {
		os.Exit(m.Run())
	}
	s, err := soundserver.Start()
	server, serverErr = s, err
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
	d := openUnclosed(t, m)
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return d
}

// openUnclosed is open without the Close at the end of the test.
func openUnclosed(t *testing.T, m *audio.Mixer) *Device {
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

// A device that stops taking audio (here the sound server is frozen, so
// the system's write call blocks as on a wedged device) must not hang the
// game's exit: Close returns within its bound with an error, and a later
// Open reports the lost output instead of blocking. The device is given
// up for the life of the process, so the check runs in a child process.
func TestCloseIsBoundedWhenTheDeviceStopsTakingAudio(t *testing.T) {
	if os.Getenv("OTOAUDIO_STALL_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCloseIsBoundedWhenTheDeviceStopsTakingAudio$", "-test.v")
		cmd.Env = append(os.Environ(), "OTOAUDIO_STALL_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		if strings.Contains(string(out), "--- SKIP") {
			t.Skipf("child skipped:\n%s", out)
		}
		t.Logf("child:\n%s", out)
		return
	}
	m, _ := audio.NewMixer(audio.DefaultOptions())
	d := openUnclosed(t, m)
	waitFor(t, "output to start", 20*time.Second, func() bool { return d.Stats().Reads > 10 })
	if err := server.Freeze(); err != nil {
		t.Fatal(err)
	}
	defer server.Thaw()
	// Once the server stops, oto's writer fills what the system buffers
	// and blocks; reads stop.
	var last uint64
	waitFor(t, "reads to stop", 20*time.Second, func() bool {
		r := d.Stats().Reads
		if r == last {
			time.Sleep(300 * time.Millisecond)
			return d.Stats().Reads == r
		}
		last = r
		return false
	})
	start := time.Now()
	err := d.Close()
	took := time.Since(start)
	if err == nil {
		t.Errorf("Close on a stalled device returned nil after %v, want an error", took)
	}
	if took > closeBound+time.Second {
		t.Errorf("Close took %v, want about its bound %v", took, closeBound)
	}
	t.Logf("Close after %v: %v", took, err)
	m2, _ := audio.NewMixer(audio.DefaultOptions())
	opened := make(chan error, 1)
	go func() {
		_, err := Open(m2, Options{})
		opened <- err
	}()
	select {
	case err := <-opened:
		if !errors.Is(err, ErrNoDevice) {
			t.Errorf("Open after a stalled Close: %v, want ErrNoDevice", err)
		} else {
			t.Logf("Open after: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Open after a stalled Close still blocks after 5 s; want ErrNoDevice at once")
	}
}

// TestOpenIsBoundedWhenTheServerIsFrozen: a sound server that stops
// answering before the first Open (a frozen PulseAudio) costs the game
// openBound, then ErrNoDevice with the reason; it never hangs. oto's
// context is made once per process, so the test runs in a child process
// of its own.
func TestOpenIsBoundedWhenTheServerIsFrozen(t *testing.T) {
	if os.Getenv("OTOAUDIO_FROZEN_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestOpenIsBoundedWhenTheServerIsFrozen$", "-test.v")
		cmd.Env = append(os.Environ(), "OTOAUDIO_FROZEN_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		if strings.Contains(string(out), "--- SKIP") {
			t.Skipf("child skipped:\n%s", out)
		}
		t.Logf("child:\n%s", out)
		return
	}
	if serverErr != nil {
		if soundserver.InCI() {
			t.Fatalf("a sound server is required in CI: %v", serverErr)
		}
		t.Skipf("no sound server: %v", serverErr)
	}
	if err := server.Freeze(); err != nil {
		t.Fatal(err)
	}
	defer server.Thaw()
	m, _ := audio.NewMixer(audio.DefaultOptions())
	opened := make(chan error, 1)
	start := time.Now()
	go func() {
		d, err := Open(m, Options{})
		if err == nil {
			d.Close()
		}
		opened <- err
	}()
	select {
	case err := <-opened:
		took := time.Since(start)
		if !errors.Is(err, ErrNoDevice) || !strings.Contains(err.Error(), "did not become ready within 2s") {
			t.Errorf("Open with a frozen server: %v, want ErrNoDevice saying it did not become ready", err)
		}
		if took < openBound/2 {
			t.Errorf("Open returned after %v; the server should have kept it waiting for its bound %v", took, openBound)
		}
		t.Logf("Open after %v: %v", took, err)
	case <-time.After(openBound + 10*time.Second):
		t.Fatalf("Open with a frozen server still blocks after %v", openBound+10*time.Second)
	}
}

// TestNoDeviceIsQuiet: without a device, Open returns ErrNoDevice and
// nothing else reaches stderr: alsa-lib's lines and the JACK plugin's
// libjack lines are silenced. It runs in a child process pointed at no
// sound server.
func TestNoDeviceIsQuiet(t *testing.T) {
	if os.Getenv("OTOAUDIO_NODEVICE_CHILD") == "" {
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestNoDeviceIsQuiet$")
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "PULSE_SERVER=") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_") {
				env = append(env, kv)
			}
		}
		cmd.Env = append(env, "OTOAUDIO_NODEVICE_CHILD=1", "OTOAUDIO_NO_SERVER=1", "HOME="+dir, "XDG_RUNTIME_DIR="+dir, "XDG_CONFIG_HOME="+dir, "PULSE_SERVER=unix:"+dir+"/none")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("child: %v\n%s%s", err, out, stderr.String())
		}
		if stderr.Len() > 0 {
			t.Errorf("Open without a device wrote to stderr:\n%s", stderr.String())
		}
		t.Logf("child:\n%s", out)
		return
	}
	m, _ := audio.NewMixer(audio.DefaultOptions())
	d, err := Open(m, Options{})
	if err == nil {
		d.Close()
		t.Skip("a device opened")
	}
	if !errors.Is(err, ErrNoDevice) {
		t.Fatalf("Open without a device: %v, want ErrNoDevice", err)
	}
	if len(err.Error()) > 160 {
		t.Errorf("Open without a device: a %d-byte error, want one short line: %v", len(err.Error()), err)
	}
	fmt.Println(err)
}
