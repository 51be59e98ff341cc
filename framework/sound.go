package framework

import (
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/audio/otoaudio"
)

// Sound is the session's sound output as a game can watch it: whether it
// plays, why not, and the counters of its mixer and device, for an
// overlay or a settings screen. Games play sounds through the ECS Audio
// resource ([ecs.Context.Play]); this is only the view from outside.
// Its methods are safe from any goroutine.
type Sound struct {
	mixer *audio.Mixer
	dev   deviceStats // nil for a device that keeps none
	off   string
}

// deviceStats is the part of an output device Sound reads.
type deviceStats interface{ Stats() otoaudio.Stats }

// SoundStats are a snapshot of the output's counters.
type SoundStats struct {
	// Latency is the mixer's output latency: how far after an update's
	// instant its sounds are placed.
	Latency time.Duration
	// Mixer holds the mixer's counters: voices, placed, late, dropped,
	// underruns and realigns.
	Mixer audio.Stats
	// Device holds the device's view (how far the mixer renders ahead of
	// the clock, what the backend still holds); HasDevice says it is set.
	Device    otoaudio.Stats
	HasDevice bool
}

// Playing reports whether sound reaches an output device.
func (s *Sound) Playing() bool { return s != nil && s.mixer != nil }

// Off says why the session is silent ("" while it plays): disabled in
// the configuration, no device, or a session without output (a headless
// replay, a test harness).
func (s *Sound) Off() string {
	switch {
	case s == nil || (s.mixer == nil && s.off == ""):
		return "this session has no sound output"
	case s.mixer == nil:
		return s.off
	}
	return ""
}

// Stats returns the output's counters; the zero SoundStats when silent.
func (s *Sound) Stats() SoundStats {
	if !s.Playing() {
		return SoundStats{}
	}
	st := SoundStats{Latency: s.mixer.Options().Latency, Mixer: s.mixer.Stats()}
	if s.dev != nil {
		st.Device, st.HasDevice = s.dev.Stats(), true
	}
	return st
}
