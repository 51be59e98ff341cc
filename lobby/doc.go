// Package lobby is how players of a Metronome game meet: by a room code
// read aloud, or by a quick-match button. This package holds the protocol
// and a [Client] (native, and js/wasm in a page); package lobby/server is
// the lobby itself, and cmd/lobby runs it.
//
//	c, err := lobby.Dial(ctx, "ws://127.0.0.1:7000")
//	room, err := c.Create(ctx, gameID, 2) // show room.Code: "KXR-4TQ"
//	for {
//		m, err := c.Next(ctx) // a peer arriving, its signals
//		...
//		c.Signal(ctx, m.Peer, offer)
//	}
//
// # The protocol
//
// A game connects over WebSocket and exchanges [Message] values, one JSON
// object per text frame of at most [MaxFrame] bytes. The lobby first sends
// a welcome: the client's id, a secret that resumes the client on a new
// connection (to any instance of the lobby), and TURN credentials. The
// client then sends create, join, quick, dedicated, reclaim, resume,
// leave or signal (dedicated registers a dedicated host, which the lobby
// hands the next quick-match room of its game and player count to fill,
// as seat 0 of one seat more);
// the lobby answers with room (the client has a seat), waiting (queued),
// peer (another client took or left a seat), signal (a peer's payload) or
// error (a [Reason] and a sentence saying why). [DecodeRequest] and
// [DecodeEvent] check every field against its bound, so a message that
// decodes is small and well formed.
//
// The lobby relays signal payloads between the clients of one room and
// reads nothing in them: offers, answers and ICE candidates of the
// transport. No game traffic passes through it.
//
// # Games, rooms and codes
//
// The game field is the game's identity (its code and configuration, up to
// [MaxGame] printable characters): a room refuses a client of another game
// and quick match only pairs equal ones. A room has 2 to 8 seats; seat 0
// is its host, who gets a secret with the room and can take seat 0 back
// with it after a restart (reclaim).
//
// A code is six symbols of Crockford's base32, [CodeSpace] = 2^30 codes.
// With the lobby's defaults (a room lives an hour; an address gets 10
// wrong codes at once and then one every 6 s, 610 in that hour) one
// address finds a given room with probability 610/2^30 = 5.7e-7 over the
// room's life, and any of 10,000 live rooms with 5.7e-3. A code admits to
// a room's signalling only: the game's own handshake still decides who
// plays.
//
// # TURN
//
// [Credentials] signs coturn's time-limited credentials (use-auth-secret):
// the username is "expiry:client" and the password an HMAC of it keyed by
// the secret the lobby shares with coturn. The lobby hands every client
// its own in the welcome; the secret never leaves the lobby.
package lobby
