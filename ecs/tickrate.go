package ecs

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// TickRate is the length of a fixed tick, taken once from the timing
// configuration, for turning what a game's settings say in time units
// (a reload of 350 ms, a speed of 260 pixels a second) into what its
// systems count: whole ticks and per-tick amounts. A game that works them
// out at set-up runs the same integer and float32 values on every peer,
// whatever the frame rate:
//
//	rate, err := ecs.TickRateOf(s.Config.Timing) // a framework game's Setup
//	reload := rate.Ticks(settings.Reload)         // 350ms at 60 Hz: 21
//	step := rate.PerTick(settings.ShipSpeed)      // 260 px/s at 60 Hz: 4.3333335
//
// The zero TickRate has no length; its methods return 0.
type TickRate struct {
	// A tick is ns/per nanoseconds exactly: a rate n/d Hz gives
	// ns = d*1e9 and per = n, a fixed step s gives ns = s and per = 1.
	ns, per uint64
}

// TickRateOf returns the tick of o, which must be in fixed mode: its Rate
// when set, else its FixedStep. In variable mode ticks are as long as the
// frames happen to be, so a count of ticks means no fixed time; the error
// says so, as it names a rate or step out of range.
func TickRateOf(o timing.Options) (TickRate, error) {
	if o.Mode != timing.FixedMode {
		return TickRate{}, fmt.Errorf("ecs: TickRateOf: timing mode is %v: ticks have no fixed length; a game that counts ticks needs timing.mode = \"fixed\"", o.Mode)
	}
	if r := o.Rate; !r.IsZero() {
		if r.Num < 1 || r.Num > 1e9 || r.Den < 1 || r.Den > 1e9 {
			return TickRate{}, fmt.Errorf("ecs: TickRateOf: timing rate %d/%d: want a numerator and a denominator of 1 to 1000000000", r.Num, r.Den)
		}
		return TickRate{ns: uint64(r.Den) * 1e9, per: uint64(r.Num)}, nil
	}
	if o.FixedStep <= 0 || o.FixedStep > time.Hour {
		return TickRate{}, fmt.Errorf("ecs: TickRateOf: timing step %v: want 1ns to 1h (or a rate)", o.FixedStep)
	}
	return TickRate{ns: uint64(o.FixedStep), per: 1}, nil
}

// Step returns the tick's length rounded to the nearest nanosecond (the
// scheduler keeps a rate's exact fraction; this is for display).
func (r TickRate) Step() time.Duration {
	if r.per == 0 {
		return 0
	}
	return time.Duration((r.ns + r.per/2) / r.per)
}

// Ticks returns the whole number of ticks nearest to d (a half rounds
// up), computed exactly from the rate: 1s at 60 Hz is 60, 350ms is 21,
// 10ms is 1, and 1s at 30000/1001 Hz is 30. A negative d gives 0, and a
// d longer than the int range of ticks saturates. Delays on the gameplay
// queue round up instead ([Sys.TicksFor]), so that a delay is never
// shorter than asked.
func (r TickRate) Ticks(d time.Duration) int {
	if d <= 0 || r.ns == 0 {
		return 0
	}
	// d*per/ns in 128 bits, plus half the divisor to round.
	hi, lo := bits.Mul64(uint64(d), r.per)
	lo, c := bits.Add64(lo, r.ns/2, 0)
	hi += c
	if hi >= r.ns {
		return maxInt
	}
	q, _ := bits.Div64(hi, lo, r.ns)
	if q > uint64(maxInt) {
		return maxInt
	}
	return int(q)
}

const maxInt = int(^uint(0) >> 1)

// PerTick returns perSecond's share of one tick, rounded to float32 once:
// the distance a speed covers in a tick, which a system then adds with
// no product of its own to round (see Determinism across machines in the
// package doc).
func (r TickRate) PerTick(perSecond float64) float32 {
	if r.per == 0 {
		return 0
	}
	// ns/per nanoseconds a tick: perSecond * ns / (per * 1e9), one
	// product and divisions, so no fused multiply-add can round it
	// differently on another machine.
	return float32(perSecond * float64(r.ns) / (float64(r.per) * 1e9))
}
