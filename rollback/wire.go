package rollback

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/metronome-go/metronome/input"
)

// The message a session sends its peers after each update:
//
//	"MR" version(1)
//	uvarint sender peer, uvarint sender tick, 8 bytes advantage (float64 bits)
//	uvarint players, then per player uvarint frontier (what the sender has)
//	uvarint blocks, then per block: uvarint player, uvarint first tick,
//	    uvarint count, count × Actions action states
//	uvarint hashes, then per hash: uvarint tick, 8 bytes hash
//
// An action state is a flags byte (bit 0 Down, bit 1 WasDown), uvarint
// presses and releases, uvarint held nanoseconds and four float32 bits
// (Value, StartValue, Mean, Peak). Integers are little-endian.
const (
	wireVersion  = 1
	maxSendHash  = 4
	maxCount     = 1 << 20
	headerLength = 3
)

// ErrMalformed is wrapped by the errors of [Session.Receive] for a message
// that does not decode or does not belong to this match.
var ErrMalformed = errors.New("rollback: malformed message")

// AppendMessage appends this session's message for its peers to dst: the
// local players' inputs its peers have not confirmed yet (sent again until
// they have, so a lost message costs nothing but delay), what it has
// received of theirs, its tick and advantage, and its latest confirmed
// hashes. Steady use with a reused dst allocates nothing.
func (s *Session) AppendMessage(dst []byte) []byte {
	dst = append(dst, 'M', 'R', wireVersion)
	dst = binary.AppendUvarint(dst, uint64(s.opts.Self))
	dst = binary.AppendUvarint(dst, uint64(s.tick))
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(s.localView()))
	dst = binary.AppendUvarint(dst, uint64(s.players))
	for _, f := range s.frontier {
		dst = binary.AppendUvarint(dst, uint64(f))
	}
	blocks := 0
	for p := range s.players {
		if s.isLocal(p) {
			blocks++
		}
	}
	dst = binary.AppendUvarint(dst, uint64(blocks))
	for p := range s.players {
		if !s.isLocal(p) {
			continue
		}
		f := s.frontier[p]
		start := f
		for _, peer := range s.remotePeers {
			start = min(start, s.peerAck[peer*s.players+p])
		}
		start = max(start, f-int64(s.ringLen)+1, 0)
		dst = binary.AppendUvarint(dst, uint64(p))
		dst = binary.AppendUvarint(dst, uint64(start))
		dst = binary.AppendUvarint(dst, uint64(f-start))
		for k := start; k < f; k++ {
			for _, a := range s.stored(p, k) {
				dst = appendStats(dst, a)
			}
		}
	}
	var send [maxSendHash]*hashEntry
	n := 0
	for i := range s.hashes {
		e := &s.hashes[i]
		if !e.final {
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
	dst = binary.AppendUvarint(dst, uint64(n))
	for _, e := range send[:n] {
		dst = binary.AppendUvarint(dst, uint64(e.tick))
		dst = binary.LittleEndian.AppendUint64(dst, e.local)
	}
	return dst
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

func appendStats(dst []byte, a input.Stats) []byte {
	var flags byte
	if a.Down {
		flags |= 1
	}
	if a.WasDown {
		flags |= 2
	}
	dst = append(dst, flags)
	dst = binary.AppendUvarint(dst, uint64(a.Presses))
	dst = binary.AppendUvarint(dst, uint64(a.Releases))
	dst = binary.AppendUvarint(dst, uint64(a.Held))
	for _, f := range [4]float32{a.Value, a.StartValue, a.Mean, a.Peak} {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(f))
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

type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint(what string, limit uint64) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = fmt.Errorf("%w: %s is cut off or too long", ErrMalformed, what)
		return 0
	}
	r.b = r.b[n:]
	if v > limit {
		r.err = fmt.Errorf("%w: %s %d is out of range; allowed: 0 to %d", ErrMalformed, what, v, limit)
		return 0
	}
	return v
}

func (r *reader) fixed(what string, n int) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.b) < n {
		r.err = fmt.Errorf("%w: %s is cut off", ErrMalformed, what)
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

func (r *reader) stats(a *input.Stats) {
	flags := r.fixed("action state flags", 1)
	if r.err != nil {
		return
	}
	if flags[0]&^3 != 0 {
		r.err = fmt.Errorf("%w: action state flags %#x have unknown bits; allowed: bits 0 (down) and 1 (was down)", ErrMalformed, flags[0])
		return
	}
	a.Down, a.WasDown = flags[0]&1 != 0, flags[0]&2 != 0
	a.Presses = int(r.uvarint("presses", maxCount))
	a.Releases = int(r.uvarint("releases", maxCount))
	a.Held = time.Duration(r.uvarint("held", math.MaxInt64))
	for _, f := range [4]*float32{&a.Value, &a.StartValue, &a.Mean, &a.Peak} {
		b := r.fixed("action value", 4)
		if r.err != nil {
			return
		}
		*f = math.Float32frombits(binary.LittleEndian.Uint32(b))
		if !(*f >= -1 && *f <= 1) {
			r.err = fmt.Errorf("%w: action value %v is out of range; allowed: -1 to 1", ErrMalformed, *f)
			return
		}
	}
}

// decode checks msg whole (apply false) or applies it (apply true, only
// after a check passed).
func (s *Session) decode(msg []byte, apply bool) error {
	if len(msg) < headerLength || msg[0] != 'M' || msg[1] != 'R' {
		return fmt.Errorf("%w: no \"MR\" header", ErrMalformed)
	}
	if msg[2] != wireVersion {
		return fmt.Errorf("%w: version %d; allowed: %d", ErrMalformed, msg[2], wireVersion)
	}
	r := reader{b: msg[headerLength:]}
	peer := int(r.uvarint("sender peer", maxPeers-1))
	tick := int64(r.uvarint("sender tick", math.MaxInt64/2))
	advb := r.fixed("advantage", 8)
	players := r.uvarint("players", maxPlayers)
	if r.err != nil {
		return r.err
	}
	adv := math.Float64frombits(binary.LittleEndian.Uint64(advb))
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
	for p := range s.players {
		f := int64(r.uvarint("frontier", math.MaxInt64/2))
		if apply {
			i := peer*s.players + p
			s.peerAck[i] = max(s.peerAck[i], f)
		}
	}
	blocks := r.uvarint("blocks", maxPlayers)
	for range blocks {
		p := int(r.uvarint("player", uint64(s.players-1)))
		first := int64(r.uvarint("first tick", math.MaxInt64/4))
		count := int64(r.uvarint("count", uint64(maxCount)))
		if r.err != nil {
			return r.err
		}
		if s.opts.Players[p].Peer != peer {
			if !apply {
				return fmt.Errorf("%w: peer %d sent inputs of player %d, who belongs to peer %d", ErrMalformed, peer, p, s.opts.Players[p].Peer)
			}
		}
		for k := first; k < first+count; k++ {
			for a := range s.actions {
				r.stats(&s.scratch[a])
			}
			if r.err != nil {
				return r.err
			}
			if apply {
				s.confirm(p, k, s.scratch)
			}
		}
	}
	hashes := r.uvarint("hashes", maxSendHash)
	for range hashes {
		k := int64(r.uvarint("hash tick", math.MaxInt64/2))
		b := r.fixed("hash", 8)
		if r.err != nil {
			return r.err
		}
		if !apply {
			if n := int64(s.opts.HashEvery); n == 0 || k%n != 0 {
				return fmt.Errorf("%w: hash of tick %d, which is not a multiple of this match's hash interval %d", ErrMalformed, k, n)
			}
			continue
		}
		s.remoteHash(peer, k, binary.LittleEndian.Uint64(b))
	}
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%w: %d bytes after the end", ErrMalformed, len(r.b))
	}
	if apply {
		if !s.peerSeen[peer] || tick > s.peerTick[peer] {
			s.peerTick[peer], s.peerAdv[peer] = tick, adv
		}
		s.peerSeen[peer] = true
	}
	return nil
}

func (s *Session) isPeer(peer int) bool {
	for _, p := range s.remotePeers {
		if p == peer {
			return true
		}
	}
	return false
}
