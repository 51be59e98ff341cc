package lobby

import (
	"context"
	"fmt"

	"github.com/coder/websocket"
)

// Client is a game's connection to a lobby, over coder/websocket natively
// and the browser's WebSocket under js/wasm. It starts no goroutine: a
// request is written by the caller's goroutine and every event is read by
// [Client.Next], which one goroutine calls in a loop. Reading is also what
// answers the lobby's pings, so a client that stops calling Next for
// longer than the lobby's ping interval is dropped.
type Client struct {
	ws      *websocket.Conn
	welcome Message
	// early holds the events read ahead of a resume's welcome, for Next.
	early []Message
}

// RefusedError is a request the lobby refused, as its error event said.
type RefusedError struct {
	Reason Reason
	Detail string
	Code   string // the room the request named, when it named one
}

func (e *RefusedError) Error() string {
	return "lobby: refused (" + string(e.Reason) + "): " + e.Detail
}

// Dial connects to a lobby at url ("ws://host:port" or "wss://...") and
// reads its welcome.
func Dial(ctx context.Context, url string) (*Client, error) {
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, fmt.Errorf("lobby: unreachable at %s: %w", url, err)
	}
	ws.SetReadLimit(MaxFrame)
	c := &Client{ws: ws}
	m, err := c.read(ctx)
	if err == nil && m.Type != TypeWelcome {
		err = fmt.Errorf("lobby: the first message was %q, not a welcome", m.Type)
	}
	if err != nil {
		ws.CloseNow()
		return nil, err
	}
	c.welcome = m
	return c, nil
}

// Welcome returns the lobby's welcome: the client's id (Client), the secret
// that resumes it on a new connection (Secret) and TURN credentials (TURN,
// nil when the lobby has no relay). After [Client.Resume] it is the
// resumed client's.
func (c *Client) Welcome() Message { return c.welcome }

// Send writes one request. It checks the message as the lobby would, so a
// malformed request fails here with the reason.
func (c *Client) Send(ctx context.Context, m Message) error {
	b := m.Encode()
	if _, err := DecodeRequest(b); err != nil {
		return err
	}
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// Next reads the next event. An error event is returned as the message
// and a *[RefusedError]; the connection stays usable.
func (c *Client) Next(ctx context.Context) (Message, error) {
	if len(c.early) > 0 {
		m := c.early[0]
		c.early = c.early[1:]
		return m, nil
	}
	return c.read(ctx)
}

// read reads the next event from the connection.
func (c *Client) read(ctx context.Context) (Message, error) {
	typ, b, err := c.ws.Read(ctx)
	if err != nil {
		return Message{}, fmt.Errorf("lobby: connection: %w", err)
	}
	if typ != websocket.MessageText {
		return Message{}, fmt.Errorf("%w: a binary frame from the lobby", ErrMessage)
	}
	m, err := DecodeEvent(b)
	if err != nil {
		return Message{}, err
	}
	switch m.Type {
	case TypeError:
		return m, &RefusedError{Reason: m.Reason, Detail: m.Detail, Code: m.Code}
	case TypeWelcome:
		c.welcome = m
	}
	return m, nil
}

// Create asks for a room of players seats for game and returns the room
// event: Code to show the players, Secret to reclaim the room after a
// restart.
func (c *Client) Create(ctx context.Context, game string, players int) (Message, error) {
	return c.request(ctx, Message{Type: TypeCreate, Game: game, Players: players}, TypeRoom)
}

// Join enters the room with code and returns the room event (Seat, Peers).
func (c *Client) Join(ctx context.Context, code, game string) (Message, error) {
	return c.request(ctx, Message{Type: TypeJoin, Code: code, Game: game}, TypeRoom)
}

// Reclaim takes seat 0 of the room back with the secret Create returned.
func (c *Client) Reclaim(ctx context.Context, code, secret, game string) (Message, error) {
	return c.request(ctx, Message{Type: TypeReclaim, Code: code, Secret: secret, Game: game}, TypeRoom)
}

// Quick enters the quick-match queue of game for rooms of players. The
// lobby answers with a waiting event, then a room event once paired (or
// the room event at once); read them with [Client.Next].
func (c *Client) Quick(ctx context.Context, game string, players int) error {
	return c.Send(ctx, Message{Type: TypeQuick, Game: game, Players: players})
}

// Dedicated registers this client as a dedicated host for game's quick
// matches of players: the lobby answers with a waiting event, then a room
// event of players+1 seats once a quick match fills, this client at seat
// 0 (the room's host, with its secret); read them with [Client.Next].
func (c *Client) Dedicated(ctx context.Context, game string, players int) error {
	return c.Send(ctx, Message{Type: TypeDedicated, Game: game, Players: players})
}

// Resume takes over the client id and secret of an earlier connection's
// welcome, with its room or its place in the queue. The lobby answers with
// a welcome (read by Resume) and then a room or waiting event, if any.
// An event that comes ahead of the welcome is the resumed client's too
// (an older lobby sent a room event and signals that reached it during
// the resume so): Next returns it first.
func (c *Client) Resume(ctx context.Context, id, secret string) error {
	if err := c.Send(ctx, Message{Type: TypeResume, Client: id, Secret: secret}); err != nil {
		return err
	}
	for {
		m, err := c.read(ctx)
		if err != nil || m.Type == TypeWelcome {
			return err
		}
		c.early = append(c.early, m)
	}
}

// Signal sends an opaque payload (an offer, answer or candidate) to a peer
// of the client's room.
func (c *Client) Signal(ctx context.Context, peer, data string) error {
	return c.Send(ctx, Message{Type: TypeSignal, Peer: peer, Data: data})
}

// Close leaves the lobby with a normal close.
func (c *Client) Close() error {
	return c.ws.Close(websocket.StatusNormalClosure, "")
}

func (c *Client) request(ctx context.Context, m Message, want string) (Message, error) {
	if err := c.Send(ctx, m); err != nil {
		return Message{}, err
	}
	return c.next(ctx, want)
}

// next reads until an event of type want or an error; the events in
// between (a peer arriving, a signal) are the caller's to miss only while
// it waits on its own request.
func (c *Client) next(ctx context.Context, want string) (Message, error) {
	for {
		m, err := c.read(ctx)
		if err != nil || m.Type == want {
			return m, err
		}
	}
}
