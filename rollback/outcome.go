package rollback

import (
	"fmt"
	"strconv"
	"time"
)

// OutcomeKind says how a match ended for one peer.
type OutcomeKind uint8

const (
	// Finished: the ticks asked for ([PeerOptions].Ticks) were confirmed
	// on every peer; Outcome.Tick and Hash are the last hashed tick below
	// them and its world hash, the same on every peer. A player that
	// resynchronised from a snapshot past that tick holds no hash of it:
	// it and the host that fed it name the first hashed tick at or after
	// the snapshot instead (a spectator still names the last below).
	Finished OutcomeKind = iota + 1
	// Desynced: a peer's hash of a confirmed tick differed from this
	// one's; Tick, Peer, Local and Remote say where.
	Desynced
	// Abandoned: a player's peer left, or stopped answering and was not
	// back within the patience ([PeerOptions].Patience); Peer names it
	// and Waited says how long it was waited for.
	Abandoned
	// Refused: the host refused this peer before the match began;
	// Reason says why.
	Refused
	// HostGone: the host left or stopped answering mid-match. A host
	// that starts again hosts another match (a new token), so there is
	// nothing to wait for.
	HostGone
)

var outcomeNames = [...]string{Finished: "finished", Desynced: "desynced", Abandoned: "abandoned", Refused: "refused", HostGone: "host gone"}

func (k OutcomeKind) String() string {
	if int(k) < len(outcomeNames) && outcomeNames[k] != "" {
		return outcomeNames[k]
	}
	return "OutcomeKind(" + strconv.Itoa(int(k)) + ")"
}

// Outcome is how a match ended for one peer, a value every peer has
// (Peer.Outcome, Spectator.Outcome) so that a caller can tell a finished
// match from an abandoned one without reading messages. Only the fields
// of its Kind are set.
type Outcome struct {
	Kind OutcomeKind
	// Tick is the finished match's last hashed tick, or the desynced
	// tick; Hash the finished match's world hash there.
	Tick int64
	Hash uint64
	// HasHash is false for a finished match that hashed no tick
	// (MatchOptions.HashEvery 0).
	HasHash bool
	// Peer is the peer that desynced or abandoned the match.
	Peer int
	// Local and Remote are the desynced tick's hashes, this peer's and
	// Peer's.
	Local, Remote uint64
	// Waited is how long an abandoning peer was waited for: 0 when it
	// left.
	Waited time.Duration
	// Reason is why the host refused this peer.
	Reason string
}

// String says the outcome in words, for a match's last line:
// "the match desynced at tick 600: this peer's world hash 0x…, peer 1's 0x…".
func (o Outcome) String() string {
	switch o.Kind {
	case Finished:
		if !o.HasHash {
			return "the match finished"
		}
		return fmt.Sprintf("the match finished: confirmed tick %d hash %016x", o.Tick, o.Hash)
	case Desynced:
		return fmt.Sprintf("the match desynced at tick %d: this peer's world hash %016x, peer %d's %016x", o.Tick, o.Local, o.Peer, o.Remote)
	case Abandoned:
		if o.Waited == 0 {
			return fmt.Sprintf("the match was abandoned: peer %d left it", o.Peer)
		}
		return fmt.Sprintf("the match was abandoned: peer %d did not come back within %v (net.join_timeout)", o.Peer, o.Waited)
	case Refused:
		return "the host refused this peer: " + o.Reason
	case HostGone:
		return "the host is gone: it left or stopped answering mid-match, and a host that starts again hosts a new match"
	}
	return o.Kind.String()
}

// Err returns nil for a finished match, else an *OutcomeError holding o.
func (o Outcome) Err() error {
	if o.Kind == Finished {
		return nil
	}
	return &OutcomeError{Outcome: o}
}

// OutcomeError is a match that ended other than finished, as the error of
// the update that ended it: errors.As finds the Outcome, and a desync
// unwraps to its [Desync].
type OutcomeError struct {
	Outcome Outcome
}

// Error is the outcome in words, prefixed with the package.
func (e *OutcomeError) Error() string { return "rollback: " + e.Outcome.String() }

// Unwrap returns the [Desync] of a desynced match, nil otherwise.
func (e *OutcomeError) Unwrap() error {
	if e.Outcome.Kind != Desynced {
		return nil
	}
	return Desync{Tick: e.Outcome.Tick, Peer: e.Outcome.Peer, Local: e.Outcome.Local, Remote: e.Outcome.Remote}
}

// desynced is the outcome of a desync d.
func desynced(d Desync) Outcome {
	return Outcome{Kind: Desynced, Tick: d.Tick, Peer: d.Peer, Local: d.Local, Remote: d.Remote}
}
