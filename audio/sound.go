package audio

import (
	"errors"
	"math"
	"time"

	"github.com/metronome-go/metronome/media"
)

// Limits that keep a damaged or hostile file from taking unbounded memory.
// A header that declares more is refused before anything is allocated, and
// a decoder that produces more stops with [media.ErrTooLarge].
const (
	// MaxFileBytes is the largest sound file LoadSound reads into memory.
	MaxFileBytes = 64 << 20
	// MaxSoundFrames is the longest sound decoded whole: about three minutes
	// at 48 kHz, 64 MiB of stereo float32. Longer music is streamed.
	MaxSoundFrames = 1 << 23
	// MinRate and MaxRate bound the sample rates of sounds and of the mixer.
	MinRate = 8000
	MaxRate = 192000
)

// Sound is decoded audio held in memory: interleaved float32 samples in
// [-1, 1], mono or stereo, at its own sample rate. A Sound is immutable once
// made, so any number of voices on any goroutine may play it at once.
type Sound struct {
	name     string
	rate     int
	channels int
	data     []float32
}

// NewSound makes a sound from interleaved samples (left, right, left, ...
// for stereo). It keeps samples, which the caller must not change
// afterwards. Rate must lie in [MinRate, MaxRate], channels is 1 or 2, the
// sample count a multiple of channels and at most MaxSoundFrames frames;
// every problem is reported at once.
func NewSound(name string, rate, channels int, samples []float32) (*Sound, error) {
	var errs []error
	if rate < MinRate || rate > MaxRate {
		errs = append(errs, media.Detail(media.ErrInvalid, "rate %d outside [%d, %d]", rate, MinRate, MaxRate))
	}
	if channels != 1 && channels != 2 {
		errs = append(errs, media.Detail(media.ErrUnsupported, "%d channels (allowed: 1 or 2)", channels))
	} else if len(samples)%channels != 0 {
		errs = append(errs, media.Detail(media.ErrInvalid, "%d samples is not a whole number of %d-channel frames", len(samples), channels))
	} else if len(samples)/channels > MaxSoundFrames {
		errs = append(errs, media.Detail(media.ErrTooLarge, "%d frames (at most %d)", len(samples)/channels, MaxSoundFrames))
	}
	if len(errs) > 0 {
		return nil, &media.Error{Pkg: "audio", Op: "make sound", Path: name, Err: errors.Join(errs...)}
	}
	return &Sound{name: name, rate: rate, channels: channels, data: samples}, nil
}

// Name returns the name the sound was loaded or made under.
func (s *Sound) Name() string { return s.name }

// Rate returns the sample rate in frames per second.
func (s *Sound) Rate() int { return s.rate }

// Channels returns 1 (mono) or 2 (stereo).
func (s *Sound) Channels() int { return s.channels }

// Frames returns the length in frames (one sample per channel).
func (s *Sound) Frames() int { return len(s.data) / s.channels }

// Duration returns the length at the sound's own rate, rounded down to a
// nanosecond.
func (s *Sound) Duration() time.Duration {
	return time.Duration(int64(s.Frames()) * int64(time.Second) / int64(s.rate))
}

// Samples returns the interleaved samples. The slice is the sound's own
// storage: read it, never write it.
func (s *Sound) Samples() []float32 { return s.data }

// Peak returns the largest absolute sample value.
func (s *Sound) Peak() float32 {
	var p float32
	for _, v := range s.data {
		p = max(p, float32(math.Abs(float64(v))))
	}
	return p
}
