package audio

import (
	"errors"
	"math"
	"time"

	"github.com/metronome-go/metronome/media"
)

// Wave is the oscillator of a [Synth].
type Wave uint8

const (
	Sine Wave = iota
	Square
	Saw
	Triangle
	// Noise is white noise from a fixed-seed generator: the same Synth
	// always makes the same samples.
	Noise
)

func (w Wave) String() string {
	switch w {
	case Sine:
		return "sine"
	case Square:
		return "square"
	case Saw:
		return "saw"
	case Triangle:
		return "triangle"
	case Noise:
		return "noise"
	}
	return "Wave(?)"
}

// Synth describes a generated sound: an oscillator swept from Freq to
// EndFreq under an attack/release envelope. Games and tests use it for
// sounds that need no file, so no binary asset has to be shipped.
type Synth struct {
	Wave Wave
	// Freq is the start frequency in Hz, (0, rate/2]. Ignored for Noise.
	Freq float64
	// EndFreq is the frequency at the end of a linear sweep; zero means no
	// sweep.
	EndFreq float64
	// Amplitude is the peak in (0, 1].
	Amplitude float64
	// Duration is the length, at most MaxSoundFrames frames.
	Duration time.Duration
	// Rate is the sample rate, [MinRate, MaxRate].
	Rate int
	// Attack and Release shape the start and end linearly; zero means a
	// hard edge. Their sum may not exceed Duration.
	Attack, Release time.Duration
	// Seed selects the noise sequence.
	Seed uint64
}

// Validate reports every out-of-range field at once.
func (s Synth) Validate() error {
	var errs []error
	if s.Rate < MinRate || s.Rate > MaxRate {
		errs = append(errs, media.Detail(media.ErrInvalid, "Synth.Rate %d outside [%d, %d]", s.Rate, MinRate, MaxRate))
	}
	nyquist := float64(s.Rate) / 2
	if s.Wave != Noise {
		if !(s.Freq > 0 && s.Freq <= nyquist) {
			errs = append(errs, media.Detail(media.ErrInvalid, "Synth.Freq %g outside (0, %g]", s.Freq, nyquist))
		}
		if s.EndFreq != 0 && !(s.EndFreq > 0 && s.EndFreq <= nyquist) {
			errs = append(errs, media.Detail(media.ErrInvalid, "Synth.EndFreq %g outside (0, %g] (or 0 for no sweep)", s.EndFreq, nyquist))
		}
	}
	if s.Wave > Noise {
		errs = append(errs, media.Detail(media.ErrInvalid, "Synth.Wave %d unknown", s.Wave))
	}
	if !(s.Amplitude > 0 && s.Amplitude <= 1) {
		errs = append(errs, media.Detail(media.ErrInvalid, "Synth.Amplitude %g outside (0, 1]", s.Amplitude))
	}
	if s.Duration <= 0 {
		errs = append(errs, media.Detail(media.ErrInvalid, "Synth.Duration %v must be positive", s.Duration))
	} else if s.Rate > 0 && int64(s.Duration.Seconds()*float64(s.Rate)) > MaxSoundFrames {
		errs = append(errs, media.Detail(media.ErrTooLarge, "Synth.Duration %v is more than %d frames", s.Duration, MaxSoundFrames))
	}
	if s.Attack < 0 || s.Release < 0 || s.Attack+s.Release > s.Duration {
		errs = append(errs, media.Detail(media.ErrInvalid, "Synth.Attack %v and Release %v must be non-negative and fit in Duration %v", s.Attack, s.Release, s.Duration))
	}
	return errors.Join(errs...)
}

// Sound renders the synth into a mono [Sound] named name.
func (s Synth) Sound(name string) (*Sound, error) {
	if err := s.Validate(); err != nil {
		return nil, &media.Error{Pkg: "audio", Op: "synthesise", Path: name, Err: err}
	}
	frames := int(int64(s.Duration) * int64(s.Rate) / int64(time.Second))
	data := make([]float32, frames)
	attack := int(int64(s.Attack) * int64(s.Rate) / int64(time.Second))
	release := int(int64(s.Release) * int64(s.Rate) / int64(time.Second))
	end := s.EndFreq
	if end == 0 {
		end = s.Freq
	}
	rng := s.Seed*2 + 1
	phase := 0.0
	for i := range data {
		var v float64
		switch s.Wave {
		case Sine:
			v = math.Sin(2 * math.Pi * phase)
		case Square:
			v = 1
			if phase >= 0.5 {
				v = -1
			}
		case Saw:
			v = 2*phase - 1
		case Triangle:
			v = 1 - 4*math.Abs(phase-0.5)
		case Noise:
			// xorshift64*: cheap, deterministic, good enough for noise.
			rng ^= rng >> 12
			rng ^= rng << 25
			rng ^= rng >> 27
			v = float64(int64(rng*2685821657736338717)>>11) / (1 << 52)
		}
		g := s.Amplitude
		if i < attack {
			g *= float64(i) / float64(attack)
		}
		if left := frames - 1 - i; left < release {
			g *= float64(left) / float64(release)
		}
		data[i] = float32(v * g)
		f := s.Freq + (end-s.Freq)*float64(i)/float64(frames)
		phase += f / float64(s.Rate)
		phase -= math.Floor(phase)
	}
	return &Sound{name: name, rate: s.Rate, channels: 1, data: data}, nil
}
