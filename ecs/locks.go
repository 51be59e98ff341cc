package ecs

import (
	"slices"

	arche "github.com/mlange-42/arche/ecs"
)

// Queries are handed out as values whose Next and Get are Arche's own, so
// that they inline and a loop keeps its iterator in registers: that is most
// of the speed of a query. Any bookkeeping in Next, even one store when it
// returns false, puts it over the inliner's budget (Arche's Next alone is at
// it), and an out-of-line Next costs every loop about a fifth of its time.
// So the World cannot see a loop finish. Through Arche's public API it can
// see two things instead:
//
//   - World.IsLocked: when no query holds a lock, every query handed out so
//     far is closed.
//   - Query.Close: closing a query whose lock is already released panics
//     before it changes anything (see closeHeld).
//
// The World keeps a copy of every query it handed out since it last saw
// itself unlocked, minus those closed with Close. At a sync point it closes
// those copies, newest first, until the world is unlocked; each one that
// still held a lock is a leak. A copy closes its original's lock because
// Arche's Close only needs the world and the lock bit, which the copy
// shares.

// issuedQuery is the World's copy of a query it handed out.
type issuedQuery struct {
	q      arche.Query
	ticket uint64
}

// issue records q, just handed out, and returns its ticket. wasLocked is
// whether the world was locked before q was made: if not, every query
// recorded so far is closed and is forgotten.
func (w *World) issue(q *arche.Query, wasLocked bool) uint64 {
	if !wasLocked {
		w.issued = w.issued[:0]
	}
	w.tickets++
	w.issued = append(w.issued, issuedQuery{q: *q, ticket: w.tickets})
	return w.tickets
}

// close implements Close for the query q with the given ticket. A query
// closed before, or forgotten because the world was unlocked since, needs
// nothing; neither does any query once the world is unlocked.
func (w *World) close(q *arche.Query, ticket uint64) {
	if w == nil { // the zero Query
		return
	}
	i := slices.IndexFunc(w.issued, func(iq issuedQuery) bool { return iq.ticket == ticket })
	if i < 0 {
		return
	}
	w.issued = slices.Delete(w.issued, i, i+1)
	if w.w.IsLocked() {
		closeHeld(q)
	}
}

// closeLeaked closes every query that a system left open and returns how
// many there were.
func (w *World) closeLeaked() int {
	n := 0
	// Newest first: when a query finished and a later one took over its
	// lock bit, the later copy closes the bit and the earlier one then finds
	// it released.
	for i := len(w.issued) - 1; i >= 0 && w.w.IsLocked(); i-- {
		if closeHeld(&w.issued[i].q) {
			n++
		}
	}
	w.issued = w.issued[:0]
	return n
}

// closeHeld closes q if it still holds its lock, and reports whether it
// did. Arche releases a query's lock when its iteration ends, and its Close
// on a query whose lock is already released panics ("unbalanced unlock")
// before changing anything. That panic is the only public sign of the
// difference, so it is recovered here; TestArcheCloseOfAReleasedQueryPanics
// pins the behaviour this relies on.
func closeHeld(q *arche.Query) (held bool) {
	defer func() {
		if recover() != nil {
			held = false
		}
	}()
	q.Close()
	return true
}
