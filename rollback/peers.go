package rollback

import "fmt"

// AddPeer makes peer, which plays no player of the match, one of this
// session's peers: a dedicated host, which plays no seat but relays the
// match and compares its hashes. The session then accepts the peer's
// messages (its acknowledgements move what this session sends again, its
// tick counts towards the frame advantage, its hashes are compared), as
// a player's peer's; its messages carry no inputs. Peers that play a
// player need no call: [NewSession] takes them from [Options.Players].
// Call it before the first [Session.Advance]. It fails for a peer out of
// range (0 to 63), for this session's own and for one that is a peer
// already.
func (s *Session) AddPeer(peer int) error {
	switch {
	case peer < 0 || peer > maxPeers-1:
		return fmt.Errorf("rollback: AddPeer(%d): peer out of range; allowed: 0 to %d", peer, maxPeers-1)
	case peer == s.opts.Self:
		return fmt.Errorf("rollback: AddPeer(%d): that is this session's own peer number", peer)
	case s.isPeer(peer):
		return fmt.Errorf("rollback: AddPeer(%d): already a peer of this session", peer)
	case s.started:
		return fmt.Errorf("rollback: AddPeer(%d): the session has started; add peers before the first Advance", peer)
	}
	s.remotePeers = append(s.remotePeers, peer)
	return nil
}
