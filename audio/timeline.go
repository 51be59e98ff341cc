package audio

import (
	"math"
	"math/bits"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// Timeline maps instants of the monotonic clock onto the device's sample
// frames. Frame 0 is the frame the device played at Origin; a sound meant
// for instant t starts at
//
//	floor((t - Origin) × Rate / 1e9) + Latency
//
// computed exactly in integer arithmetic (128-bit intermediate, so no
// overflow for any pair of instants). Latency is the fixed output latency
// in frames: the room the mixer keeps between "now" and the start of a
// sound requested now, so that a request can arrive a little after its
// instant and still start exactly where it belongs.
type Timeline struct {
	Origin  timing.Instant
	Rate    int
	Latency int64
}

// FrameOf returns the frame the device plays at t, without the latency:
// floor((t - Origin) × Rate / 1e9). Instants before Origin give negative
// frames.
func (tl Timeline) FrameOf(t timing.Instant) int64 {
	if t < tl.Origin {
		return scaleFloor(uint64(tl.Origin)-uint64(t), true, tl.Rate)
	}
	return scaleFloor(uint64(t)-uint64(tl.Origin), false, tl.Rate)
}

// Place returns the frame at which a sound meant for t starts:
// FrameOf(t) + Latency, saturating at the int64 range.
func (tl Timeline) Place(t timing.Instant) int64 {
	f := tl.FrameOf(t)
	if tl.Latency > 0 && f > math.MaxInt64-tl.Latency {
		return math.MaxInt64
	}
	return f + tl.Latency
}

// InstantOf returns the earliest instant whose FrameOf is frame: the
// inverse of FrameOf, rounded up to a nanosecond.
func (tl Timeline) InstantOf(frame int64) timing.Instant {
	neg := frame < 0
	u := uint64(frame)
	if neg {
		u = uint64(-frame)
	}
	hi, lo := bits.Mul64(u, uint64(time.Second))
	var q, r uint64
	if hi < uint64(tl.Rate) {
		q, r = bits.Div64(hi, lo, uint64(tl.Rate))
	}
	if hi >= uint64(tl.Rate) || q > math.MaxInt64 {
		if neg {
			return timing.Instant(math.MinInt64)
		}
		return timing.MaxInstant
	}
	d := int64(q)
	if neg {
		d = -d // ceil of a negative quotient is the truncation
	} else if r != 0 {
		d++
	}
	return timing.Instant(int64(tl.Origin)).AddSaturating(time.Duration(d))
}

// DurationFrames converts a duration to whole frames at rate, rounding
// down; negative durations give zero.
func DurationFrames(d time.Duration, rate int) int64 {
	if d <= 0 {
		return 0
	}
	return scaleFloor(uint64(d), false, rate)
}

// scaleFloor returns floor(±u × rate / 1e9) for a nanosecond difference of
// magnitude u (which may exceed the int64 range) and sign neg.
func scaleFloor(u uint64, neg bool, rate int) int64 {
	hi, lo := bits.Mul64(u, uint64(rate))
	q, r := bits.Div64(hi, lo, uint64(time.Second)) // hi < 2^18 < 1e9 for rate <= MaxRate
	if neg {
		if r != 0 {
			q++
		}
		if q > 1<<63 {
			return math.MinInt64
		}
		return -int64(q)
	}
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(q)
}
