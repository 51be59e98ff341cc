package lobby

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Limits of the protocol. A frame longer than MaxFrame closes the
// connection (status 1009); the fields are bounded so that a message that
// passes [DecodeRequest] or [DecodeEvent] is always small to store and relay.
const (
	// MaxFrame is the longest WebSocket message either side accepts.
	MaxFrame = 8 << 10
	// MaxData is the longest signalling payload (an SDP offer with its
	// candidates fits in a few KiB).
	MaxData = 6 << 10
	// MaxGame is the longest game identity.
	MaxGame = 128
	// MinPlayers and MaxPlayers bound a room's size.
	MinPlayers, MaxPlayers = 2, 8
	// idLen is the length of a client id and of a secret: 16 random bytes
	// in unpadded lower-case base32.
	idLen = 26
	// maxURLs and maxURL bound the TURN server addresses handed out.
	maxURLs, maxURL = 4, 256
	maxDetail       = 256
)

// The message types. A client sends the first group, the lobby the second;
// "signal" goes both ways.
const (
	TypeCreate  = "create"  // make a room: Game, Players
	TypeJoin    = "join"    // enter a room by code: Code, Game
	TypeReclaim = "reclaim" // a restarted host takes its room back: Code, Secret, Game
	TypeQuick   = "quick"   // wait for a room of Players with the same Game
	// TypeDedicated registers a dedicated host for Game's quick matches of
	// Players: it is handed the next room that fills, as seat 0, and the
	// room holds Players+1 seats.
	TypeDedicated = "dedicated"
	TypeLeave     = "leave"  // leave the queue and the room
	TypeResume    = "resume" // a reconnecting client: Client, Secret
	TypeSignal    = "signal" // an opaque payload to a peer of the room: Peer, Data

	TypeWelcome = "welcome" // the client's id and resume secret, TURN credentials
	TypeRoom    = "room"    // the client is in a room: Code, Seat, Peers, Players (Secret for its host)
	TypeWaiting = "waiting" // the client is queued for a quick match
	TypePeer    = "peer"    // a peer entered the room or took a seat back: Peer, Seat
	TypeError   = "error"   // a request was refused: Reason, Detail
)

// Reason says why a request was refused, in words a game can show.
type Reason string

// The reasons a lobby gives.
const (
	ReasonBadMessage  Reason = "bad-message"  // the request does not parse or breaks a limit
	ReasonRoomUnknown Reason = "room-unknown" // no room has that code, or it expired
	ReasonRoomFull    Reason = "room-full"    // every seat is taken
	ReasonOtherGame   Reason = "other-game"   // the room is for another game or configuration
	ReasonRateLimited Reason = "rate-limited" // too many guesses or rooms from this address
	ReasonNotInRoom   Reason = "not-in-room"  // a signal from a client in no room, or to a stranger
	ReasonForbidden   Reason = "forbidden"    // a wrong room or resume secret
	ReasonBusy        Reason = "busy"         // the lobby is at its client limit
	ReasonUnavailable Reason = "unavailable"  // the lobby's state store did not answer
)

// Message is one protocol message, sent as one WebSocket text frame of
// JSON. Type says which fields mean something; the others are empty.
type Message struct {
	Type    string   `json:"type"`
	Game    string   `json:"game,omitempty"`    // the game's identity: only equal ones meet
	Players int      `json:"players,omitempty"` // a room's seats
	Code    string   `json:"code,omitempty"`    // a room's code, "KXR-4TQ"
	Secret  string   `json:"secret,omitempty"`  // the room's host secret (room), or the client's resume secret
	Client  string   `json:"client,omitempty"`  // the client's id (welcome, resume)
	Peer    string   `json:"peer,omitempty"`    // signal: to (from a client) or from (to a client); peer: who
	Seat    int      `json:"seat,omitempty"`    // 0 is the room's host
	Peers   []string `json:"peers,omitempty"`   // the room's clients by seat; "" for a free seat
	Data    string   `json:"data,omitempty"`    // the opaque signalling payload
	TURN    *TURN    `json:"turn,omitempty"`    // welcome: credentials for the relay
	Reason  Reason   `json:"reason,omitempty"`
	Detail  string   `json:"detail,omitempty"`
}

// TURN is what a peer needs to allocate a relay on a coturn server run with
// use-auth-secret: a username that carries its expiry and a password the
// lobby derived from the shared secret. The secret itself never leaves the
// lobby.
type TURN struct {
	URLs     []string `json:"urls"`
	Username string   `json:"username"`
	Password string   `json:"password"`
	Expires  int64    `json:"expires"` // Unix seconds, as in Username
}

// ErrMessage is wrapped by every decoding error.
var ErrMessage = errors.New("lobby: bad message")

// DecodeRequest parses and checks a message a client sent. It refuses,
// naming what is wrong, a frame over [MaxFrame], anything but one JSON
// object with known fields, a type a client may not send, and a field out
// of its range. It never panics, whatever b holds.
func DecodeRequest(b []byte) (Message, error) {
	return decode(b, true)
}

// DecodeEvent parses and checks a message the lobby sent, as [DecodeRequest]
// does for a client's.
func DecodeEvent(b []byte) (Message, error) {
	return decode(b, false)
}

func decode(b []byte, request bool) (Message, error) {
	var m Message
	if len(b) > MaxFrame {
		return m, fmt.Errorf("%w: %d bytes, at most %d allowed", ErrMessage, len(b), MaxFrame)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&m); err != nil {
		return Message{}, fmt.Errorf("%w: %v", ErrMessage, err)
	}
	if d.More() {
		return Message{}, fmt.Errorf("%w: more than one JSON value in a frame", ErrMessage)
	}
	if err := m.check(request); err != nil {
		return Message{}, fmt.Errorf("%w: %s: %v", ErrMessage, m.Type, err)
	}
	return m, nil
}

// Encode returns m as a frame. It checks nothing: the lobby and the client
// only encode messages they built.
func (m Message) Encode() []byte {
	b, err := json.Marshal(m)
	if err != nil {
		// Every field is a string, an int or a slice of strings.
		panic("lobby: encoding a message: " + err.Error())
	}
	return b
}

// fields lists, per type and direction, the fields a message may carry.
var fields = map[string]struct {
	request bool
	allowed string
}{
	TypeCreate:    {true, "game players"},
	TypeJoin:      {true, "game code"},
	TypeReclaim:   {true, "game code secret"},
	TypeQuick:     {true, "game players"},
	TypeDedicated: {true, "game players"},
	TypeLeave:     {true, ""},
	TypeResume:    {true, "client secret"},
	TypeWelcome:   {false, "client secret turn"},
	TypeRoom:      {false, "game code secret seat peers players"},
	TypeWaiting:   {false, "game players"},
	TypePeer:      {false, "peer seat"},
	TypeError:     {false, "reason detail code"},
}

func (m *Message) check(request bool) error {
	var errs []error
	f, ok := fields[m.Type]
	switch {
	case m.Type == TypeSignal:
		f.allowed = "peer data"
	case !ok:
		return fmt.Errorf("unknown type %q: allowed are create, join, reclaim, quick, dedicated, leave, resume, signal, welcome, room, waiting, peer, error", trim(m.Type))
	case f.request != request && request:
		return fmt.Errorf("type %q is the lobby's to send, not a client's", m.Type)
	case f.request != request:
		return fmt.Errorf("type %q is a client's to send, not the lobby's", m.Type)
	}
	has := func(name string) bool { return strings.Contains(" "+f.allowed+" ", " "+name+" ") }
	extra := func(name string, set bool) {
		if set && !has(name) {
			errs = append(errs, fmt.Errorf("field %s does not belong in a %s message", name, m.Type))
		}
	}
	extra("game", m.Game != "")
	extra("players", m.Players != 0)
	extra("code", m.Code != "")
	extra("secret", m.Secret != "")
	extra("client", m.Client != "")
	extra("peer", m.Peer != "")
	extra("seat", m.Seat != 0)
	extra("peers", m.Peers != nil)
	extra("data", m.Data != "")
	extra("turn", m.TURN != nil)
	extra("reason", m.Reason != "")
	extra("detail", m.Detail != "")

	need := func(name string, set bool) {
		if !set && has(name) && request {
			errs = append(errs, fmt.Errorf("field %s is missing", name))
		}
	}
	need("game", m.Game != "")
	need("players", m.Players != 0)
	need("code", m.Code != "")
	need("secret", m.Secret != "")
	need("client", m.Client != "")
	need("peer", m.Peer != "")
	need("data", m.Data != "")

	if m.Game != "" {
		if err := checkGame(m.Game); err != nil {
			errs = append(errs, err)
		}
	}
	if m.Players != 0 && (m.Players < MinPlayers || m.Players > MaxPlayers) {
		errs = append(errs, fmt.Errorf("players %d is out of range: %d to %d allowed", m.Players, MinPlayers, MaxPlayers))
	}
	if m.Type == TypeDedicated && m.Players >= MaxPlayers {
		errs = append(errs, fmt.Errorf("players %d is out of range for a dedicated host, whose room holds one seat more: %d to %d allowed", m.Players, MinPlayers, MaxPlayers-1))
	}
	if m.Code != "" {
		if _, err := ParseCode(m.Code); err != nil {
			errs = append(errs, err)
		}
	}
	if m.Secret != "" && !isID(m.Secret) {
		errs = append(errs, fmt.Errorf("secret must be %d characters of a-z and 2-7", idLen))
	}
	if m.Client != "" && !isID(m.Client) {
		errs = append(errs, fmt.Errorf("client must be %d characters of a-z and 2-7", idLen))
	}
	if m.Peer != "" && !isID(m.Peer) {
		errs = append(errs, fmt.Errorf("peer must be %d characters of a-z and 2-7", idLen))
	}
	if m.Seat < 0 || m.Seat >= MaxPlayers {
		errs = append(errs, fmt.Errorf("seat %d is out of range: 0 to %d allowed", m.Seat, MaxPlayers-1))
	}
	if len(m.Peers) > MaxPlayers {
		errs = append(errs, fmt.Errorf("%d peers: at most %d allowed", len(m.Peers), MaxPlayers))
	}
	for _, p := range m.Peers {
		if p != "" && !isID(p) {
			errs = append(errs, fmt.Errorf("peers: an entry must be empty or %d characters of a-z and 2-7", idLen))
			break
		}
	}
	if len(m.Data) > MaxData {
		errs = append(errs, fmt.Errorf("data is %d bytes: at most %d allowed", len(m.Data), MaxData))
	}
	if t := m.TURN; t != nil {
		if len(t.URLs) > maxURLs {
			errs = append(errs, fmt.Errorf("turn: %d urls, at most %d allowed", len(t.URLs), maxURLs))
		}
		for _, u := range t.URLs {
			if len(u) > maxURL {
				errs = append(errs, fmt.Errorf("turn: a url of %d bytes, at most %d allowed", len(u), maxURL))
				break
			}
		}
		if len(t.Username) > maxURL || len(t.Password) > maxURL {
			errs = append(errs, fmt.Errorf("turn: username and password are at most %d bytes", maxURL))
		}
	}
	if len(m.Reason) > 32 || len(m.Detail) > maxDetail {
		errs = append(errs, fmt.Errorf("reason is at most 32 bytes and detail at most %d", maxDetail))
	}
	return errors.Join(errs...)
}

// checkGame accepts 1 to MaxGame printable ASCII characters: a game sends
// its identity in hex or as a name with its configuration.
func checkGame(g string) error {
	if len(g) > MaxGame {
		return fmt.Errorf("game is %d bytes: 1 to %d printable ASCII characters allowed", len(g), MaxGame)
	}
	for i := 0; i < len(g); i++ {
		if g[i] < 0x20 || g[i] > 0x7e {
			return fmt.Errorf("game has byte 0x%02x at %d: printable ASCII allowed", g[i], i)
		}
	}
	return nil
}

func isID(s string) bool {
	if len(s) != idLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '2' <= c && c <= '7') {
			return false
		}
	}
	return true
}

// trim shortens what is quoted back in an error.
func trim(s string) string {
	if len(s) > 32 {
		return s[:32] + "..."
	}
	return s
}
