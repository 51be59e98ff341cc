package rollback

import (
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
)

// What a recording of the match reads: the confirmed timeline, tick by
// tick, once no rollback can change it.

// A Timeline is a confirmed timeline that a recording reads tick by tick
// as it settles: a player's [Session], or a [Follower] (a spectator, a
// player catching up). Simulation goroutine.
type Timeline interface {
	// Settled returns the first tick that is not settled yet: every
	// tick below it was simulated with its confirmed inputs.
	Settled() int64
	// ConfirmedInput returns player p's confirmed action states for
	// tick k, and false when they are not confirmed or no longer held.
	ConfirmedInput(p int, k int64) ([]input.Stats, bool)
}

// Settled implements [Timeline]: every tick below the next it simulates.
func (f *Follower) Settled() int64 { return f.tick }

// ConfirmedInput implements [Timeline]: the follower holds the inputs of
// the last minute of ticks it received (3,600), so a reader that takes
// each tick as it is simulated never misses one. The slice is the
// follower's own; copy it before the next Receive.
func (f *Follower) ConfirmedInput(p int, k int64) ([]input.Stats, bool) {
	if p < 0 || p >= f.players || k < f.start || k >= f.next || k < f.next-followerQueue {
		return nil, false
	}
	return f.row(k, p), true
}

// Settled returns the first tick that is not settled yet: every tick
// below it has all its inputs confirmed and, after [Session.Advance]
// has returned, has been simulated with them, so neither its inputs nor
// the state after it can change again. Simulation goroutine.
func (s *Session) Settled() int64 { return min(s.minFrontier(), s.tick) }

// ConfirmedInput returns player p's confirmed action states for tick k,
// and false when they are not confirmed or no longer held: the session
// keeps about twice the window and the input delay of confirmed ticks
// behind its frontier, so a reader that takes each tick as it settles
// never misses one. The slice is the session's own; copy it before the
// next Advance or ReceiveFrom. Simulation goroutine.
func (s *Session) ConfirmedInput(p int, k int64) ([]input.Stats, bool) {
	if p < 0 || p >= s.players || k >= s.frontier[p] || !s.confirmed(p, k) {
		return nil, false
	}
	return s.stored(p, k), true
}

// HashTypesAt is [App.HashAt] with the hash's breakdown by component
// type, as a recording's checkpoint keeps it. The slice is the App's
// own, valid until the App hashes that tick's slot again. Simulation
// goroutine.
func (a *App) HashTypesAt(s Timeline, tick int64) (uint64, []ecs.TypeHash, bool) {
	h, ok := a.HashAt(s, tick)
	if !ok {
		return 0, nil, false
	}
	return h, a.hashes[a.slot(tick)].types, true
}
