package lobbynet

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/metronome-go/metronome/lobby"
	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
)

// Options says which lobby to meet in and how.
type Options struct {
	// Lobby is the lobby's URL, "ws://host:port" or "wss://...".
	Lobby string
	// Game is the game's identity: only equal ones share a room.
	Game string
	// Exactly one of Create, Room and Quick: make a room of Players
	// seats, enter the room of code Room, or wait in quick match for a
	// room of Quick players.
	Create  bool
	Players int
	Room    string
	Quick   int
	// Dedicated, instead of those, waits as a dedicated host for a quick
	// match of Players: the lobby hands it the next such room to fill,
	// which holds Players+1 seats, this end's seat 0.
	Dedicated bool
	// Config is the ICE settings; the lobby's TURN credentials are added
	// to its TURN list.
	Config webrtc.Config
	// Status receives each line a player should see; nil drops them.
	Status func(line string)
}

// Reason says why meeting failed, in words a game can show.
type Reason string

// The reasons of an *[Error].
const (
	ReasonRoomUnknown Reason = "room unknown or expired"
	ReasonRoomFull    Reason = "room full"
	ReasonOtherGame   Reason = "the room is for another game or configuration"
	ReasonUnreachable Reason = "lobby unreachable"
	ReasonNoPath      Reason = "no path to a peer, even through the relay"
	ReasonRefused     Reason = "refused by the lobby"
	ReasonBadOptions  Reason = "bad options"
)

// Error is a meeting that failed, with its reason and the detail behind it.
type Error struct {
	Reason Reason
	Err    error
}

func (e *Error) Error() string { return "lobbynet: " + string(e.Reason) + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Match is an end that met its peers: a [webrtc.RoomEnd] whose Conduit
// has a data channel to every other seat.
type Match struct {
	*webrtc.RoomEnd
	// Code is the room's code; Seat this end's seat (0 holds the room).
	Code string
	Seat int
	// Peers are the other seats' addresses in the Conduit, by seat; this
	// end's own entry is the zero AddrPort.
	Peers []netip.AddrPort
	// Relayed says, by seat, whether the path to the peer runs through
	// a TURN relay.
	Relayed []bool

	client *lobby.Client
	ids    []string // the seats' lobby clients, by seat
}

// Close leaves the lobby and closes the conduit.
func (m *Match) Close() error {
	return errors.Join(m.client.Close(), m.RoomEnd.Close())
}

func (o Options) check() error {
	n := 0
	for _, b := range []bool{o.Create, o.Room != "", o.Quick != 0, o.Dedicated} {
		if b {
			n++
		}
	}
	var errs []error
	if n != 1 {
		errs = append(errs, fmt.Errorf("give exactly one of Create, Room, Quick and Dedicated (got %d)", n))
	}
	if o.Dedicated && (o.Players < lobby.MinPlayers || o.Players > lobby.MaxPlayers-1) {
		errs = append(errs, fmt.Errorf("Players %d: a dedicated host serves %d to %d (its room holds one seat more)", o.Players, lobby.MinPlayers, lobby.MaxPlayers-1))
	}
	if o.Lobby == "" {
		errs = append(errs, errors.New("Lobby is empty: give the lobby's ws:// or wss:// URL"))
	} else if !strings.HasPrefix(o.Lobby, "ws://") && !strings.HasPrefix(o.Lobby, "wss://") {
		errs = append(errs, fmt.Errorf("Lobby %q is not a ws:// or wss:// URL", o.Lobby))
	}
	if o.Create && (o.Players < lobby.MinPlayers || o.Players > lobby.MaxPlayers) {
		errs = append(errs, fmt.Errorf("Players %d: %d to %d allowed", o.Players, lobby.MinPlayers, lobby.MaxPlayers))
	}
	if o.Quick != 0 && (o.Quick < lobby.MinPlayers || o.Quick > lobby.MaxPlayers) {
		errs = append(errs, fmt.Errorf("Quick %d: %d to %d players allowed", o.Quick, lobby.MinPlayers, lobby.MaxPlayers))
	}
	if o.Room != "" {
		if _, err := lobby.ParseCode(o.Room); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Meet connects to the lobby, takes a seat as o says, waits until every
// seat is taken and connects to every peer. It reports each step through
// o.Status and fails with an *[Error].
func Meet(ctx context.Context, o Options) (*Match, error) {
	status := o.Status
	if status == nil {
		status = func(string) {}
	}
	if err := o.check(); err != nil {
		return nil, &Error{ReasonBadOptions, err}
	}
	c, err := lobby.Dial(ctx, o.Lobby)
	if err != nil {
		return nil, &Error{ReasonUnreachable, err}
	}
	m, r, err := meet(ctx, c, o, status)
	if err != nil {
		c.Close()
		return nil, err
	}
	r.stop()
	return m, nil
}

// meet takes a seat through c and connects to every peer. It returns the
// router still reading c, for a caller that has more to hear from the
// room's peers (a netplay match's token, netplay.go); the caller stops it.
func meet(ctx context.Context, c *lobby.Client, o Options, status func(string)) (*Match, *router, error) {
	cfg := o.Config
	if t := c.Welcome().TURN; t != nil {
		for _, u := range t.URLs {
			cfg.TURN = append(cfg.TURN, webrtc.TURN{URL: u, Username: t.Username, Credential: t.Password})
		}
	}
	var room lobby.Message
	var err error
	switch {
	case o.Create:
		room, err = c.Create(ctx, o.Game, o.Players)
		if err == nil {
			status("room " + room.Code + ": give this code to the other players")
		}
	case o.Room != "":
		room, err = c.Join(ctx, o.Room, o.Game)
	case o.Dedicated:
		if err = c.Dedicated(ctx, o.Game, o.Players); err == nil {
			status(fmt.Sprintf("dedicated host: waiting for a quick match of %d players of this game", o.Players))
			for err == nil && room.Type != lobby.TypeRoom {
				room, err = c.Next(ctx)
			}
		}
	default:
		if err = c.Quick(ctx, o.Game, o.Quick); err == nil {
			status("quick match: waiting for " + strconv.Itoa(o.Quick-1) + " more players of this game")
			for err == nil && room.Type != lobby.TypeRoom {
				room, err = c.Next(ctx)
			}
		}
	}
	if err != nil {
		return nil, nil, lobbyErr(err)
	}
	seats := append([]string(nil), room.Peers...)
	for len(seats) < room.Players {
		seats = append(seats, "")
	}
	r := newRouter(c)
	ok := false
	defer func() {
		if !ok {
			r.stop()
		}
	}()
	for !full(seats) {
		status(fmt.Sprintf("room %s: %d of %d seats taken, waiting", room.Code, taken(seats), len(seats)))
		p, err := r.peer(ctx)
		if err != nil {
			return nil, nil, lobbyErr(err)
		}
		if p.Seat < len(seats) {
			seats[p.Seat] = p.Peer
		}
	}
	status(fmt.Sprintf("room %s: found %d players, connecting", room.Code, len(seats)))
	end, err := webrtc.NewRoomEnd(cfg)
	if err != nil {
		return nil, nil, &Error{ReasonBadOptions, err}
	}
	mt := &Match{RoomEnd: end, Code: room.Code, Seat: room.Seat, Peers: make([]netip.AddrPort, len(seats)), Relayed: make([]bool, len(seats)), client: c, ids: seats}
	var wg sync.WaitGroup
	errs := make([]error, len(seats))
	for s, id := range seats {
		if s == room.Seat {
			continue
		}
		mt.Peers[s] = webrtc.SeatAddr(s)
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[s] = end.Connect(ctx, mt.Peers[s], r.signals(id), room.Seat < s)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		end.Close()
		return nil, nil, &Error{ReasonNoPath, err}
	}
	for s := range seats {
		if s == room.Seat {
			continue
		}
		pp, err := end.Path(mt.Peers[s])
		if err != nil {
			status(fmt.Sprintf("room %s: connected to seat %d", room.Code, s))
			continue
		}
		mt.Relayed[s] = pp.Relayed
		how := "direct"
		if pp.Relayed {
			how = "relayed"
		}
		status(fmt.Sprintf("room %s: connected to seat %d (%s, round trip %v)", room.Code, s, how, pp.RTT.Round(100*time.Microsecond)))
	}
	ok = true
	return mt, r, nil
}

func full(seats []string) bool { return taken(seats) == len(seats) }

func taken(seats []string) int {
	n := 0
	for _, s := range seats {
		if s != "" {
			n++
		}
	}
	return n
}

// lobbyErr names a lobby's refusal as a player reads it.
func lobbyErr(err error) error {
	var r *lobby.RefusedError
	if errors.As(err, &r) {
		switch r.Reason {
		case lobby.ReasonRoomUnknown:
			return &Error{ReasonRoomUnknown, err}
		case lobby.ReasonRoomFull:
			return &Error{ReasonRoomFull, err}
		case lobby.ReasonOtherGame:
			return &Error{ReasonOtherGame, err}
		}
		return &Error{ReasonRefused, err}
	}
	if errors.Is(err, lobby.ErrMessage) {
		return &Error{ReasonRefused, err}
	}
	return &Error{ReasonUnreachable, err}
}

// router is the one reader of a lobby client while the ends connect: it
// hands peer events to Meet and each peer's signals to that peer's
// handshake. A peer's signals may come before Meet knows of the peer, so
// each peer's queue is made on first use.
type router struct {
	c      *lobby.Client
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	peers  chan lobby.Message
	tokens chan lobby.Message // seat 0's netplay token (netplay.go)
	errc   chan error

	mu  sync.Mutex
	sig map[string]chan string
}

// maxQueued bounds the signals waiting for one peer's handshake: an
// offer or answer and the candidates, at most webrtc.MaxCandidates.
const maxQueued = webrtc.MaxCandidates + 4

func newRouter(c *lobby.Client) *router {
	r := &router{c: c, done: make(chan struct{}), peers: make(chan lobby.Message, lobby.MaxPlayers), tokens: make(chan lobby.Message, lobby.MaxPlayers), errc: make(chan error, 1), sig: map[string]chan string{}}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	go r.read()
	return r
}

func (r *router) read() {
	defer close(r.done)
	for {
		m, err := r.c.Next(r.ctx)
		if err != nil {
			if r.ctx.Err() == nil {
				r.errc <- err
			}
			return
		}
		switch m.Type {
		case lobby.TypePeer:
			select {
			case r.peers <- m:
			default: // more arrivals than seats: the room event counts
			}
		case lobby.TypeSignal:
			if strings.HasPrefix(m.Data, tokenPrefix) {
				select {
				case r.tokens <- m:
				default: // one token is all a seat needs
				}
				continue
			}
			select {
			case r.queue(m.Peer) <- m.Data:
			default: // past a handshake's bound: it fails on its own
			}
		}
	}
}

func (r *router) queue(peer string) chan string {
	r.mu.Lock()
	defer r.mu.Unlock()
	q := r.sig[peer]
	if q == nil {
		q = make(chan string, maxQueued)
		r.sig[peer] = q
	}
	return q
}

func (r *router) peer(ctx context.Context) (lobby.Message, error) {
	select {
	case m := <-r.peers:
		return m, nil
	case err := <-r.errc:
		r.errc <- err
		return lobby.Message{}, err
	case <-ctx.Done():
		return lobby.Message{}, ctx.Err()
	}
}

// stop ends the reader. Reading with a cancelled context closes
// coder/websocket's connection, so the lobby sees this end leave; a
// match does not need the lobby once connected.
func (r *router) stop() {
	r.cancel()
	<-r.done
}

func (r *router) signals(peer string) webrtc.Signals { return signals{r, peer} }

type signals struct {
	r    *router
	peer string
}

func (s signals) Send(ctx context.Context, data string) error { return s.r.c.Signal(ctx, s.peer, data) }

func (s signals) Recv(ctx context.Context) (string, error) {
	select {
	case d := <-s.r.queue(s.peer):
		return d, nil
	case err := <-s.r.errc:
		s.r.errc <- err
		return "", err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
