package netplay

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"sync"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/timing"
)

// EventKind says what happened to a peer: rollback's, so that a match
// layer reads the events of every transport that watches its peers alike.
//
// Deprecated: use rollback.PeerEventKind.
//
//go:fix inline
type EventKind = rollback.PeerEventKind

// Event is a change in a peer's connection, for the simulation goroutine
// to react to (pause, show a message, resume). A spectator's events
// (Spectator set, at the host only) are Joined, then Disconnected or
// Left, after which its peer number is free for another spectator: a
// spectator never holds up the match.
//
// Deprecated: use rollback.PeerEvent.
//
//go:fix inline
type Event = rollback.PeerEvent

// The kinds of [Event], rollback's.
const (
	// Disconnected: nothing authenticated came from the peer for
	// Options.Timeout. Its slot stays its: it may come back.
	//
	// Deprecated: use rollback.PeerDisconnected.
	//
	//go:fix inline
	Disconnected = rollback.PeerDisconnected
	// Left: the peer closed its match (it said bye).
	//
	// Deprecated: use rollback.PeerLeft.
	//
	//go:fix inline
	Left = rollback.PeerLeft
	// Reconnected: a disconnected peer is heard again, on its old
	// address or by joining again with the token.
	//
	// Deprecated: use rollback.PeerReconnected.
	//
	//go:fix inline
	Reconnected = rollback.PeerReconnected
	// Joined: a spectator joined, or a player took a slot no one had
	// played in a match that started without it (Options.Start). The
	// host's events only; the players who start the match joined before
	// Wait returned.
	//
	// Deprecated: use rollback.PeerJoined.
	//
	//go:fix inline
	Joined = rollback.PeerJoined
)

// Traffic counts packets and their bytes.
type Traffic struct {
	Packets, Bytes uint64
}

// Drops counts the packets dropped, by reason.
type Drops struct {
	Auth      uint64 // the MAC is wrong (another session's token, or forged)
	Unknown   uint64 // from an address that holds no slot
	Slot      uint64 // claims a peer number its address does not hold
	Malformed uint64 // does not decode
	Replayed  uint64 // a sequence number seen before (a duplicate or a replay), or too old to tell
	Future    uint64 // a sequence number too far ahead of the last
	Oversized uint64 // longer than any valid packet, or than Receive's buffer
	Queue     uint64 // arrived while the receive queue was full, or could not be queued to send
	Events    uint64 // events dropped because 64 were waiting unread
}

// Refusals counts the joins a host refused, by reason.
type Refusals struct {
	Token, Full, Game, Version, Config, Slot uint64
	// Spectators counts spectators refused because Options.Spectators
	// were watching.
	Spectators uint64
}

// PeerStats is the state of one peer as this end sees it.
type PeerStats struct {
	// Connected: heard within Options.Timeout.
	Connected bool
	// RTT is the round-trip time, smoothed over pings (an eighth of each
	// new sample). A joiner measures only its round trip to the host,
	// which relays the other joiners' messages: it is RTT[0].
	RTT time.Duration
	// Sent and Received count this peer's packets.
	Sent, Received Traffic
}

// Stats is a snapshot of a match's counters.
type Stats struct {
	// Peers holds the players' peers by peer number, 0 to Players-1; a
	// host's spectators, whose peer numbers follow, are only counted.
	Peers [MaxPlayers]PeerStats
	// Spectators is the number of spectators connected (at the host).
	Spectators int
	// Sent and Received count the match's packets and their UDP payload
	// bytes (over QUIC, the datagrams' payloads inside QUIC's packets).
	Sent, Received Traffic
	// WireSent and WireReceived count what the socket sent and received:
	// every UDP datagram (over QUIC, its own too: the handshake, acks and
	// its packets' framing and encryption) and its bytes on the wire,
	// the IP and UDP headers included (28 bytes a datagram over IPv4, 48
	// over IPv6), as a relay or a capture on the path counts them.
	WireSent, WireReceived Traffic
	Dropped                Drops
	Refused                Refusals
}

const (
	queueLen = 256 // messages waiting for Receive
	eventLen = 64
	// future is how far ahead of the last seen a sequence number may be:
	// a few hours of packets at 60 Hz.
	future = 1 << 20
	// refusalsPerSecond bounds answers to joins that fail
	// authentication, which anyone can send.
	refusalsPerSecond = 10
)

type inMsg struct {
	n, peer int
	b       [rollback.MaxMessage]byte
}

// endpoint is this end's side of its link to one remote peer, as GGRS's
// UdpProtocol is: the peer's address, the sequence numbers sent to it and
// the replay window of those from it, its round trip and when it was
// last pinged and heard, and its connection state. The match holds one
// per peer number, under its mutex.
type endpoint struct {
	addr      netip.AddrPort
	joined    bool // the slot is taken (its player may be disconnected)
	connected bool
	heard     time.Duration // last authenticated packet
	high      uint64        // replay window: highest sequence number seen
	seen      uint64        // bit i: high-i seen
	any       bool
	seq       uint64 // next sequence number to it
	pinged    time.Duration
	stats     PeerStats
	// back: the slot was taken back by a new run of its player while
	// the match was under way (its accept says so).
	back bool
	// left: the peer said bye (or its QUIC connection ended). Only a
	// join brings it back: a packet its closing run sent before the bye
	// and that arrives after it, delayed or reordered, does not.
	left bool
	// ready: the joiner said it is ready to start (Match.Ready).
	ready bool
	// late: its player took it in a match under way, no one having
	// played it before.
	late bool
}

// Match is one end of a match: the host's (peer 0) or a joiner's. It
// implements [rollback.Transport]: Send, Receive and Event belong to the
// simulation goroutine; Stats, Self, Players and Close may be called from
// any goroutine. A match owns two goroutines: one reads the socket and
// answers pings and joins, the other pings the peers and notices silent
// ones on [Options.Clock]; Close stops both and waits for them.
type Match struct {
	c    Conduit
	key  []byte
	opts Options
	id   rollback.Identity
	host bool
	t0   timing.Instant // the clock's reading at the start: now() counts from it

	mu      sync.Mutex
	self    int
	players int
	peers   []endpoint // the players', then the spectators' (MaxPlayers+MaxSpectators)
	stats   Stats
	full    bool
	// rejoining: this joiner took back a dropped player's slot in a
	// match under way (Rejoining).
	rejoining bool
	// late: this joiner took a slot no one had played, in a match under
	// way (Late).
	late bool
	// pending is a join to a full match whose every player is connected,
	// held unanswered while the quietest player may have crashed: since
	// is when it first came.
	pending struct {
		from  netip.AddrPort
		heard uint64 // the packets then received from the slot's player
	}
	// The host's log of refusals: each address and reason once (the last
	// logged few remembered), at most logPerSecond lines a second, with
	// a count of those left out.
	logged     [8]logKey
	loggedNext int
	logCredit  float64
	logAt      time.Duration
	unlogged   uint64
	refusal    error
	credit     float64 // refusals to unauthenticated joins it may still send
	credAt     time.Duration

	fullc    chan struct{} // closed when the match is full (joiner: accepted into a full match)
	answered chan struct{} // joiner: closed at the host's first answer
	refusedc chan struct{} // joiner: closed when the host refused
	answer   bool          // answered is closed
	base     uint64        // sequence numbers of refusals
	inbox    chan *inMsg
	free     chan *inMsg
	events   chan rollback.PeerEvent

	send  *sealer // Send's (simulation goroutine)
	loop  *sealer // the reading goroutine's
	ticks *sealer // the ticking goroutine's

	// tw is the ticking goroutine's waiter; wakers are the waiters of Join
	// and Ready, woken at every change they wait for (wakeAll).
	tw     timing.Waiter
	wakers []timing.Waiter

	// The start (Ready): went says the host has given the go (a joiner:
	// that it has come). A joiner's goc is closed at the host's go, which
	// asked it to wait goWait after it.
	went   bool
	goc    chan struct{}
	goWait time.Duration

	closing   chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

var _ rollback.PeerWatcher = (*Match)(nil)

func newMatch(c Conduit, key []byte, opts Options, id rollback.Identity, host bool) *Match {
	m := &Match{
		c: c, key: key, opts: opts, id: id, host: host, t0: opts.Clock.Now(),
		players:   opts.Players,
		credit:    refusalsPerSecond,
		logCredit: logPerSecond,
		fullc:     make(chan struct{}),
		answered:  make(chan struct{}),
		refusedc:  make(chan struct{}),
		inbox:     make(chan *inMsg, queueLen),
		free:      make(chan *inMsg, queueLen),
		events:    make(chan rollback.PeerEvent, eventLen),
		peers:     make([]endpoint, MaxPlayers+MaxSpectators),
		send:      newSealer(key),
		loop:      newSealer(key),
		ticks:     newSealer(key),
		tw:        opts.Clock.NewWaiter(),
		closing:   make(chan struct{}),
		goc:       make(chan struct{}),
	}
	for range queueLen {
		m.free <- new(inMsg)
	}
	// Sequence numbers start at the date in nanoseconds (a date, not a
	// reading of the match's clock), so a joiner that restarts continues
	// above every number its last run used and a replay of that run's
	// packets stays a replay.
	base := uint64(time.Now().UnixNano())
	for i := range m.peers {
		m.peers[i].seq = base
	}
	m.base = base
	if host {
		m.self = 0
		if opts.Start == 1 {
			m.full = true // the host alone starts the match
			close(m.fullc)
		}
	} else {
		m.self = noSlot
	}
	return m
}

// start starts the match's goroutines.
func (m *Match) start() {
	m.wg.Add(2)
	go m.read()
	go m.tick()
}

// now is the time since the match began, on its clock.
func (m *Match) now() time.Duration { return time.Duration(m.opts.Clock.Now() - m.t0) }

// at is the clock's reading d after the match began.
func (m *Match) at(d time.Duration) timing.Instant { return m.t0.AddSaturating(d) }

// newWait returns a waiter for Join or Ready, woken when the match's state
// changes (wakeAll), when ctx ends and when the match closes; done
// retires it.
func (m *Match) newWait(ctx context.Context) (w timing.Waiter, done func()) {
	w = m.opts.Clock.NewWaiter()
	m.mu.Lock()
	m.wakers = append(m.wakers, w)
	m.mu.Unlock()
	stop := context.AfterFunc(ctx, w.Wake)
	return w, func() {
		stop()
		m.mu.Lock()
		m.wakers = slices.DeleteFunc(m.wakers, func(x timing.Waiter) bool { return x == w })
		m.mu.Unlock()
		w.Release()
	}
}

// wakeAll wakes the waits of Join and Ready to look again. With m.mu held.
func (m *Match) wakeAll() {
	for _, w := range m.wakers {
		w.Wake()
	}
}

// pause waits on w until the match's clock reads until, or a wake; it
// returns rollback.ErrClosed once the match closes and ctx's error once
// ctx ends, nil otherwise (the caller looks again).
func (m *Match) pause(ctx context.Context, w timing.Waiter, until time.Duration) error {
	w.WaitUntil(m.at(until))
	select {
	case <-m.closing:
		return rollback.ErrClosed
	default:
	}
	return ctx.Err()
}

// Self returns this end's peer number: 0 for the host, 1 to Players-1 for
// a player who joined, Players or above for a spectator.
func (m *Match) Self() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.self
}

// Late reports whether this joiner took a slot no one had played, in a
// match that started without it (the host's Options.Start): it catches up
// as a rejoining player does (Rejoining is true as well) but returns to
// nothing of its own.
func (m *Match) Late() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.late
}

// Rejoining reports whether this joiner took back a dropped player's
// slot in a match under way (a new run of a player whose process ended):
// its simulation starts behind the others and catches up on the host's
// confirmed inputs (rollback.Session.NewFeed) before it plays on.
func (m *Match) Rejoining() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rejoining
}

// Players returns the number of players in the match (a joiner's is the
// host's).
func (m *Match) Players() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.players
}

// Addr returns the local address of this end's socket.
func (m *Match) Addr() net.Addr { return m.c.LocalAddr() }

// Stats returns a snapshot of the match's counters.
func (m *Match) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := m.stats
	st.WireSent, st.WireReceived = m.c.Wire().Counts()
	for i := range MaxPlayers {
		if m.host && m.spectatorLocked(i) {
			break // the spectators are counted, not listed
		}
		st.Peers[i] = m.peers[i].stats
		st.Peers[i].Connected = m.peers[i].connected
	}
	for i := m.players; i < len(m.peers); i++ {
		if m.spectatorLocked(i) && m.peers[i].connected {
			st.Spectators++
		}
	}
	return st
}

// RTT returns the smoothed round trip to peer ([PeerStats].RTT), 0 when
// none has been measured, for this end's own peer number or one outside
// the match. A joiner reaches the other joiners through the host and
// measures only its round trip to the host: it returns that for them, the
// part of their round trip it knows. Any goroutine may call it.
func (m *Match) RTT(peer int) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case peer < 0 || peer >= len(m.peers) || peer == m.self:
		return 0
	case !m.host && peer < m.players:
		return m.peers[0].stats.RTT
	case m.host && m.peers[peer].joined:
		return m.peers[peer].stats.RTT
	}
	return 0
}

// Spectator reports whether peer is a spectator's peer number in this
// match: Players to Players+Options.Spectators-1 at the host, Players up
// at a joiner.
func (m *Match) Spectator(peer int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.spectatorLocked(peer)
}

func (m *Match) spectatorLocked(peer int) bool {
	if m.host {
		return peer >= m.players && peer < m.players+m.opts.Spectators
	}
	return peer >= m.players && peer < m.players+MaxSpectators
}

// Event returns the next change in a peer's connection, if one is
// waiting; it never blocks. At most 64 wait: more are dropped and counted
// in Stats.Dropped.Events.
func (m *Match) Event() (rollback.PeerEvent, bool) {
	select {
	case e := <-m.events:
		return e, true
	default:
		return rollback.PeerEvent{}, false
	}
}

// Send sends msg to peer: a joiner's message to another joiner goes
// through the host, which relays it. The host sends to a spectator at
// its peer number; a spectator sends to the host only. It never blocks.
// It fails for a peer number outside the match or this end's own, a
// message over
// rollback.MaxMessage, and after Close (rollback.ErrClosed); a message
// lost on the way is not an error. Steady use allocates nothing over UDP.
func (m *Match) Send(to int, msg []byte) error {
	select {
	case <-m.closing:
		return rollback.ErrClosed
	default:
	}
	if len(msg) > rollback.MaxMessage {
		return fmt.Errorf("netplay: message of %d bytes; allowed: up to %d (rollback.MaxMessage)", len(msg), rollback.MaxMessage)
	}
	m.mu.Lock()
	self, players := m.self, m.players
	switch {
	case m.host && m.spectatorLocked(to):
	case !m.host && m.spectatorLocked(self):
		if to != 0 {
			m.mu.Unlock()
			return fmt.Errorf("netplay: a spectator sends to the host only; peer %d asked for (allowed: 0)", to)
		}
	case to < 0 || to >= players || to == self:
		m.mu.Unlock()
		return fmt.Errorf("netplay: no peer %d to send to; allowed: 0 to %d but %d (this end)", to, players-1, self)
	}
	via := to
	if !m.host {
		via = 0
	}
	p := &m.peers[via]
	if m.host && !p.joined {
		m.mu.Unlock()
		return nil // not joined yet: lost, as over a network
	}
	addr, seq := p.addr, p.next()
	m.mu.Unlock()
	b := m.send.begin(kindData, self, seq)
	if m.host {
		b = append(b, byte(self))
	} else {
		b = append(b, byte(to))
	}
	b = append(b, msg...)
	return m.write(m.send, via, addr, b)
}

// write seals b and sends it to peer p at addr (-1 for no peer's slot),
// counting it. Without m.mu held.
func (m *Match) write(s *sealer, p int, addr netip.AddrPort, b []byte) error {
	b = s.seal(b)
	// Counted as it leaves, under the lock its answer is counted under:
	// every packet counted received was counted sent first.
	m.mu.Lock()
	err := m.c.WriteTo(b, addr)
	m.countSent(p, len(b), err)
	m.mu.Unlock()
	if errors.Is(err, net.ErrClosed) {
		return rollback.ErrClosed
	}
	return nil
}

// writeLocked is write with m.mu held, for the goroutine's handlers and
// Ready. It does not report a closed conduit: the goroutine's next write
// without the lock does, and Ready sees the match close by m.closing.
func (m *Match) writeLocked(s *sealer, p int, addr netip.AddrPort, b []byte) {
	b = s.seal(b)
	m.countSent(p, len(b), m.c.WriteTo(b, addr))
}

// countSent counts a datagram of n bytes sent to peer p, or dropped when
// err says the conduit did not take it. With m.mu held.
func (m *Match) countSent(p, n int, err error) {
	switch {
	case errors.Is(err, net.ErrClosed):
		return
	case err != nil:
		m.stats.Dropped.Queue++
		return
	}
	m.stats.Sent.Packets++
	m.stats.Sent.Bytes += uint64(n)
	if p >= 0 && p < len(m.peers) {
		m.peers[p].stats.Sent.Packets++
		m.peers[p].stats.Sent.Bytes += uint64(n)
	}
}

// Receive copies the next message that has arrived into buf and returns
// its length and sender; ok is false when none is waiting. It never
// blocks and allocates nothing. A message longer than buf is dropped and
// counted in Stats.Dropped.Oversized.
func (m *Match) Receive(buf []byte) (n, from int, ok bool) {
	select {
	case <-m.closing:
		return 0, 0, false
	default:
	}
	for {
		select {
		case in := <-m.inbox:
			n, from = in.n, in.peer
			fits := n <= len(buf)
			if fits {
				copy(buf, in.b[:n])
			}
			m.free <- in
			if fits {
				return n, from, true
			}
			m.mu.Lock()
			m.stats.Dropped.Oversized++
			m.mu.Unlock()
		default:
			return 0, 0, false
		}
	}
}

// Close says bye to the peers, stops the match's goroutine and releases
// its socket; it waits for the goroutine. Send and Receive fail or return
// nothing after it. Close is idempotent.
func (m *Match) Close() error {
	m.closeOnce.Do(func() {
		m.bye()
		close(m.closing)
		m.tw.Wake()
		m.mu.Lock()
		m.wakeAll()
		m.mu.Unlock()
		m.closeErr = m.c.Close()
		m.wg.Wait()
	})
	return m.closeErr
}

func (m *Match) bye() {
	s := newSealer(m.key)
	for i := range m.peers {
		m.mu.Lock()
		p := &m.peers[i]
		if i == m.self || !p.joined || (m.host && i == 0) {
			m.mu.Unlock()
			continue
		}
		self, addr, seq := m.self, p.addr, p.next()
		m.mu.Unlock()
		_ = m.write(s, i, addr, s.begin(kindBye, self, seq))
	}
}

func (m *Match) event(e rollback.PeerEvent) {
	e.Spectator = m.host && m.spectatorLocked(e.Peer)
	select {
	case m.events <- e:
	default:
		m.stats.Dropped.Events++
	}
	if m.opts.Log != nil {
		m.opts.Log.Info("netplay: peer "+e.Kind.String(), "peer", e.Peer, "spectator", e.Spectator)
	}
}

// read is the goroutine that takes the conduit's datagrams until Close.
func (m *Match) read() {
	defer m.wg.Done()
	buf := make([]byte, maxPacket+1)
	for {
		n, from, err := m.c.ReadFrom(buf)
		switch {
		case errors.Is(err, ErrPeerGone):
			m.gone(from)
		case err != nil:
			return
		default:
			m.handle(buf[:n], from, m.now())
		}
	}
}

// tick is the goroutine that, twice per ping interval of the match's
// clock, pings the peers, notices silent ones and (a joiner) repeats its
// join until the match is full, until Close.
func (m *Match) tick() {
	defer m.wg.Done()
	defer m.tw.Release()
	every := m.opts.pingEvery()
	for next := time.Duration(0); ; {
		select {
		case <-m.closing:
			return
		default:
		}
		if now := m.now(); now >= next {
			m.pingAll(now)
			next = now + every/2
		}
		m.tw.WaitUntil(m.at(next))
	}
}

// Joined reports whether someone took player slot peer (the host's slot
// 0 always): at a host whose match started with fewer players than it
// holds (Options.Start), a slot no one joined is played with neutral
// input until someone does, joining late.
func (m *Match) Joined(peer int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return peer == 0 || peer > 0 && peer < m.players && m.peers[peer].joined
}

// slotBits has bit i set for each player's slot i whose peer has
// (peer.connected or peer.joined, say), and bit 0, the host's, always.
func (m *Match) slotBits(has func(*endpoint) bool) byte {
	bits := byte(1)
	for i := 1; i < m.players; i++ {
		if has(&m.peers[i]) {
			bits |= 1 << i
		}
	}
	return bits
}

func connected(p *endpoint) bool { return p.connected }
func joined(p *endpoint) bool    { return p.joined }

// others takes the host's view of the other joiners at a joiner, turning
// each change into an event. A joiner hears them only through the host.
func (m *Match) others(bits byte) {
	if !m.full {
		return
	}
	for i := 1; i < m.players; i++ {
		if i == m.self {
			continue
		}
		if c := bits&(1<<i) != 0; c != m.peers[i].connected {
			m.peers[i].connected = c
			kind := rollback.PeerDisconnected
			if c {
				kind = rollback.PeerReconnected
			}
			m.event(rollback.PeerEvent{Peer: i, Kind: kind})
		}
	}
}

// gone takes the end of a peer's QUIC connection as its bye.
func (m *Match) gone(from netip.AddrPort) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.slotOf(from)
	if !m.host && from == m.peers[0].addr {
		s = 0
	}
	if s < 0 || !m.peers[s].connected {
		return
	}
	m.peers[s].connected, m.peers[s].left = false, true
	m.event(rollback.PeerEvent{Peer: s, Kind: rollback.PeerLeft})
	m.freeSpectator(s)
}

// pingAll pings every peer that holds a slot (connected or not, so a link
// that comes back is noticed), disconnects the silent and repeats a
// joiner's join.
func (m *Match) pingAll(now time.Duration) {
	every := m.opts.pingEvery()
	for i := range m.peers {
		m.mu.Lock()
		p := &m.peers[i]
		if i == m.self || m.self == noSlot || !p.joined || now-p.pinged < every {
			m.mu.Unlock()
			continue
		}
		if p.connected && now-p.heard > m.opts.Timeout {
			p.connected = false
			m.event(rollback.PeerEvent{Peer: i, Kind: rollback.PeerDisconnected})
			if m.host && m.spectatorLocked(i) {
				m.freeSpectator(i) // a silent spectator is gone: no slot to keep
				m.mu.Unlock()
				continue
			}
		}
		b, addr := m.ping(m.ticks, i, now), p.addr
		m.mu.Unlock()
		_ = m.write(m.ticks, i, addr, b)
	}
	if !m.host {
		m.mu.Lock()
		full := m.full
		m.mu.Unlock()
		if !full {
			m.sendJoin()
		}
	}
}

func (m *Match) sendJoin() {
	m.mu.Lock()
	p := &m.peers[0]
	addr, seq := p.addr, p.next()
	m.mu.Unlock()
	b := m.ticks.begin(kindJoin, noSlot, seq)
	role := rolePlayer
	if m.opts.Spectate {
		role = roleSpectator
	}
	b = appendJoin(b, m.id, m.opts.Slot, role)
	_ = m.write(m.ticks, -1, addr, b)
}

// handle takes one datagram from the conduit.
func (m *Match) handle(pkt []byte, from netip.AddrPort, now time.Duration) {
	h, payload, r := m.loop.parse(pkt)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stats.Received.Packets++
	m.stats.Received.Bytes += uint64(len(pkt))
	switch r {
	case dropOversized:
		m.stats.Dropped.Oversized++
		return
	case dropMalformed:
		m.stats.Dropped.Malformed++
		return
	case dropAuth:
		m.stats.Dropped.Auth++
		m.unauthenticated(h, payload, from, now)
		return
	}
	if m.host && h.kind == kindJoin {
		m.join(h, payload, from, now)
		return
	}
	slot, ok := m.sender(h, from)
	if !ok {
		return
	}
	p := &m.peers[slot]
	if !m.fresh(p, h.seq) {
		return
	}
	p.heard = now
	p.stats.Received.Packets++
	p.stats.Received.Bytes += uint64(len(pkt))
	if !p.connected && p.joined && !p.left && h.kind != kindBye {
		p.connected = true
		if m.host || m.full {
			m.event(rollback.PeerEvent{Peer: slot, Kind: rollback.PeerReconnected})
		}
	}
	switch h.kind {
	case kindAccept:
		m.accepted(payload)
	case kindRefuse:
		m.onRefuse(payload)
	case kindData:
		m.onData(slot, payload)
	case kindPing:
		m.onPing(slot, payload)
	case kindPong:
		m.onPong(p, payload, now)
	case kindBye:
		m.onBye(slot)
	case kindReady:
		m.onReady(slot, payload)
	case kindGo:
		m.onGo(payload)
	default: // a join to a joiner
		m.stats.Dropped.Malformed++
	}
}

// unauthenticated answers a packet whose MAC is wrong, when it is a join
// (a wrong token: the host refuses it) or the host's refusal of ours
// (the host could not check our MAC, so its answer is not authenticated
// either: believed only as that refusal). With m.mu held.
func (m *Match) unauthenticated(h header, payload []byte, from netip.AddrPort, now time.Duration) {
	switch {
	case m.host && h.kind == kindJoin:
		if _, _, _, ok := parseJoin(payload); ok {
			m.refuse(from, refuseToken, "wrong join token: ask the host for the token it printed", now)
		}
	case !m.host && h.kind == kindRefuse && from == m.peers[0].addr:
		if why, _, ok := parseRefuse(payload); ok && why == refuseToken {
			m.refused(fmt.Errorf("%w: wrong join token (not this host's current one)", ErrRefused))
		}
	}
}

// sender returns the slot of an authenticated packet that is not a join:
// it comes from a peer that holds a slot, at its address, and names it;
// otherwise it is dropped and counted. With m.mu held.
func (m *Match) sender(h header, from netip.AddrPort) (slot int, ok bool) {
	slot = h.from
	switch {
	case !m.host && from != m.peers[0].addr:
		m.stats.Dropped.Unknown++
	case !m.host && slot != 0:
		m.stats.Dropped.Slot++
	case m.host && (slot <= 0 || slot >= len(m.peers) || !m.peers[slot].joined || m.peers[slot].addr != from):
		if m.slotOf(from) >= 0 {
			m.stats.Dropped.Slot++
		} else {
			m.stats.Dropped.Unknown++
		}
	default:
		return slot, true
	}
	return slot, false
}

// The handlers of authenticated packets from a peer that holds a slot,
// by kind, with m.mu held.

func (m *Match) onRefuse(payload []byte) {
	_, msg, ok := parseRefuse(payload)
	if !ok {
		m.stats.Dropped.Malformed++
		return
	}
	m.refused(fmt.Errorf("%w: %s", ErrRefused, msg))
}

// onData delivers a message, or (the host) relays it to the joiner it is
// for.
func (m *Match) onData(slot int, payload []byte) {
	if len(payload) < 1 {
		m.stats.Dropped.Malformed++
		return
	}
	peer, msg := int(payload[0]), payload[1:]
	if m.host {
		// The peer it is for: the host, or a joiner to relay to; a
		// spectator's are for the host only.
		if peer >= m.players || peer == slot || (m.spectatorLocked(slot) && peer != 0) {
			m.stats.Dropped.Malformed++
			return
		}
		if peer != 0 {
			m.relay(slot, peer, msg)
			return
		}
		peer = slot
	} else if peer >= m.players || peer == m.self {
		// The peer it is from: the host or a joiner it relayed.
		m.stats.Dropped.Malformed++
		return
	}
	m.deliver(peer, msg)
}

// onPing answers a ping with its clock reading. A joiner's ping is the
// reading; the host's adds which peers it hears, so joiners learn of each
// other's drops.
func (m *Match) onPing(slot int, payload []byte) {
	if len(payload) != 8 && (m.host || len(payload) != 9) {
		m.stats.Dropped.Malformed++
		return
	}
	p := &m.peers[slot]
	b := m.loop.begin(kindPong, m.self, p.next())
	b = append(b, payload[:8]...)
	m.writeLocked(m.loop, slot, p.addr, b)
	if len(payload) == 9 {
		m.others(payload[8])
	}
}

func (m *Match) onPong(p *endpoint, payload []byte, now time.Duration) {
	if len(payload) != 8 {
		m.stats.Dropped.Malformed++
		return
	}
	rtt := now - time.Duration(binary.LittleEndian.Uint64(payload))
	if rtt < 0 || rtt > time.Minute {
		m.stats.Dropped.Malformed++
		return
	}
	if p.measured(rtt) {
		m.wakeAll() // a host's Ready waits for the first
	}
}

func (m *Match) onBye(slot int) {
	p := &m.peers[slot]
	p.left = true
	if p.connected {
		p.connected = false
		m.event(rollback.PeerEvent{Peer: slot, Kind: rollback.PeerLeft})
	}
	if m.host && m.spectatorLocked(slot) {
		m.freeSpectator(slot)
	}
}

func (m *Match) onReady(slot int, payload []byte) {
	if !m.host || m.spectatorLocked(slot) || len(payload) != 0 {
		m.stats.Dropped.Malformed++
		return
	}
	m.peers[slot].ready = true
	if m.went {
		m.sendGo(m.loop, slot, 0) // its go was lost, or it is late: start now
	}
	m.wakeAll()
}

func (m *Match) onGo(payload []byte) {
	if m.host || len(payload) != 4 {
		m.stats.Dropped.Malformed++
		return
	}
	if !m.went {
		m.went = true
		m.goWait = time.Duration(binary.LittleEndian.Uint32(payload)) * time.Microsecond
		close(m.goc)
		m.wakeAll()
	}
}

// sendGo gives the joiner at slot the go, to start its clock wait after
// it arrives, sealed with s (the goroutine's, or Ready's own). With m.mu
// held.
func (m *Match) sendGo(s *sealer, slot int, wait time.Duration) {
	p := &m.peers[slot]
	seq := p.next()
	b := s.begin(kindGo, m.self, seq)
	b = binary.LittleEndian.AppendUint32(b, uint32(min(max(wait, 0), time.Minute)/time.Microsecond))
	m.writeLocked(s, slot, p.addr, b)
}

// ping writes the ping to peer i, stamped now, into s, taking the peer's
// next sequence number. With m.mu held; the caller sends it.
func (m *Match) ping(s *sealer, i int, now time.Duration) []byte {
	p := &m.peers[i]
	p.pinged = now
	seq := p.next()
	b := s.begin(kindPing, m.self, seq)
	b = binary.LittleEndian.AppendUint64(b, uint64(now))
	if m.host {
		b = append(b, m.slotBits(connected))
	}
	return b
}

// readyEvery is how often a joiner repeats its ready until the go comes:
// either may be lost.
const readyEvery = 25 * time.Millisecond

// Ready is the start of a match: every player's peer calls it once its
// window is open and its renderer warm, just before its clock starts,
// and it returns when the clock should start, so that every peer starts
// at about the same instant whatever each took to open its window. A
// joiner says it is ready (again every 25 ms, as packets are lost) until
// the host's go. The host waits until every joined, connected player's
// peer is ready, then gives each the go and starts half the longest
// round trip later; each joiner waits the difference between that and
// its own half round trip after the go arrives. (Without the barrier the
// host's clock would start a one-way delay and the difference of the
// peers' start-up times before a joiner's: its first inputs would reach
// the host after the prediction window and the host would hold.)
//
// A peer that joins or rejoins a match under way ([Match.Rejoining]) and
// a spectator do not call it: they catch up instead. A host that gave the
// go answers a late ready with a go at once. Ready fails with ctx's error
// naming a peer still not ready, or [rollback.ErrClosed]; call it from
// the goroutine that will call Send.
func (m *Match) Ready(ctx context.Context) error {
	rs := newSealer(m.key)
	w, done := m.newWait(ctx)
	defer done()
	if m.host {
		return m.hostReady(ctx, w, rs)
	}
	for {
		m.mu.Lock()
		p := &m.peers[0]
		addr, seq := p.addr, p.next()
		self := m.self
		m.mu.Unlock()
		if err := m.write(rs, 0, addr, rs.begin(kindReady, self, seq)); err != nil {
			return err
		}
		next := m.now() + readyEvery
		for m.now() < next {
			select {
			case <-m.goc:
				m.mu.Lock()
				wait := m.goWait
				m.mu.Unlock()
				return m.sleep(ctx, w, wait)
			default:
			}
			if err := m.pause(ctx, w, next); err != nil {
				if err == rollback.ErrClosed {
					return err
				}
				return fmt.Errorf("netplay: waiting for the host's go to start the match: %w", err)
			}
		}
	}
}

func (m *Match) hostReady(ctx context.Context, w timing.Waiter, rs *sealer) error {
	for {
		m.mu.Lock()
		waiting := -1
		var longest time.Duration
		for i := 1; i < m.players; i++ {
			p := &m.peers[i]
			if !p.joined || !p.connected || p.left {
				continue // it joins, or rejoins, later
			}
			if p.stats.RTT == 0 && m.now()-p.pinged >= readyEvery {
				m.writeLocked(rs, i, p.addr, m.ping(rs, i, m.now())) // its go waits on its round trip
			}
			if !p.ready || p.stats.RTT == 0 {
				waiting = i
				break
			}
			longest = max(longest, p.stats.RTT)
		}
		if waiting < 0 {
			m.went = true
			for i := 1; i < m.players; i++ {
				if p := &m.peers[i]; p.ready && p.connected {
					m.sendGo(rs, i, (longest-p.stats.RTT)/2)
				}
			}
			m.mu.Unlock()
			return m.sleep(ctx, w, longest/2)
		}
		m.mu.Unlock()
		// Woken at each ready and round trip; every readyEvery besides,
		// as a peer may have dropped meanwhile.
		if err := m.pause(ctx, w, m.now()+readyEvery); err != nil {
			if err == rollback.ErrClosed {
				return err
			}
			return fmt.Errorf("netplay: waiting for peer %d to be ready to start the match: %w", waiting, err)
		}
	}
}

// sleep waits d on the match's clock, or less if ctx ends or the match
// closes.
func (m *Match) sleep(ctx context.Context, w timing.Waiter, d time.Duration) error {
	for until := m.now() + d; m.now() < until; {
		if err := m.pause(ctx, w, until); err != nil {
			return err
		}
	}
	return nil
}

// fresh checks a sequence number against the peer's replay window and
// counts a drop.
func (m *Match) fresh(p *endpoint, seq uint64) bool {
	switch p.window(seq) {
	case futureSeq:
		m.stats.Dropped.Future++
		return false
	case replayedSeq:
		m.stats.Dropped.Replayed++
		return false
	}
	return true
}

func (m *Match) slotOf(addr netip.AddrPort) int {
	for i := range m.peers {
		if m.peers[i].joined && m.peers[i].addr == addr && (i != 0 || !m.host) {
			return i
		}
	}
	return -1
}

// deliver queues a message for Receive, dropping it when the queue is
// full.
func (m *Match) deliver(peer int, msg []byte) {
	select {
	case in := <-m.free:
		in.n, in.peer = copy(in.b[:], msg), peer
		m.inbox <- in
	default:
		m.stats.Dropped.Queue++
	}
}

// relay forwards a joiner's message to another joiner.
func (m *Match) relay(from, to int, msg []byte) {
	p := &m.peers[to]
	if !p.joined {
		return
	}
	seq := p.next()
	b := m.loop.begin(kindData, 0, seq)
	b = append(b, byte(from))
	b = append(b, msg...)
	m.writeLocked(m.loop, to, p.addr, b)
}

// ErrRefused is wrapped by Join's error when the host refused the join;
// the message says why.
var ErrRefused = errors.New("netplay: the host refused the join")

// refused ends a joiner's wait for the host with err.
func (m *Match) refused(err error) {
	if m.host || m.refusal != nil || m.full {
		return
	}
	m.refusal = err
	close(m.refusedc)
	m.wakeAll()
	if !m.answer {
		m.answer = true
		close(m.answered)
	}
}

// accepted takes the host's accept: the slot, the players, whether the
// match is full (under way), whether this joiner takes a slot back in a
// match under way, and which slots someone joined.
func (m *Match) accepted(payload []byte) {
	if m.host || len(payload) != 4 || payload[2] > 7 || m.refusal != nil {
		m.stats.Dropped.Malformed++
		return
	}
	slot, players, full, back := int(payload[0]), int(payload[1]), payload[2]&1 != 0, payload[2]&2 != 0
	lo, hi := 1, players // a player's slots
	if m.opts.Spectate {
		lo, hi = players, players+MaxSpectators
	}
	if players < 2 || players > MaxPlayers || slot < lo || slot >= hi || (m.self != noSlot && slot != m.self) {
		m.stats.Dropped.Malformed++
		return
	}
	if m.self == noSlot {
		m.self, m.players, m.rejoining = slot, players, back && full
		m.late = m.rejoining && payload[2]&4 != 0
		m.answer = true
		close(m.answered)
		m.wakeAll()
	}
	if full && !m.full {
		m.full = true
		close(m.fullc)
		m.wakeAll()
		for i := 1; i < m.players; i++ {
			// Every slot someone joined; the others join late, if at all.
			m.peers[i].connected = payload[3]&(1<<i) != 0
		}
	}
}

// refuse answers a join with a refusal and counts it; an unauthenticated
// join (a wrong token) is answered at most refusalsPerSecond times a
// second, so the host cannot be made to flood an address.
func (m *Match) refuse(to netip.AddrPort, why byte, msg string, now time.Duration) {
	switch why {
	case refuseToken:
		m.stats.Refused.Token++
		m.logRefusal(to, why, msg, now)
		m.credit = min(refusalsPerSecond, m.credit+float64(now-m.credAt)/float64(time.Second)*refusalsPerSecond)
		m.credAt = now
		if m.credit < 1 {
			return
		}
		m.credit--
	case refuseFull:
		m.stats.Refused.Full++
	case refuseGame:
		m.stats.Refused.Game++
	case refuseVersion:
		m.stats.Refused.Version++
	case refuseConfig:
		m.stats.Refused.Config++
	case refuseSlot:
		m.stats.Refused.Slot++
	case refuseSpectators:
		m.stats.Refused.Spectators++
	}
	if why != refuseToken {
		m.logRefusal(to, why, msg, now)
	}
	m.base++
	b := m.loop.begin(kindRefuse, 0, m.base)
	b = append(b, why)
	b = appendString(b, msg)
	m.writeLocked(m.loop, -1, to, b)
}

// logKey is a refusal the host logged: where it went and why.
type logKey struct {
	to  netip.AddrPort
	why byte
}

// logPerSecond bounds the lines of refused joins a host logs a second: a
// flood of joins costs counts, not a flood of log lines.
const logPerSecond = 5

// logRefusal logs a refusal once per address and reason (a joiner repeats
// its join until the refusal reaches it) and at most logPerSecond a
// second, saying how many it left out since the last line. With m.mu held.
func (m *Match) logRefusal(to netip.AddrPort, why byte, msg string, now time.Duration) {
	if m.opts.Log == nil {
		return
	}
	k := logKey{to, why}
	if slices.Contains(m.logged[:], k) {
		return
	}
	m.logCredit = min(logPerSecond, m.logCredit+float64(now-m.logAt)/float64(time.Second)*logPerSecond)
	m.logAt = now
	if m.logCredit < 1 {
		m.unlogged++
		return
	}
	m.logCredit--
	m.logged[m.loggedNext] = k
	m.loggedNext = (m.loggedNext + 1) % len(m.logged)
	m.opts.Log.Warn("netplay: join refused", "from", to.String(), "reason", msg, "unlogged", m.unlogged)
	m.unlogged = 0
}

// differences names the settings whose values differ between the host's
// and a joiner's, "key: host X, you Y", the joiner's order, as many as
// fit a refusal; "" when none of those the joiner sent differs.
func differences(host, joiner []rollback.Setting) string {
	var b []byte
	n := 0
	for _, j := range joiner {
		hv := "unset"
		if i := slices.IndexFunc(host, func(h rollback.Setting) bool { return cut(h.Key) == j.Key }); i >= 0 {
			hv = cut(host[i].Value)
		}
		if hv == j.Value {
			continue
		}
		line := fmt.Sprintf("%s: host %s, you %s", j.Key, hv, j.Value)
		if len(b)+len(line)+40 > maxRefusal-100 {
			b = fmt.Appendf(b, "; and more")
			break
		}
		if n > 0 {
			b = append(b, "; "...)
		}
		b = append(b, line...)
		n++
	}
	return string(b)
}

// join takes a join at the host.
func (m *Match) join(h header, payload []byte, from netip.AddrPort, now time.Duration) {
	id, want, role, ok := parseJoin(payload)
	if !ok {
		m.stats.Dropped.Malformed++
		return
	}
	if s := m.slotOf(from); s > 0 {
		// A join repeated from a peer's own address: answer again.
		p := &m.peers[s]
		if !m.fresh(p, h.seq) {
			return
		}
		p.heard, p.left = now, false
		if !p.connected {
			p.connected = true
			m.event(rollback.PeerEvent{Peer: s, Kind: rollback.PeerReconnected})
		}
		m.accept(s)
		return
	}
	switch {
	case id.Game != m.id.Game:
		m.refuse(from, refuseGame, fmt.Sprintf("different game: the host plays %q, the joiner %q", m.id.Game, id.Game), now)
		return
	case id.Version != m.id.Version:
		m.refuse(from, refuseVersion, fmt.Sprintf("different version of %s: the host runs %q, the joiner %q", m.id.Game, m.id.Version, id.Version), now)
		return
	case id.Config != m.id.Config:
		if d := differences(m.id.Settings, id.Settings); d != "" {
			m.refuse(from, refuseConfig, "different configuration: "+d, now)
		} else {
			m.refuse(from, refuseConfig, fmt.Sprintf("different configuration: the host's hash is %#016x, the joiner's %#016x, in settings the join did not carry (compare the [net] and game settings)", m.id.Config, id.Config), now)
		}
		return
	case want >= m.players:
		m.refuse(from, refuseSlot, fmt.Sprintf("slot %d asked for; this match has slots 1 to %d", want, m.players-1), now)
		return
	case role == roleSpectator:
		m.joinSpectator(h, from, now)
		return
	}
	slot, back := -1, false
	if want > 0 {
		p := &m.peers[want]
		switch {
		case !p.joined:
			slot, back = want, m.full // a late join catches up as a rejoin does
		case !p.connected:
			slot, back = want, true
		default:
			slot = m.crashed(from, want, now)
			if slot == held {
				return
			}
			if slot < 0 {
				m.refuse(from, refuseSlot, fmt.Sprintf("slot %d is taken by a connected player", want), now)
				return
			}
			back = true
		}
	} else {
		slot = m.freeSlot(1, m.players)
		back = slot >= 0 && m.full
		for i := 1; i < m.players && slot < 0; i++ {
			if !m.peers[i].connected {
				slot, back = i, true
			}
		}
		if slot < 0 {
			slot = m.crashed(from, 0, now)
			if slot == held {
				return
			}
			if slot < 0 {
				m.refuse(from, refuseFull, fmt.Sprintf("the match is full: %d of %d players, all connected", m.players, m.players), now)
				return
			}
			back = true
		}
	}
	p := &m.peers[slot]
	if back && p.any && h.seq <= p.high {
		// An old join of the dropped player's, replayed: a new run of
		// the joiner numbers above everything its last run sent.
		m.stats.Dropped.Replayed++
		return
	}
	fresh := !p.joined
	p.admit(from, h.seq, now)
	if back {
		p.back, p.late = m.full, m.full && fresh
		kind := rollback.PeerReconnected
		if fresh {
			kind = rollback.PeerJoined // a slot no one played yet, in a match under way
		}
		m.event(rollback.PeerEvent{Peer: slot, Kind: kind})
	}
	if !m.full {
		n := 0
		for i := 1; i < m.players; i++ {
			if m.peers[i].joined {
				n++
			}
		}
		if n >= m.opts.Start-1 {
			m.full = true
			close(m.fullc)
			m.wakeAll() // a host waiting in Connect looks again
			for i := 1; i < m.players; i++ {
				if i != slot && m.peers[i].joined {
					m.accept(i)
				}
			}
		}
	}
	m.accept(slot)
}

// held is crashed's answer for a join left unanswered for now.
const held = -2

// crashed decides a join from a new address to a match under way whose
// players are all connected, for slot want (0: any). The joiner holds the
// token, so it is one of the match's players; if it is a new run of one
// whose process ended, that player's slot has gone quiet. crashed returns
// the slot to give it (want, or the quietest) once that slot's player has
// been silent two ping intervals, which no live player is (it pings, and
// plays, more often); held while the join is younger than that; or -1 (the
// join is refused) once the slot's player has been heard since the join
// first came, or the match has not started. With m.mu held.
func (m *Match) crashed(from netip.AddrPort, want int, now time.Duration) int {
	if !m.full {
		return -1
	}
	slot := want
	if slot == 0 {
		for i := 1; i < m.players; i++ {
			if slot == 0 || m.peers[i].heard < m.peers[slot].heard {
				slot = i
			}
		}
	}
	p := &m.peers[slot]
	silence := 2 * m.opts.pingEvery()
	switch {
	case now-p.heard >= silence:
		m.pending.from = netip.AddrPort{}
		return slot
	case m.pending.from != from:
		m.pending.from, m.pending.heard = from, p.stats.Received.Packets
		return held
	case p.stats.Received.Packets > m.pending.heard:
		m.pending.from = netip.AddrPort{}
		return -1 // alive: heard after the join came
	}
	return held
}

func (m *Match) accept(slot int) {
	p := &m.peers[slot]
	seq := p.next()
	b := m.loop.begin(kindAccept, 0, seq)
	var state byte // bit 0: the match is full; bit 1: the slot is taken (back) in a match under way; bit 2: no one played it before
	if m.full {
		state |= 1
	}
	if p.back {
		state |= 2
	}
	if p.late {
		state |= 4
	}
	b = append(b, byte(slot), byte(m.players), state, m.slotBits(joined))
	m.writeLocked(m.loop, slot, p.addr, b)
}

// joinSpectator gives a spectator's join the lowest free spectator peer
// number, at any time during the match, or refuses it when
// Options.Spectators are watching.
func (m *Match) joinSpectator(h header, from netip.AddrPort, now time.Duration) {
	slot := m.freeSlot(m.players, m.players+m.opts.Spectators)
	if slot < 0 {
		m.refuse(from, refuseSpectators, fmt.Sprintf("the match has all the spectators it takes: %d watching (the host's Options.Spectators)", m.opts.Spectators), now)
		return
	}
	m.peers[slot].admit(from, h.seq, now)
	m.event(rollback.PeerEvent{Peer: slot, Kind: rollback.PeerJoined})
	m.accept(slot)
}

// freeSlot returns the lowest peer number from lo to hi-1 that no one
// holds, or -1.
func (m *Match) freeSlot(lo, hi int) int {
	for i := lo; i < hi; i++ {
		if !m.peers[i].joined {
			return i
		}
	}
	return -1
}

// next returns the next sequence number to the peer.
func (p *endpoint) next() uint64 {
	p.seq++
	return p.seq - 1
}

// window reports whether a sequence number from the peer is new: okSeq,
// and recorded in the replay window (the last 64 numbers); replayedSeq
// when it was seen before or is too old to tell; futureSeq when it is
// more than future ahead of the highest seen.
func (p *endpoint) window(seq uint64) seqCheck {
	switch {
	case !p.any:
		p.high, p.seen, p.any = seq, 1, true
	case seq > p.high:
		d := seq - p.high
		if d > future {
			return futureSeq
		}
		if d >= 64 {
			p.seen = 1
		} else {
			p.seen = p.seen<<d | 1
		}
		p.high = seq
	default:
		d := p.high - seq
		if d >= 64 || p.seen&(1<<d) != 0 {
			return replayedSeq
		}
		p.seen |= 1 << d
	}
	return okSeq
}

type seqCheck uint8

const (
	okSeq seqCheck = iota
	replayedSeq
	futureSeq
)

// measured takes a round-trip sample, smoothing it (an eighth of each new
// sample), and reports whether it is the first.
func (p *endpoint) measured(rtt time.Duration) (first bool) {
	// A round trip inside one reading of a coarse (or virtual) clock is
	// measured all the same: 0 means none measured.
	rtt = max(rtt, time.Nanosecond)
	if p.stats.RTT == 0 {
		p.stats.RTT = rtt
		return true
	}
	p.stats.RTT += (rtt - p.stats.RTT) / 8
	return false
}

// admit gives p to the joiner at from, whose join had sequence number
// seq: a player's slot, taken or taken back, or a spectator's.
func (p *endpoint) admit(from netip.AddrPort, seq uint64, now time.Duration) {
	p.addr, p.joined, p.connected, p.heard, p.left = from, true, true, now, false
	p.high, p.seen, p.any = seq, 1, true
	p.stats.RTT = 0
}

// freeSpectator gives a gone spectator's peer number back; a player's
// slot stays its own.
func (m *Match) freeSpectator(slot int) {
	if m.host && m.spectatorLocked(slot) {
		p := &m.peers[slot]
		*p = endpoint{seq: p.seq}
	}
}

// Seating maps a match of players players onto its peers. A match with
// one peer more than players has a dedicated host (peer 0, no seat): the
// peer count is how a joiner knows one, so every end maps the seats the
// same way and the game needs no flag of its own for it.
func (m *Match) Seating(players int) rollback.Seating {
	m.mu.Lock()
	total, self := m.players, m.self
	m.mu.Unlock()
	s := rollback.Seating{Peers: make([]int, players)}
	first := 0
	if total == players+1 {
		first = 1
		if self != 0 && self < total {
			s.Seatless = []int{0}
		}
	}
	for p := range s.Peers {
		s.Peers[p] = p + first
		if self == 0 && !m.Joined(p+first) {
			s.Late = append(s.Late, p+first)
		}
	}
	return s
}
