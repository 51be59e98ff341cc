package inspect

import (
	"cmp"
	"slices"

	"github.com/metronome-go/metronome/audio"
)

// Sound is a sound request a tick made, on the timeline: a voice started
// (play, loop, or a stream) or stopped, or a bus changed. A voice's
// volume, pan and speed changes are left out: a positional source sends
// them every few ticks, and they would bury the starts.
type Sound struct {
	// Kind is "play", "loop" (a play that loops), "stream", "stop",
	// "bus volume" or "bus mute".
	Kind string `json:"kind"`
	// Name is the sound's (or stream's) name, also on a stop of a voice
	// the session started; "" for a bus.
	Name string `json:"name,omitempty"`
	// Voice numbers the voice within the session (audio.Voice.ID).
	Voice uint64 `json:"voice,omitempty"`
	// Bus is the bus a play puts the voice on, or the bus changed.
	Bus string `json:"bus"`
}

// tickSound is a Sound of a tick.
type tickSound struct {
	tick uint64
	Sound
}

// Sounds notes the sound requests of a replay's first pass by tick, for
// the timeline: the replay session's audio player is tapped with
// [Sounds.Tap] (audio.Player.Tapped) before its first tick, and the
// [Replay] is handed it ([Replay.TakeSounds]) once made. Ticks run again
// by a seek make the same requests, which it leaves out. A game that is
// not inspected has no tap and pays nothing.
type Sounds struct {
	tick uint64 // the tick being run
	off  bool   // a seek runs ticks again
	list []tickSound
}

// NewSounds returns a Sounds noting tick 0's requests first.
func NewSounds() *Sounds { return &Sounds{} }

// Tap notes one request of the tick being run: the function to hand
// audio.Player.Tapped.
func (s *Sounds) Tap(r audio.Request) {
	if s.off {
		return
	}
	var snd Sound
	switch r.Kind {
	case audio.RequestPlay:
		snd = Sound{Kind: "play", Voice: r.Voice.ID(), Bus: r.Params.Bus.String()}
		switch {
		case r.Stream != nil:
			snd.Kind, snd.Name = "stream", r.Stream.Name()
		case r.Sound != nil:
			snd.Name = r.Sound.Name()
		}
		if r.Params.Loop {
			snd.Kind = "loop"
		}
	case audio.RequestStop:
		snd = Sound{Kind: "stop", Voice: r.Voice.ID(), Name: s.started(r.Voice.ID())}
	case audio.RequestBusVolume, audio.RequestBusMute:
		snd = Sound{Kind: r.Kind.String(), Bus: r.Bus.String()}
	default:
		return
	}
	s.list = append(s.list, tickSound{tick: s.tick, Sound: snd})
}

// started returns the name of the voice's sound, from the play that
// started it ("" for a voice this session did not start). The list holds
// every play already, so a stop searches it rather than keep a second
// index that one-shot sounds, never stopped, would only grow.
func (s *Sounds) started(voice uint64) string {
	for i := len(s.list) - 1; i >= 0; i-- {
		if e := s.list[i]; e.Voice == voice && e.Kind != "stop" {
			return e.Name
		}
	}
	return ""
}

// count returns how many sounds the session made.
func (s *Sounds) count() int {
	if s == nil {
		return 0
	}
	return len(s.list)
}

// at returns the index of the first sound of tick t or later.
func (s *Sounds) at(t uint64) int {
	if s == nil {
		return 0
	}
	i, _ := slices.BinarySearchFunc(s.list, t, func(c tickSound, t uint64) int { return cmp.Compare(c.tick, t) })
	return i
}

// TakeSounds makes s the replay's sounds: its timeline shows them, and
// each Observe moves s on to the next tick. Call it before the second
// tick is observed (the framework calls it when it makes the Replay,
// after the first).
func (r *Replay) TakeSounds(s *Sounds) {
	r.sounds = s
	s.tick = r.log.n
}

// SoundCount returns the number of sounds on the timeline.
func (r *Replay) SoundCount() int { return r.sounds.count() }
