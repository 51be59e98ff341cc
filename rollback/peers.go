package rollback

import "fmt"

// AddPeer makes peer, which plays no player of the match, one of this
// session's peers: a dedicated host, which plays no seat but relays the
// match and compares its hashes. The session then accepts the peer's
// messages (its acknowledgements move what this session sends again, its
// tick counts towards the frame advantage, its hashes are compared), as
// a player's peer's; its messages carry no inputs. The session holds
// rather than run so far ahead of the peer's acknowledgements that an
// input it still lacks leaves the input ring. Peers that play a
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
	s.seatless = append(s.seatless, peer)
	return nil
}

// outrunsAddedPeer reports whether simulating the present tick would take
// a local player's input more than the input ring past what a peer added
// with AddPeer has acknowledged: its input would push out of the ring one
// that peer still lacks. A player's peer never lags that far (the window
// holds both sides back), but an added peer plays no player and holds
// nobody back, so the session holds for it instead (see [Step.Held]).
func (s *Session) outrunsAddedPeer() bool {
	for _, peer := range s.seatless {
		for p := range s.players {
			if s.isLocal(p) && s.tick+int64(s.opts.Players[p].Delay) >= s.peerAck[peer*s.players+p]+int64(s.ringLen)-1 {
				return true
			}
		}
	}
	return false
}
