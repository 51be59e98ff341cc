package timing

import (
	"fmt"
	"math/bits"
	"time"
)

// Rate is an exact tick rate: Num/Den ticks per second. Rate{Num: 60, Den: 1}
// is 60 Hz and Rate{Num: 60000, Den: 1001} is NTSC's 59.94 Hz. The zero Rate
// means "no rate": the scheduler then uses Options.FixedStep.
type Rate struct {
	Num int64 // ticks, 1 to 1e9
	Den int64 // seconds, 1 to 1e9; at most 3600 s per tick
}

// Hz returns a rate of n ticks per second.
func Hz(n int64) Rate { return Rate{Num: n, Den: 1} }

// IsZero reports whether r is the zero Rate.
func (r Rate) IsZero() bool { return r.Num == 0 && r.Den == 0 }

// Step returns the length of one tick rounded to the nearest nanosecond.
// The scheduler never uses this rounded value: it keeps the exact fraction.
// It returns 0 for an invalid rate.
func (r Rate) Step() time.Duration {
	if r.Num <= 0 || r.Den <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(r.Den), 1e9)
	lo, c := bits.Add64(lo, uint64(r.Num)/2, 0)
	hi += c
	if hi >= uint64(r.Num) {
		return 0
	}
	q, _ := bits.Div64(hi, lo, uint64(r.Num))
	if q > 1<<63-1 {
		return 0
	}
	return time.Duration(q)
}

// String formats the rate as "60/1 Hz".
func (r Rate) String() string { return fmt.Sprintf("%d/%d Hz", r.Num, r.Den) }

// phase fixes the scheduler's unit of account. Real time is measured in
// phase units: p units per nanosecond, t units per fixed step. A step given
// as a duration d has p = 1, t = d. A rate n/d has p = n/g and t = 1e9*d/g
// with g = gcd(n, 1e9*d), so every step is exactly t units and no rounding
// ever happens. Validation keeps p <= t (a step is at least 1 ns), which is
// what lets the 128-bit helpers below divide without overflow.
type phase struct {
	p, t   uint64
	tq, tr uint64 // t/p and t%p: one step as whole nanoseconds plus a fraction
}

func newPhase(step time.Duration, r Rate) phase {
	var ph phase
	if r.IsZero() {
		ph.p, ph.t = 1, uint64(step)
	} else {
		n, d := uint64(r.Num), uint64(r.Den)*1e9
		g := gcd(n, d)
		ph.p, ph.t = n/g, d/g
	}
	ph.tq, ph.tr = ph.t/ph.p, ph.t%ph.p
	return ph
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// u128 is an unsigned 128-bit integer, enough for any interval of an int64
// nanosecond clock times p <= 1e9.
type u128 struct{ hi, lo uint64 }

func mul64(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

func (x u128) add(y u128) u128 {
	lo, c := bits.Add64(x.lo, y.lo, 0)
	hi, _ := bits.Add64(x.hi, y.hi, c)
	return u128{hi, lo}
}

func (x u128) add64(y uint64) u128 { return x.add(u128{0, y}) }

// sub returns x-y; the caller guarantees x >= y.
func (x u128) sub(y u128) u128 {
	lo, b := bits.Sub64(x.lo, y.lo, 0)
	hi, _ := bits.Sub64(x.hi, y.hi, b)
	return u128{hi, lo}
}

func (x u128) cmp(y u128) int {
	switch {
	case x.hi < y.hi:
		return -1
	case x.hi > y.hi:
		return 1
	case x.lo < y.lo:
		return -1
	case x.lo > y.lo:
		return 1
	}
	return 0
}

func (x u128) isZero() bool { return x.hi == 0 && x.lo == 0 }

// divmod returns x/d and x%d. It requires x.hi < d, which the phase
// invariants guarantee for every quantity the scheduler divides.
func (x u128) divmod(d uint64) (q, r uint64) {
	if x.hi == 0 {
		return x.lo / d, x.lo % d
	}
	return bits.Div64(x.hi, x.lo, d)
}

// mixed is a signed amount of time ns + frac/p with 0 <= frac < p: whole
// nanoseconds plus a fraction of one in phase units. Ledger totals and the
// real-time cursor are mixed so that a rational step never rounds.
type mixed struct {
	ns   int64
	frac uint64
}

// addUnits adds u phase units.
func (m *mixed) addUnits(u u128, ph *phase) {
	if ph.p == 1 { // a step given as a duration: units are nanoseconds
		m.ns += int64(u.lo)
		return
	}
	q, r := u.divmod(ph.p)
	m.ns += int64(q)
	m.frac += r
	if m.frac >= ph.p {
		m.frac -= ph.p
		m.ns++
	}
}

// subUnits subtracts u phase units.
func (m *mixed) subUnits(u u128, ph *phase) {
	q, r := u.divmod(ph.p)
	m.ns -= int64(q)
	if r > m.frac {
		m.frac += ph.p - r
		m.ns--
	} else {
		m.frac -= r
	}
}

// addStep adds one fixed step without dividing.
func (m *mixed) addStep(ph *phase) {
	m.ns += int64(ph.tq)
	m.frac += ph.tr
	if m.frac >= ph.p {
		m.frac -= ph.p
		m.ns++
	}
}

// addSteps adds n fixed steps.
func (m *mixed) addSteps(n uint64, ph *phase) {
	if n == 1 {
		m.addStep(ph)
		return
	}
	m.addUnits(mul64(n, ph.t), ph)
}

// addNanos adds whole nanoseconds.
func (m *mixed) addNanos(d int64) { m.ns += d }

// rescale converts m from phase from to phase to, rounding the fraction
// down (by less than one unit of to).
func (m *mixed) rescale(from, to *phase) {
	if from.p == to.p {
		return
	}
	q, _ := mul64(m.frac, to.p).divmod(from.p)
	m.frac = q
}

// units returns m*p for a non-negative m as a u128.
func (m mixed) units(ph *phase) u128 {
	return mul64(uint64(m.ns), ph.p).add64(m.frac)
}

// instant returns the whole-nanosecond part of a mixed instant.
func (m mixed) instant() Instant { return Instant(m.ns) }
