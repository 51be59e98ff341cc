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
// them. Its messages carry those inputs to the other peers, who take
// them from the host as they would from the peer (the host is the
// match's authority), so with three or more peers every one of them
// plays on with the same neutral inputs. The host's messages also name
// the players it fills and the first tick it filled. When that peer's
// session hears that the host fills its own player (from a tick at or
// after the one it started at: an older fill is one it resynchronised
// from already, in a message sent before the host heard it ask), or
// hears the host's frontier for its own player run past its own, its
// inputs since were replaced: its Advance fails with [ErrResync], even
// when it ran ahead of what the host had of its player (its messages
// stopped reaching the host, not its process), and it catches
// up on the host's confirmed timeline like a player rejoining (a
// [Follower] that asks for a snapshot, [Follower.NeedState], then
// [NewSessionAfter]). The host stops filling ([Session.Unfill]) when the
// peer asks to catch up, so the feed ends where the peer plays on.
//
// A peer that confirmed one of the filled player's ticks with an input
// other than the host's (a message of the stalled peer that reached it
// and not the host) has left the host's timeline too: it resynchronises
// the same way. The host fills only once no other peer has reported more
// of the player's inputs than it has, so this takes a message the
// stalled peer sent after the host began to fill.

// ErrResync is wrapped by the error of [Session.Advance] once the host
// says it fills this session's own player's inputs, or has confirmed
// them past what it sent ([Session.Fill]): its timeline differs from the match's from there, and
// it must catch up on the host's ([Follower.NeedState]).
var ErrResync = errors.New("rollback: the host played on without this peer's inputs")

// Fill makes the session confirm the inputs of every player of peer as
// neutral (zero action states), from that player's frontier up to each
// tick it simulates, so it never holds for them, and send them to its
// other peers, each message naming the players it fills and the first
// tick it filled, so that the peer itself resynchronises even when it
// ran ahead of what the host had of it: a host's answer to a peer that
// fell past the cutoff. It fails unless the session is the host's
// (Self 0) and peer one of its peers that plays a player, and while
// another peer has reported confirming more of that player's inputs than
// the host has (they are still on their way; try again at the next
// update). While it fills
// them the session compares none of peer's hashes, and forgets those not
// yet compared: a peer still running hashes the ticks filled with its
// own inputs, a timeline it leaves when it resynchronises, not a desync.
func (s *Session) Fill(peer int) error {
	if s.opts.Self != 0 || peer == 0 || !s.isPeer(peer) || !s.plays(peer) {
		return fmt.Errorf("rollback: Session.Fill(%d): only a host (Self 0) filling one of its peers that plays a player can; this is peer %d with peers %v", peer, s.opts.Self, s.remotePeers)
	}
	for p, pl := range s.opts.Players {
		if pl.Peer != peer {
			continue
		}
		for _, q := range s.remotePeers {
			if ack := s.peerAck[q*s.players+p]; q != peer && ack > s.frontier[p] {
				return fmt.Errorf("rollback: Session.Fill(%d): peer %d confirmed player %d's inputs up to tick %d, this host up to %d: not yet", peer, q, p, ack, s.frontier[p])
			}
		}
	}
	if !s.Filling(peer) {
		for p, pl := range s.opts.Players {
			if pl.Peer == peer {
				s.fillFrom[p] = s.frontier[p]
			}
		}
	}
	s.filled |= 1 << peer
	// Its hashes not yet compared may be of ticks filled now, taken
	// with its own inputs: of its timeline, no longer the match's.
	for i := range s.hashes {
		if e := &s.hashes[i]; e.hasRemote && !e.checked && e.remotePeer == peer {
			e.hasRemote = false
		}
	}
	return nil
}

// plays reports whether peer plays a player of the match.
func (s *Session) plays(peer int) bool {
	for _, pl := range s.opts.Players {
		if pl.Peer == peer {
			return true
		}
	}
	return false
}

// Lagging returns the remote peer whose player's inputs this session has
// confirmed the fewest ticks of: the peer it holds for at its window's
// end; false in a match with no remote player.
func (s *Session) Lagging() (peer int, ok bool) {
	least := int64(0)
	for p, pl := range s.opts.Players {
		if pl.Peer != s.opts.Self && (!ok || s.frontier[p] < least) {
			least, peer, ok = s.frontier[p], pl.Peer, true
		}
	}
	return peer, ok
}

// Unfill stops [Session.Fill] for peer: the session waits for its
// players' inputs again from the tick it filled up to. Nothing when it
// was not filling them.
func (s *Session) Unfill(peer int) {
	if peer >= 0 && peer < maxPeers {
		s.filled &^= 1 << peer
	}
}

// Filling reports whether the session fills peer's players' inputs.
func (s *Session) Filling(peer int) bool {
	return peer >= 0 && peer < maxPeers && s.filled&(1<<peer) != 0
}

// fill confirms the filled peer's players' inputs up to the present tick.
func (s *Session) fill() {
	if s.filled == 0 {
		return
	}
	for p, pl := range s.opts.Players {
		if !s.Filling(pl.Peer) {
			continue
		}
		for k := s.frontier[p]; k <= s.tick; k++ {
			s.confirm(p, k, s.zero)
		}
	}
}
