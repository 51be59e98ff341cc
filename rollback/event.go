package rollback

import (
	"fmt"
	"strconv"
	"time"
)

// EventKind says what a [Peer] or [Spectator] did or saw in an update.
type EventKind uint8

const (
	// EventConnection: the transport reported a change in a peer's
	// connection (Event.Conn); for a disconnected player, Wait is how
	// long the match waits for it.
	EventConnection EventKind = iota + 1
	// EventNotJoined: at the start, a player's peer had not joined
	// (PeerOptions.Late): its players' input is neutral until it does.
	EventNotJoined
	// EventPlayedOn: the host held the match for Peer past the debt
	// cutoff and plays on without it until it resynchronises.
	EventPlayedOn
	// EventFeeding: the host sends Peer, a player catching up, the
	// confirmed timeline.
	EventFeeding
	// EventCaughtUp: Peer caught up and plays again.
	EventCaughtUp
	// EventFeedEnded: the host can send Peer nothing more (Err says
	// why, a full input log).
	EventFeedEnded
	// EventRejoining: this peer takes its slot back in a match under way
	// and catches up on the host's confirmed inputs first.
	EventRejoining
	// EventResyncing: the host played on without this peer (Err); it
	// catches up from the host's snapshot.
	EventResyncing
	// EventSnapshot: catching up starts from the host's snapshot of
	// Tick, Bytes long.
	EventSnapshot
	// EventPlaying: this peer caught up at Tick and plays on.
	EventPlaying
	// EventJoiningLate: this peer's player joins a match under way for
	// the first time and catches up on the host's confirmed inputs first.
	EventJoiningLate
)

// Event is something a match's caller may show: a peer's connection
// changed, the host played on without a peer, a player caught up. Only
// the fields its Kind names are set.
type Event struct {
	Kind EventKind
	// Conn is the transport's event (EventConnection).
	Conn PeerEvent
	// Peer is the peer the event is about.
	Peer int
	// Tick and Bytes place a snapshot or where play resumed.
	Tick  int64
	Bytes int
	// Wait is how long the match waits for a disconnected player, or the
	// cutoff the host was held past.
	Wait time.Duration
	// Err is the cause of a feed's end or of a resynchronisation.
	Err error
}

// String says the event in words, for a log line.
func (e Event) String() string {
	switch e.Kind {
	case EventConnection:
		switch {
		case e.Conn.Spectator:
			return fmt.Sprintf("spectator (peer %d) %s", e.Conn.Peer, e.Conn.Kind)
		case e.Conn.Kind == PeerDisconnected && e.Wait > 0:
			return fmt.Sprintf("peer %d disconnected: the match waits up to %v (net.join_timeout) for it to come back", e.Conn.Peer, e.Wait)
		}
		return fmt.Sprintf("peer %d %s", e.Conn.Peer, e.Conn.Kind)
	case EventNotJoined:
		return fmt.Sprintf("peer %d has not joined: its players' input is neutral until it joins", e.Peer)
	case EventPlayedOn:
		return fmt.Sprintf("peer %d held the match for %v (timing.debt.cutoff): playing on without it, its players' input neutral, until it resynchronises", e.Peer, e.Wait)
	case EventFeeding:
		return fmt.Sprintf("peer %d is catching up: sending it the confirmed timeline", e.Peer)
	case EventCaughtUp:
		return fmt.Sprintf("peer %d caught up and plays on", e.Peer)
	case EventFeedEnded:
		return fmt.Sprintf("peer %d: %v: no more to send it", e.Peer, e.Err)
	case EventRejoining:
		return fmt.Sprintf("rejoining the match as peer %d: catching up on the host's confirmed inputs", e.Peer)
	case EventResyncing:
		return fmt.Sprintf("%v: resynchronising from the host's snapshot", e.Err)
	case EventSnapshot:
		return fmt.Sprintf("starting from the host's snapshot of tick %d (%d bytes)", e.Tick, e.Bytes)
	case EventJoiningLate:
		return fmt.Sprintf("joining the match under way as peer %d: catching up on the host's confirmed inputs", e.Peer)
	case EventPlaying:
		return fmt.Sprintf("caught up on the match at tick %d: playing on as peer %d", e.Tick, e.Peer)
	}
	return "EventKind(" + strconv.Itoa(int(e.Kind)) + ")"
}
