package schedule

import "fmt"

type lateMode uint8

const (
	lateSkip lateMode = iota
	lateCoalesce
	lateCatchUp
)

// LatePolicy says what a dispatch does with a periodic entry that finds more
// than one of its occurrences due, because [Queue.Advance] jumped over ticks.
// Whatever the policy, the entry's next due tick stays on its original phase.
// The zero LatePolicy is [Skip].
type LatePolicy struct {
	mode  lateMode
	limit int
}

// Skip delivers only the latest due occurrence, placed in delivery order at
// its own due tick; the earlier ones are dropped and counted in
// [Delivery.Dropped].
func Skip() LatePolicy { return LatePolicy{mode: lateSkip} }

// Coalesce folds all due occurrences into one delivery at the latest one's
// due tick, with [Delivery.Count] saying how many it stands for.
func Coalesce() LatePolicy { return LatePolicy{mode: lateCoalesce} }

// CatchUp delivers each due occurrence separately, each at its own place in
// the order, but at most limit per dispatch (1..[MaxCatchUp]): when more are
// due, the oldest are dropped and counted in the first delivery's
// [Delivery.Dropped]. CatchUp(1) behaves like [Skip].
func CatchUp(limit int) LatePolicy { return LatePolicy{mode: lateCatchUp, limit: limit} }

// String returns the policy as it is written in Go.
func (p LatePolicy) String() string {
	switch p.mode {
	case lateSkip:
		return "Skip()"
	case lateCoalesce:
		return "Coalesce()"
	case lateCatchUp:
		return fmt.Sprintf("CatchUp(%d)", p.limit)
	}
	return fmt.Sprintf("LatePolicy(%d)", p.mode)
}

// keep is how many of the due occurrences the policy delivers separately.
func (p LatePolicy) keep() uint64 {
	if p.mode == lateCatchUp {
		return uint64(p.limit)
	}
	return 1
}

func (p LatePolicy) validate() error {
	if p.mode == lateCatchUp && (p.limit < 1 || p.limit > MaxCatchUp) {
		return fmt.Errorf("%w: CatchUp limit %d, allowed 1..%d", ErrInvalid, p.limit, MaxCatchUp)
	}
	return nil
}
