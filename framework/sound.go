package framework

import (
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/audio/otoaudio"
	"github.com/metronome-go/metronome/ecs"
)

// Sound is the session's sound output as a game can watch it: whether it
// plays, why not, and the counters of its mixer and device, for an
// overlay or a settings screen. Games play sounds through the ECS Audio
// resource ([ecs.Sys.Play]); this is only the view from outside.
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

// Playing reports whether the game's sounds are mixed for output: on an
// output device, or in a test harness's offline mixer.
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

// UseMixer gives the session's ECS app the Audio resource that plays
// through m, and makes [Setup.Sound] report m's counters. [Run] does it
// with the mixer it starts on the output device; a test harness does it
// with a mixer it renders offline (frameworktest's Options.Sound). Call it
// once, before the session runs; m must be started by whoever renders it.
func (s *Session) UseMixer(m *audio.Mixer) {
	s.sound = Sound{mixer: m}
	ecs.AddAudio(s.App, m.Player())
}

// mute silences a session whose mixer has no device, after the game's
// Setup: the app's Audio resource plays nothing from now on, and
// Setup.Sound says why. Before the runtime runs.
func (s *Session) mute(reason string) {
	s.sound = Sound{off: reason}
	if a := ecs.GetResource[ecs.Audio](s.App.World()); a != nil {
		a.Player = nil
	}
}

// silence gives the session's app the silent Audio resource (every sound
// request succeeds and plays nothing), and Setup.Sound the reason; ""
// says the session has no sound output.
func (s *Session) silence(reason string) {
	s.sound = Sound{off: reason}
	ecs.AddAudio(s.App, nil)
}
