package timing

import "fmt"

// CheckLedger verifies the scheduler's exact accounts, in phase units, for
// tests: real time plus adjustments equals simulated, dropped, suspended and
// pending time, and the pending time kept as debt and remainder matches the
// distance from the real-time cursor to the latest reading.
func (s *Scheduler) CheckLedger() error {
	ph := &s.ph
	if s.rem >= ph.t {
		return fmt.Errorf("remainder %d units is not below one step (%d)", s.rem, ph.t)
	}
	lhs := mul64(uint64(s.last-s.start), ph.p)
	rhs := s.sim.units(ph)
	for i := range s.dropped {
		if s.dropped[i].ns < 0 || s.dropped[i].frac >= ph.p {
			return fmt.Errorf("dropped[%d] = %+v is malformed", i, s.dropped[i])
		}
		rhs = rhs.add(s.dropped[i].units(ph))
	}
	rhs = rhs.add(mul64(uint64(s.suspended), ph.p))
	if s.adjusted >= 0 {
		lhs = lhs.add(mul64(uint64(s.adjusted), ph.p))
	} else {
		rhs = rhs.add(mul64(uint64(-s.adjusted), ph.p))
	}
	var pendNeg bool
	var pend u128
	if s.debt >= 0 {
		pend = mul64(uint64(s.debt), ph.t).add64(s.rem)
		rhs = rhs.add(pend)
	} else {
		pendNeg = true
		pend = mul64(uint64(-s.debt), ph.t).sub(u128{0, s.rem})
		lhs = lhs.add(pend)
	}
	if lhs != rhs {
		return fmt.Errorf("ledger does not balance: %+v != %+v (debt %d, rem %d)", lhs, rhs, s.debt, s.rem)
	}
	// last - cursor, in units, must equal the pending time.
	c := s.cursor
	var dist u128
	var distNeg bool
	if Instant(c.ns) < s.last || (Instant(c.ns) == s.last && c.frac == 0) {
		dist = mul64(uint64(int64(s.last)-c.ns), ph.p).sub(u128{0, c.frac})
	} else {
		distNeg = true
		dist = mul64(uint64(c.ns-int64(s.last)), ph.p).add64(c.frac)
	}
	if dist.isZero() {
		distNeg = false
	}
	if pend.isZero() {
		pendNeg = false
	}
	if dist != pend || distNeg != pendNeg {
		return fmt.Errorf("cursor %+v is %v units (negative %v) from %v, pending is %v (negative %v)", c, dist, distNeg, s.last, pend, pendNeg)
	}
	return nil
}

// fallback is the sleep of Windows and macOS without their native timer.
type fallback struct{}

func (fallback) now() Instant                 { return Now() }
func (fallback) prepare()                     {}
func (fallback) sleep(now, end Instant) error { return sleepSlice(now, end) }

// SleepUntil is the wait of Windows and macOS without their native timer
// (the one loop over sleepSlice), so that it is tested on every system.
func (w *osWaiter) SleepUntil(target Instant) error {
	return waitLoop(fallback{}, &w.woken, 0, target)
}

// OSWaiter is the native waiter's type, for tests that reach its fallback.
type OSWaiter = osWaiter

// Bounds the tests check against.
const (
	MaxEarlyWakes     = maxEarlyWakes
	MaxTelemetryCount = maxTelemetryCount
)

// Policy returns the pacer's policy in force.
func (p *FramePacer) Policy() PacingPolicy { return p.policy }
