package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/framework/config"
)

// The [audio] defaults are the audio package's: the defaults file states
// no option of its own.
func TestAudioDefaultsAreTheMixers(t *testing.T) {
	c := config.Default()
	if !c.Audio.Enabled {
		t.Error("audio.enabled defaults to false, want true")
	}
	if got, want := c.AudioOptions(), audio.DefaultOptions(); got != want {
		t.Errorf("AudioOptions of the defaults = %+v, want audio.DefaultOptions() %+v", got, want)
	}
}

func TestAudioOptionsMapping(t *testing.T) {
	c, err := config.Parse("game.toml", []byte(`[audio]
enabled = false
latency = "120ms"
tolerance = "30ms"
max_voices = 16
master_volume = 0.5
music_volume = 0.25
effects_volume = 2.0
ui_volume = 0
`), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	o := c.AudioOptions()
	want := audio.DefaultOptions()
	want.Latency, want.Tolerance, want.MaxVoices = 120*time.Millisecond, 30*time.Millisecond, 16
	want.Volumes = [audio.NumBuses]float32{audio.Effects: 2, audio.Music: 0.25, audio.UI: 0, audio.Master: 0.5}
	if o != want {
		t.Errorf("AudioOptions = %+v, want %+v", o, want)
	}
	if c.Audio.Enabled {
		t.Error("audio.enabled = false not read")
	}
	if _, err := audio.NewMixer(o); err != nil {
		t.Errorf("the mixer refuses what the configuration accepted: %v", err)
	}
}

// Out-of-range values are reported under their keys, all at once, with the
// audio package's statement of the range, from a file, from --set and for
// a Config changed in code; a disabled [audio] table is checked all the
// same.
func TestAudioRangesAreTheMixers(t *testing.T) {
	_, err := config.Parse("game.toml", []byte(`[audio]
enabled = false
latency = "3s"
tolerance = "-1s"
max_voices = 0
master_volume = 4.5
ui_volume = -1
`), config.Default())
	want := []string{
		`config: game.toml: audio.latency = "3s": out of range; allowed: 0s to 2s`,
		`config: game.toml: audio.tolerance = "-1s": out of range; allowed: 0s to 10s`,
		`config: game.toml: audio.max_voices = 0: out of range; allowed: 1 to 1024`,
		`config: game.toml: audio.master_volume = 4.5: out of range; allowed: 0 to 4`,
		`config: game.toml: audio.ui_volume = -1: out of range; allowed: 0 to 4`,
	}
	if err == nil {
		t.Fatal("Parse accepted out-of-range audio values")
	}
	got := strings.Split(err.Error(), "\n")
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("errors\n%v\nlack %q", err, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d errors, want %d:\n%v", len(got), len(want), err)
	}

	c := config.Default()
	if err := c.Set("audio.music_volume=5"); err == nil || err.Error() != "config: command line: audio.music_volume = 5: out of range; allowed: 0 to 4" {
		t.Errorf("--set audio.music_volume=5: %v", err)
	}
	c = config.Default()
	c.Audio.Effects = 9
	if err := c.Validate("code"); err == nil || err.Error() != "config: code: audio.effects_volume = 9.0: out of range; allowed: 0 to 4" {
		t.Errorf("Validate of a Config changed in code: %v", err)
	}
	// A volume just above 4 is above 4, though float32 rounds it to 4.
	c = config.Default()
	c.Audio.Master = 4.000000000000001
	if err := c.Validate("code"); err == nil || !strings.Contains(err.Error(), "audio.master_volume") {
		t.Errorf("master volume just above 4: %v, want refused", err)
	}
}
