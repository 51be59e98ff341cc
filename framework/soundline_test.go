package framework_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/timing"
)

// TestNoSoundDeviceLine: a game with no sound device says so in one short
// line, with what to do, however long the system's error (ALSA's names
// every device it tried: 540 bytes on a machine with no sound card).
func TestNoSoundDeviceLine(t *testing.T) {
	testdisplay.Require(t)
	const alsa = `oto: ALSA error at snd_pcm_open: "default": No such file or directory, "plug:default": No such file or directory, "lavrate": No such file or directory, "samplerate": No such file or directory, "speexrate": No such file or directory, "jack": No such file or directory, "oss": No such file or directory, "pulse": Connection refused, "speex": No such file or directory, "upmix": No such file or directory, "vdownmix": No such file or directory`
	defer framework.SetOpenDevice(func(*audio.Mixer, timing.Clock) (io.Closer, error) {
		return nil, errors.New(alsa)
	})()
	var stderr bytes.Buffer
	var status int
	testdisplay.OnMain(func() {
		status = framework.MainStatus(spriteGame(), []string{"--headless", "--set", "audio.enabled=true", "--frames", "2"}, io.Discard, &stderr)
	})
	line := stderr.String()
	if status != 0 {
		t.Fatalf("status %d, stderr %q; want 0: no sound device never stops a game", status, line)
	}
	if strings.Count(line, "\n") != 1 || len(line) > 200 {
		t.Errorf("a %d-byte message of %d lines, want one line of at most 200 bytes: %q", len(line), strings.Count(line, "\n"), line)
	}
	for _, want := range []string{": sound is off: ", `"default": No such file or directory`, "set audio.enabled = false"} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q lacks %q", line, want)
		}
	}
	t.Logf("%d bytes: %s", len(line), line)
}
