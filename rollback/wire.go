package rollback

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/binio"
)

// The message a session sends its peers after each update:
//
//	"MR" version(1)
//	uvarint sender peer, uvarint sender tick, uvarint advantage (float64),
//	    varint debt (ticks)
//	uvarint players, then per player varint frontier − sender tick
//	uvarint fills (the host's only), then per fill: uvarint player,
//	    varint first filled tick − sender tick
//	uvarint blocks, then per block: uvarint player, uvarint frontier −
//	    first tick, count (1 byte), then count ticks from the first
//	uvarint hashes, then per hash: varint sender tick − hash tick, 8 bytes hash
//
// A block's ticks are coded against a prediction from the tick before
// each (for the first, the tick before the block, which every peer the
// block is for has confirmed): the action held as it was or left up, its
// value unchanged. They come as runs: a uvarint count of ticks that are
// exactly as predicted, then (unless the block ends there) one tick that
// is not: a uvarint bitmap of the actions that differ from their
// prediction, then per such action a uvarint field mask (see fieldDown)
// and the fields it names, each a uvarint. An action held or left alone
// costs nothing between its press and its release, so a block of a game
// with a few actions is mostly its presses and releases. A float travels
// as the uvarint of its bits reversed, so values with a short mantissa
// (0, ±1, ±0.5) take one or two bytes; every value arrives bit for bit.
// Integers are varints, hashes little-endian.
//
// A fill is the host's word that it plays on without that player's peer
// ([Session.Fill]) from that tick: the peer learns it must resynchronise
// even when it ran ahead of what the host confirmed of its player, which
// the frontier alone does not show. Version 4 added the fills.
const (
	wireVersion  = 4
	maxSendHash  = 4
	hashRepeats  = 8 // messages that carry a final hash, against loss
	maxCount     = 1 << 20
	maxBlock     = 255 // ticks per block: the count is one byte
	headerLength = 3
	// hashReserve is what the hashes may take at a message's end.
	hashReserve = 1 + maxSendHash*(binary.MaxVarintLen64+8)
)

// The field mask of a changed action: bits 0 and 7 flip Down and WasDown
// from the prediction, the others say the field follows. The fields that
// change together on a press or a release fit the first seven bits, one
// byte.
const (
	fieldDown = 1 << iota
	fieldPresses
	fieldReleases
	fieldHeld
	fieldValue
	fieldMean
	fieldPeak
	fieldWasDown
	fieldStartValue
	fieldAll = 1<<9 - 1
)

// ErrMalformed is wrapped by the errors of [Session.Receive] for a message
// that does not decode or does not belong to this match.
var ErrMalformed = errors.New("rollback: malformed message")

// AppendMessage appends this session's message for its peers to dst: the
// local players' inputs its peers have not confirmed yet (sent again until
// they have, so a lost message costs nothing but delay), what it has
// received of theirs, its tick and advantage, and its latest confirmed
// hashes, each in a few messages. The message it appends stays within
// [MaxMessage]: when the unconfirmed inputs do not all fit, it carries the
// earliest and leaves the rest to the next messages. (Only one tick of a
// player that alone exceeds the budget, possible with dozens of analog
// actions all changing at once, makes a longer message.) Steady use with
// a reused dst allocates nothing. Call it once per update and send the
// message to every peer: each call counts towards a hash's repeats.
func (s *Session) AppendMessage(dst []byte) []byte {
	base := len(dst)
	dst = append(dst, 'M', 'R', wireVersion)
	dst = binio.AppendUvarint(dst, uint64(s.opts.Self))
	dst = binio.AppendUvarint(dst, uint64(s.tick))
	dst = binio.AppendUvarint(dst, bits.ReverseBytes64(math.Float64bits(s.localView())))
	dst = binio.AppendVarint(dst, s.debt)
	dst = binio.AppendUvarint(dst, uint64(s.players))
	for _, f := range s.frontier {
		dst = binio.AppendVarint(dst, f-s.tick)
	}
	fills := 0
	for p := range s.players {
		if !s.isLocal(p) && s.sends(p) {
			fills++
		}
	}
	dst = binio.AppendUvarint(dst, uint64(fills))
	for p := range s.players {
		if !s.isLocal(p) && s.sends(p) {
			dst = binio.AppendUvarint(dst, uint64(p))
			dst = binio.AppendVarint(dst, s.fillFrom[p]-s.tick)
		}
	}
	blocks := 0
	for p := range s.players {
		if s.sends(p) {
			blocks++
		}
	}
	dst = binio.AppendUvarint(dst, uint64(blocks))
	budget := base + MaxMessage - hashReserve
	for p := range s.players {
		if !s.sends(p) {
			continue
		}
		f := s.frontier[p]
		start := f
		for _, peer := range s.remotePeers {
			if !s.Filling(peer) { // it catches up from a snapshot
				start = min(start, s.peerAck[peer*s.players+p])
			}
		}
		start = max(start, f-int64(s.ringLen)+1, f-maxBlock, 0)
		// The earliest ticks the peers lack come first: a peer moves its
		// frontier only over ticks it has contiguously. What the budget
		// leaves out goes in the next messages.
		dst = binio.AppendUvarint(dst, uint64(p))
		dst = binio.AppendUvarint(dst, uint64(f-start))
		at := len(dst)
		dst = append(dst, 0)
		// The first tick is coded against the one before it, which
		// every peer that needs this block has confirmed.
		prev := s.zero
		if start > 0 {
			prev = s.stored(p, start-1)
		}
		k, run := start, 0
		for ; k < f; k++ {
			cur := s.stored(p, k)
			if unchanged(prev, cur) {
				run++
				prev = cur
				continue
			}
			mark := len(dst)
			dst = binio.AppendUvarint(dst, uint64(run))
			dst = appendTick(dst, prev, cur)
			if len(dst) > budget && k > start {
				dst = dst[:mark]
				break
			}
			run, prev = 0, cur
		}
		if run > 0 {
			dst = binio.AppendUvarint(dst, uint64(run))
		}
		dst[at] = byte(k - start)
	}
	var send [maxSendHash]*hashEntry
	n := 0
	for i := range s.hashes {
		e := &s.hashes[i]
		if !e.final || e.sent >= hashRepeats {
			continue
		}
		if n < maxSendHash {
			send[n] = e
			n++
			continue
		}
		// Keep the latest: replace the oldest kept.
		o := 0
		for j := 1; j < n; j++ {
			if send[j].tick < send[o].tick {
				o = j
			}
		}
		if e.tick > send[o].tick {
			send[o] = e
		}
	}
	dst = binio.AppendUvarint(dst, uint64(n))
	for _, e := range send[:n] {
		e.sent++
		dst = binio.AppendVarint(dst, s.tick-e.tick)
		dst = binio.AppendU64(dst, e.local)
	}
	return dst
}

// sends reports whether this session's messages carry player p's inputs:
// a local player's, or those a host fills (Session.Fill).
func (s *Session) sends(p int) bool {
	return s.isLocal(p) || s.Filling(s.opts.Players[p].Peer)
}

// localView is this session's own view of its advantage: its tick minus
// the latest tick a peer reported (so one-way latency included).
func (s *Session) localView() float64 {
	v, any := 0.0, false
	for peer, seen := range s.peerSeen {
		if seen {
			a := float64(s.tick - s.peerTick[peer])
			if !any || a > v {
				v, any = a, true
			}
		}
	}
	return v
}

// predict is the state an action is expected to have the tick after
// prev: unchanged since, held down or left up, its value kept.
func predict(prev *input.Stats) input.Stats {
	q := input.Stats{Down: prev.Down, WasDown: prev.Down, Value: prev.Value, StartValue: prev.Value, Mean: prev.Value, Peak: prev.Value}
	if prev.Down {
		q.Held = prev.Held
	}
	return q
}

// fieldMask says which fields of cur differ from the prediction q.
func fieldMask(q, cur *input.Stats) uint64 {
	var m uint64
	if q.Down != cur.Down {
		m |= fieldDown
	}
	if q.WasDown != cur.WasDown {
		m |= fieldWasDown
	}
	if q.Presses != cur.Presses {
		m |= fieldPresses
	}
	if q.Releases != cur.Releases {
		m |= fieldReleases
	}
	if q.Held != cur.Held {
		m |= fieldHeld
	}
	for _, f := range [4]struct {
		q, c float32
		bit  uint64
	}{{q.Value, cur.Value, fieldValue}, {q.Mean, cur.Mean, fieldMean}, {q.Peak, cur.Peak, fieldPeak}, {q.StartValue, cur.StartValue, fieldStartValue}} {
		if math.Float32bits(f.q) != math.Float32bits(f.c) {
			m |= f.bit
		}
	}
	return m
}

func floatWire(f float32) uint64 { return uint64(bits.Reverse32(math.Float32bits(f))) }

// unchanged reports whether every action of cur is as predicted from prev.
func unchanged(prev, cur []input.Stats) bool {
	for a := range cur {
		if q := predict(&prev[a]); fieldMask(&q, &cur[a]) != 0 {
			return false
		}
	}
	return true
}

// appendTick appends cur coded against the tick before it, prev.
func appendTick(dst []byte, prev, cur []input.Stats) []byte {
	var c uint64
	var masks [maxActions]uint64
	for a := range cur {
		q := predict(&prev[a])
		if masks[a] = fieldMask(&q, &cur[a]); masks[a] != 0 {
			c |= 1 << a
		}
	}
	dst = binio.AppendUvarint(dst, c)
	for a := range cur {
		m := masks[a]
		if m == 0 {
			continue
		}
		q := &cur[a]
		dst = binio.AppendUvarint(dst, m)
		if m&fieldPresses != 0 {
			dst = binio.AppendUvarint(dst, uint64(q.Presses))
		}
		if m&fieldReleases != 0 {
			dst = binio.AppendUvarint(dst, uint64(q.Releases))
		}
		if m&fieldHeld != 0 {
			dst = binio.AppendUvarint(dst, uint64(q.Held))
		}
		for _, f := range [4]struct {
			v   float32
			bit uint64
		}{{q.Value, fieldValue}, {q.Mean, fieldMean}, {q.Peak, fieldPeak}, {q.StartValue, fieldStartValue}} {
			if m&f.bit != 0 {
				dst = binio.AppendUvarint(dst, floatWire(f.v))
			}
		}
	}
	return dst
}

// Receive takes a peer's message. A message that does not decode, comes
// from this session's own peer number or from a match of another shape is
// refused whole with an error wrapping [ErrMalformed] that says what was
// wrong, and counted in Stats.Malformed. Inputs past what the window lets
// the session hold are refused one by one and counted in Stats.Refused;
// a hash of a tick it no longer holds is counted in Stats.StaleHashes.
func (s *Session) Receive(msg []byte) error {
	if err := s.decode(msg, false); err != nil {
		s.stats.Malformed++
		return err
	}
	return s.decode(msg, true)
}

// ReceiveFrom is Receive for a message its transport says came from
// peer: one that names another sender is refused whole with an error
// wrapping [ErrMalformed] and counted in Stats.Malformed, so that a peer
// cannot give inputs for another peer's players. Use it whenever the
// transport knows the sender (a [Transport] does).
func (s *Session) ReceiveFrom(peer int, msg []byte) error {
	if len(msg) > headerLength {
		if v, n := binary.Uvarint(msg[headerLength:]); n > 0 && v != uint64(peer) {
			s.stats.Malformed++
			return fmt.Errorf("%w: a message naming sender peer %d came from peer %d", ErrMalformed, v, peer)
		}
	}
	return s.Receive(msg)
}

// reader reads a message with the sticky binio reader, adding the
// decoding of a tick's action states.
type reader struct{ binio.Reader }

// tick decodes one tick's action states into in, which holds the tick
// before it: only what differs from the prediction arrives.
func (r *reader) tick(in []input.Stats) {
	c := r.Uint("changed actions", 0, math.MaxUint64)
	if r.Err() != nil {
		return
	}
	if len(in) < 64 && c>>len(in) != 0 {
		r.Failf("changed-action bitmap %#x names an action past the match's %d", c, len(in))
		return
	}
	for a := range in {
		in[a] = predict(&in[a])
		if c&(1<<a) != 0 {
			r.stats(&in[a])
		}
	}
}

func (r *reader) stats(a *input.Stats) {
	m := r.Uint("field mask", 0, fieldAll)
	if r.Err() != nil {
		return
	}
	a.Down = a.Down != (m&fieldDown != 0)
	a.WasDown = a.WasDown != (m&fieldWasDown != 0)
	if m&fieldPresses != 0 {
		a.Presses = int(r.Uint("presses", 0, maxCount))
	}
	if m&fieldReleases != 0 {
		a.Releases = int(r.Uint("releases", 0, maxCount))
	}
	if m&fieldHeld != 0 {
		a.Held = time.Duration(r.Uint("held", 0, math.MaxInt64))
	}
	for _, f := range [4]struct {
		p   *float32
		bit uint64
	}{{&a.Value, fieldValue}, {&a.Mean, fieldMean}, {&a.Peak, fieldPeak}, {&a.StartValue, fieldStartValue}} {
		if m&f.bit == 0 {
			continue
		}
		v := float32frombits(uint32(r.Uint("action value", 0, math.MaxUint32)))
		if r.Err() != nil {
			return
		}
		if !(v >= -1 && v <= 1) {
			r.Failf("action value %v is out of range (allowed: -1 to 1)", v)
			return
		}
		*f.p = v
	}
}

func float32frombits(b uint32) float32 { return math.Float32frombits(bits.Reverse32(b)) }

// decode checks msg whole (apply false) or applies it (apply true, only
// after a check passed).
func (s *Session) decode(msg []byte, apply bool) error {
	if len(msg) < headerLength || msg[0] != 'M' || msg[1] != 'R' {
		return fmt.Errorf("%w: no \"MR\" header", ErrMalformed)
	}
	if msg[2] != wireVersion {
		return fmt.Errorf("%w: version %d is not read here (allowed: %d)", ErrMalformed, msg[2], wireVersion)
	}
	const maxTick = math.MaxInt64 / 4
	r := reader{binio.NewReader(msg[headerLength:], ErrMalformed)}
	peer := int(r.Uint("sender peer", 0, maxPeers-1))
	tick := int64(r.Uint("sender tick", 0, maxTick))
	adv := math.Float64frombits(bits.ReverseBytes64(r.Uint("advantage", 0, math.MaxUint64)))
	debt := r.Int("debt", -maxDebt, maxDebt)
	players := r.Uint("players", 0, maxPlayers)
	if r.Err() != nil {
		return r.Err()
	}
	switch {
	case peer == s.opts.Self:
		return fmt.Errorf("%w: sender peer %d is this session's own", ErrMalformed, peer)
	case !s.isPeer(peer):
		return fmt.Errorf("%w: sender peer %d owns no player of this match", ErrMalformed, peer)
	case int(players) != s.players:
		return fmt.Errorf("%w: %d players; this match has %d", ErrMalformed, players, s.players)
	case math.IsNaN(adv) || math.IsInf(adv, 0):
		return fmt.Errorf("%w: advantage %v is not a finite number", ErrMalformed, adv)
	}
	var frontier [maxPlayers]int64
	for p := range s.players {
		f := tick + r.Int("frontier", -tick, maxTick)
		frontier[p] = f
		if apply && peer == 0 && s.isLocal(p) && f > s.frontier[p] {
			// The host filled this player's inputs (Fill).
			if s.resync == "" {
				s.resync = fmt.Sprintf("it confirmed this peer's inputs past tick %d", s.frontier[p])
			}
		}
		if apply {
			i := peer*s.players + p
			s.peerAck[i] = max(s.peerAck[i], f)
		}
	}
	fills := r.Uint("fills", 0, maxPlayers)
	for range fills {
		p := int(r.Uint("filled player", 0, uint64(s.players-1)))
		from := tick + r.Int("first filled tick", -tick, maxTick)
		if r.Err() != nil {
			return r.Err()
		}
		switch {
		case peer != 0:
			return fmt.Errorf("%w: peer %d says it fills player %d (allowed: only the host, peer 0, fills)", ErrMalformed, peer, p)
		case s.opts.Players[p].Peer == 0:
			return fmt.Errorf("%w: the host says it fills its own player %d (allowed: a player of another peer)", ErrMalformed, p)
		}
		// A fill that began before this session did is one this peer
		// resynchronised from already (or joined late past): a message
		// the host sent before it heard this peer ask to catch up.
		if apply && s.isLocal(p) && from >= s.begin && s.resync == "" {
			s.resync = fmt.Sprintf("it fills this peer's player %d from tick %d", p, from)
		}
	}
	blocks := r.Uint("blocks", 0, maxPlayers)
	for range blocks {
		p := int(r.Uint("player", 0, uint64(s.players-1)))
		back := int64(r.Uint("block start", 0, maxBlock))
		cb := r.Bytes(1)
		if r.Err() != nil {
			return r.Err()
		}
		count := int64(cb[0])
		// The host also sends the inputs it fills for another peer's
		// player (Session.Fill): the match's authority, they are taken
		// as that player's.
		relayed := s.opts.Players[p].Peer != peer
		switch {
		case relayed && peer != 0:
			return fmt.Errorf("%w: peer %d sent inputs of player %d, who belongs to peer %d", ErrMalformed, peer, p, s.opts.Players[p].Peer)
		case back > frontier[p] || count > back:
			return fmt.Errorf("%w: block of player %d starts %d ticks before frontier %d with %d ticks (allowed: a start at or after tick 0 and at most that many ticks)", ErrMalformed, p, back, frontier[p], count)
		}
		first := frontier[p] - back
		// The block is coded against the tick before it; a session that
		// lacks that tick reads the block but takes nothing from it.
		// A block of this session's own player, filled by the host, is
		// read and not taken: the frontier said it resynchronises.
		based := (first == 0 || s.confirmed(p, first-1)) && !s.isLocal(p)
		if based && first > 0 {
			copy(s.scratch, s.stored(p, first-1))
		} else {
			clear(s.scratch)
		}
		end := first + count
		for k := first; k < end; {
			// A run of ticks as predicted, then one that is not.
			run := int64(r.Uint("unchanged ticks", 0, uint64(end-k)))
			if r.Err() != nil {
				return r.Err()
			}
			for range run {
				for a := range s.scratch {
					s.scratch[a] = predict(&s.scratch[a])
				}
				s.take(apply, based, relayed, p, k)
				k++
			}
			if k < end {
				r.tick(s.scratch)
				if r.Err() != nil {
					return r.Err()
				}
				s.take(apply, based, relayed, p, k)
				k++
			}
		}
	}
	hashes := r.Uint("hashes", 0, maxSendHash)
	for range hashes {
		k := tick - r.Int("hash tick", tick-maxTick, tick)
		b := r.Bytes(8)
		if r.Err() != nil {
			return r.Err()
		}
		if !apply {
			if n := int64(s.opts.HashEvery); n == 0 || k%n != 0 {
				return fmt.Errorf("%w: hash of tick %d, which is not a multiple of this match's hash interval %d", ErrMalformed, k, n)
			}
			continue
		}
		s.remoteHash(peer, k, binary.LittleEndian.Uint64(b))
	}
	if r.Err() != nil {
		return r.Err()
	}
	if r.Left() != 0 {
		return fmt.Errorf("%w: %d bytes after the end", ErrMalformed, r.Left())
	}
	if apply {
		if !s.peerSeen[peer] || tick > s.peerTick[peer] {
			s.peerTick[peer], s.peerAdv[peer], s.peerDebt[peer] = tick, adv, debt
		}
		s.peerSeen[peer] = true
	}
	return nil
}

// take confirms a decoded input (in s.scratch) of player p for tick k, if
// applying a block the session has the base of.
func (s *Session) take(apply, based, relayed bool, p int, k int64) {
	switch {
	case !apply:
	case relayed && based && k < s.frontier[p] && s.confirmed(p, k) && !equal(s.stored(p, k), s.scratch):
		// The host filled a tick this session confirmed otherwise: its
		// timeline is not the match's from there.
		if s.resync == "" {
			s.resync = fmt.Sprintf("it filled player %d's tick %d, which this peer confirmed otherwise", p, k)
		}
		s.stats.Duplicates++
	case based:
		s.confirm(p, k, s.scratch)
	case k < s.frontier[p] || s.confirmed(p, k):
		s.stats.Duplicates++
	default:
		s.stats.Refused++
	}
}

func (s *Session) isPeer(peer int) bool {
	for _, p := range s.remotePeers {
		if p == peer {
			return true
		}
	}
	return false
}
