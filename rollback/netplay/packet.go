package netplay

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash"

	"github.com/metronome-go/metronome/internal/binio"
	"github.com/metronome-go/metronome/rollback"
)

// A packet, over either transport:
//
//	byte 0     version (high 4 bits, 1) and kind (low 4 bits)
//	byte 1     sender's peer number (0 the host; 255 a joiner not yet accepted)
//	bytes 2-9  sequence number, little-endian: one counter per receiver
//	payload    by kind (below)
//	16 bytes   HMAC-SHA256 of everything before it, keyed by the join
//	           secret, truncated to 16 bytes (128 bits, as in RFC 4868's
//	           truncated tags: forging one takes about 2^128 tries)
//
// Payloads: join is the Identity (uvarint-prefixed game and version, 8
// bytes config), the slot asked for and the role (0 a player, 1 a
// spectator), then a uvarint count of settings and each setting's key and
// value; accept is the slot given, the number of players, a state byte
// (bit 0 the match is full, bit 1 the slot is taken back in a match
// under way, bit 2 no one played it before) and the joined slots; refuse is a reason
// byte and a uvarint-prefixed message; data is one byte (the peer it is
// for, from a joiner; the peer it is from, from the host) and a message;
// ping and pong are the pinger's 8-byte clock reading (a host's ping adds
// a byte, bit i set when it hears peer i); bye is empty.
const (
	packetVersion = 1
	headerLen     = 10
	macLen        = 16
	maxPayload    = 1 + rollback.MaxMessage
	maxPacket     = headerLen + maxPayload + macLen
	noSlot        = 255
)

type kind byte

const (
	kindJoin kind = iota + 1
	kindAccept
	kindRefuse
	kindData
	kindPing
	kindPong
	kindBye
	kindReady // a joiner's platform is up: it waits for the go (Match.Ready)
	kindGo    // the host's go: how long to wait after it, in microseconds
	kindLast  = kindGo
)

// sealer writes and checks packets with one MAC state; each goroutine
// that sends or reads has its own.
type sealer struct {
	mac hash.Hash
	sum [32]byte
	buf []byte
}

func newSealer(key []byte) *sealer {
	return &sealer{mac: hmac.New(sha256.New, key), buf: make([]byte, 0, maxPacket)}
}

// begin starts a packet in s.buf; append the payload to the result and
// pass it to seal.
func (s *sealer) begin(k kind, from int, seq uint64) []byte {
	b := append(s.buf[:0], packetVersion<<4|byte(k), byte(from))
	return binio.AppendU64(b, seq)
}

// seal appends the MAC to a packet begun with begin.
func (s *sealer) seal(b []byte) []byte {
	s.mac.Reset()
	s.mac.Write(b)
	sum := s.mac.Sum(s.sum[:0])
	b = append(b, sum[:macLen]...)
	s.buf = b[:0]
	return b
}

type header struct {
	kind kind
	from int
	seq  uint64
}

// drop reasons of parse.
type reason int

const (
	okPacket reason = iota
	dropMalformed
	dropOversized
	dropAuth
)

// parse splits a packet into its header and payload, checking its shape,
// and reports whether its MAC is right (it checks the MAC in constant
// time). A packet of the right shape whose MAC is wrong is dropAuth, with
// the header still parsed, so that a join with a wrong token can be
// answered.
func (s *sealer) parse(p []byte) (h header, payload []byte, r reason) {
	if len(p) > maxPacket {
		return h, nil, dropOversized
	}
	if len(p) < headerLen+macLen || p[0]>>4 != packetVersion {
		return h, nil, dropMalformed
	}
	h.kind = kind(p[0] & 15)
	h.from = int(p[1])
	h.seq = binary.LittleEndian.Uint64(p[2:])
	if h.kind < kindJoin || h.kind > kindLast {
		return h, nil, dropMalformed
	}
	body := p[:len(p)-macLen]
	s.mac.Reset()
	s.mac.Write(body)
	sum := s.mac.Sum(s.sum[:0])
	payload = body[headerLen:]
	if !hmac.Equal(sum[:macLen], p[len(p)-macLen:]) {
		return h, payload, dropAuth
	}
	return h, payload, okPacket
}

// appendString is binio's, under the name match.go's refusals use.
func appendString(b []byte, s string) []byte { return binio.AppendString(b, s) }

// errPayload marks a payload that does not decode; parse's callers only
// count it, so its description goes no further.
var errPayload = errors.New("netplay: malformed payload")

// Join roles.
const (
	rolePlayer byte = iota
	roleSpectator
)

func appendJoin(b []byte, id rollback.Identity, slot int, role byte) []byte {
	b = binio.AppendString(b, id.Game)
	b = binio.AppendString(b, id.Version)
	b = binio.AppendU64(b, id.Config)
	b = append(b, byte(slot), role)
	// The settings that fit the budget, each cut to maxName bytes.
	n, size := 0, 0
	for _, s := range id.Settings {
		k, v := cut(s.Key), cut(s.Value)
		if n == maxSettings || size+4+len(k)+len(v) > settingsBudget {
			break
		}
		n, size = n+1, size+4+len(k)+len(v)
	}
	b = binio.AppendUvarint(b, uint64(n))
	for _, s := range id.Settings[:n] {
		b = binio.AppendString(b, cut(s.Key))
		b = binio.AppendString(b, cut(s.Value))
	}
	return b
}

// cut cuts s to maxName bytes.
func cut(s string) string { return s[:min(len(s), maxName)] }

func parseJoin(p []byte) (id rollback.Identity, slot int, role byte, ok bool) {
	r := binio.NewReader(p, errPayload)
	id.Game = r.String("game name length", maxName)
	id.Version = r.String("version length", maxName)
	id.Config = r.U64()
	slot = int(r.Byte())
	role = r.Byte()
	n := r.Length("settings count", maxSettings, 2)
	for range n {
		s := rollback.Setting{Key: r.String("setting key length", maxName), Value: r.String("setting value length", maxName)}
		if r.Err() != nil {
			return id, slot, role, false
		}
		id.Settings = append(id.Settings, s)
	}
	return id, slot, role, r.Err() == nil && r.Left() == 0 && role <= roleSpectator && (role == rolePlayer || slot == 0)
}

// Refusal reasons.
const (
	refuseToken byte = iota + 1
	refuseFull
	refuseGame
	refuseVersion
	refuseConfig
	refuseSlot
	refuseSpectators
	refuseLast = refuseSpectators
)

// maxRefusal bounds a refusal's message: room for a few differing
// settings, each with both values.
const maxRefusal = 900

func parseRefuse(p []byte) (why byte, msg string, ok bool) {
	r := binio.NewReader(p, errPayload)
	why = r.Byte()
	msg = r.String("refusal length", maxRefusal)
	return why, msg, r.Err() == nil && r.Left() == 0 && why >= refuseToken && why <= refuseLast
}
