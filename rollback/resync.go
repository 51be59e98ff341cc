package rollback

import (
	"errors"
	"fmt"
)

// Resynchronising a player past the cutoff.
//
// A host whose session holds, waiting for one peer's inputs, longer than
// its scheduler can owe (the cutoff) plays on without that peer rather
// than stall the match: [Session.Fill] makes the host confirm the peer's
// players' inputs itself, as neutral ones (nothing pressed), for every
// tick it simulates, and the confirmed input log and every hash carry
// them. When that peer's session hears the host's frontier for its own
// player run past its own, its inputs since were replaced: its Advance
// fails with [ErrResync], and it catches up on the host's confirmed
// timeline like a player rejoining (a [Follower] that asks for a
// snapshot, [Follower.NeedState], then [NewSessionAfter]). The host stops
// filling ([Session.Unfill]) when the peer asks to catch up, so the feed
// ends where the peer plays on. Only a match of two peers fills: with
// more, the other peers take a player's inputs from its own peer only.

// ErrResync is wrapped by the error of [Session.Advance] once the host has
// confirmed this session's own player's inputs past what it sent
// ([Session.Fill]): its timeline differs from the match's from there, and
// it must catch up on the host's ([Follower.NeedState]).
var ErrResync = errors.New("rollback: the host played on without this peer's inputs")

// Fill makes the session confirm the inputs of every player of peer as
// neutral (zero action states), from that player's frontier up to each
// tick it simulates, so it never holds for them: a host's answer to a
// peer that fell past the cutoff. It fails unless the session is the
// host's (Self 0), peer is its only other peer, and it plays a player.
func (s *Session) Fill(peer int) error {
	if s.opts.Self != 0 || len(s.remotePeers) != 1 || s.remotePeers[0] != peer || len(s.seatless) != 0 {
		return fmt.Errorf("rollback: Session.Fill(%d): only a host (Self 0) filling its one other peer, which plays a player, can; this is peer %d with peers %v", peer, s.opts.Self, s.remotePeers)
	}
	s.filling = peer
	return nil
}

// Unfill stops [Session.Fill]: the session waits for the peer's inputs
// again from the tick it filled up to. Nothing when it was not filling.
func (s *Session) Unfill() { s.filling = -1 }

// Filling reports the peer whose players' inputs the session fills, and
// false when it fills none.
func (s *Session) Filling() (peer int, ok bool) { return s.filling, s.filling >= 0 }

// fill confirms the filled peer's players' inputs up to the present tick.
func (s *Session) fill() {
	if s.filling < 0 {
		return
	}
	for p, pl := range s.opts.Players {
		if pl.Peer != s.filling {
			continue
		}
		for k := s.frontier[p]; k <= s.tick; k++ {
			s.confirm(p, k, s.zero)
		}
	}
}
