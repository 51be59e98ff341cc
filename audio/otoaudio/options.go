package otoaudio

import (
	"errors"
	"fmt"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// Options configure a [Device]. A zero field takes its default.
type Options struct {
	// DeviceBuffer is the buffer oto asks the system for (ALSA on Linux),
	// [5ms, 500ms]. Default 40 ms.
	DeviceBuffer time.Duration
	// PlayerBuffer is how much rendered audio oto keeps between the mixer
	// and the device buffer, [5ms, 500ms]. Default 20 ms. DeviceBuffer +
	// PlayerBuffer is about how far ahead of the clock the mixer renders:
	// the mixer's Latency must exceed it (plus an update's length) for
	// sounds to be placed rather than late.
	PlayerBuffer time.Duration
	// Chunk is the most the mixer renders per read, [1ms, 100ms]. Default
	// 5 ms: small reads keep the player's buffer close to PlayerBuffer.
	Chunk time.Duration
	// PumpInterval is the longest the stream pump sleeps between fills,
	// [1ms, 1s]. Default 10 ms. It also wakes whenever a stream runs low.
	PumpInterval time.Duration
	// Clock is read to fix the timeline origin and to notice gaps. Default
	// timing.SystemClock.
	Clock timing.Clock
}

func (o Options) withDefaults() Options {
	if o.DeviceBuffer == 0 {
		o.DeviceBuffer = 40 * time.Millisecond
	}
	if o.PlayerBuffer == 0 {
		o.PlayerBuffer = 20 * time.Millisecond
	}
	if o.Chunk == 0 {
		o.Chunk = 5 * time.Millisecond
	}
	if o.PumpInterval == 0 {
		o.PumpInterval = 10 * time.Millisecond
	}
	if o.Clock == nil {
		o.Clock = timing.SystemClock{}
	}
	return o
}

// Validate reports every field out of range, all at once.
func (o Options) Validate() error {
	o = o.withDefaults()
	var errs []error
	check := func(name string, v, lo, hi time.Duration) {
		if v < lo || v > hi {
			errs = append(errs, fmt.Errorf("otoaudio: Options.%s %v outside [%v, %v]", name, v, lo, hi))
		}
	}
	check("DeviceBuffer", o.DeviceBuffer, 5*time.Millisecond, 500*time.Millisecond)
	check("PlayerBuffer", o.PlayerBuffer, 5*time.Millisecond, 500*time.Millisecond)
	check("Chunk", o.Chunk, time.Millisecond, 100*time.Millisecond)
	check("PumpInterval", o.PumpInterval, time.Millisecond, time.Second)
	return errors.Join(errs...)
}

// ErrNoDevice wraps every failure to open the system's audio output, so
// a game can run silently with one line saying why.
var ErrNoDevice = errors.New("otoaudio: no audio device")

// Stats are the device's view of the timeline.
type Stats struct {
	// Reads counts the buffers oto asked the mixer for: the callback ran.
	Reads uint64
	// Lead is how far the mixer had rendered ahead of the clock at the
	// last read (frames rendered minus frames the clock says have been
	// due since the origin); MinLead and MaxLead bound it since Open.
	Lead, MinLead, MaxLead time.Duration
	// Queued is the rendered audio oto still held in its player buffer at
	// the last read: what oto reports of its latency.
	Queued time.Duration
	// Underruns counts the gaps found: the device had played past what the
	// mixer rendered, so the timeline was moved on (see audio.Mixer.Skip).
	Underruns uint64
}
