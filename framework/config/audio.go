package config

import (
	"math"
	"time"

	"github.com/metronome-go/metronome/audio"
)

// Audio is the [audio] table: whether the game opens an audio device, and
// the mixer's options a player may want to change. The option tags name
// the mixer's fields, whose ranges are the audio package's; every value is
// checked whether or not audio is enabled, so a file that is wrong is
// wrong everywhere.
type Audio struct {
	// Enabled opens the audio device. Off (or with no device), the game
	// runs silently: sounds are requested and go nowhere.
	Enabled   bool
	Latency   time.Duration `option:"audio Options.Latency"`
	Tolerance time.Duration `option:"audio Options.Tolerance"`
	MaxVoices int           `option:"audio Options.MaxVoices"`
	// Master, Music, Effects and UI are the buses' volumes at start, linear
	// gains.
	Master  float64 `toml:"master_volume" option:"audio Options.Volumes[Master]"`
	Music   float64 `toml:"music_volume" option:"audio Options.Volumes[Music]"`
	Effects float64 `toml:"effects_volume" option:"audio Options.Volumes[Effects]"`
	UI      float64 `toml:"ui_volume" option:"audio Options.Volumes[UI]"`
}

// AudioOptions turns the [audio] table into mixer options, starting from
// [audio.DefaultOptions] (the rate, stream and queue sizes keep their
// defaults). It does not check them: [Config.Validate] already has, with
// the audio package's Validate, and [audio.NewMixer] checks again.
// Whether to open a device at all is c.Audio.Enabled.
func (c *Config) AudioOptions() audio.Options {
	o := audio.DefaultOptions()
	o.Latency = c.Audio.Latency
	o.Tolerance = c.Audio.Tolerance
	o.MaxVoices = c.Audio.MaxVoices
	o.Volumes[audio.Master] = gain(c.Audio.Master)
	o.Volumes[audio.Music] = gain(c.Audio.Music)
	o.Volumes[audio.Effects] = gain(c.Audio.Effects)
	o.Volumes[audio.UI] = gain(c.Audio.UI)
	return o
}

// gain narrows a volume to the mixer's float32 without moving a value
// outside [0, audio.MaxVolume] inside it (4.000000000000001 rounds to 4
// in float32), so such a value is reported rather than silently accepted.
func gain(v float64) float32 {
	f := float32(v)
	switch {
	case v > audio.MaxVolume && f <= audio.MaxVolume:
		return math.Nextafter32(audio.MaxVolume, math.MaxFloat32)
	case v < 0 && f >= 0:
		return math.Nextafter32(0, -1)
	}
	return f
}
