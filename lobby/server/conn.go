package server

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/metronome-go/metronome/lobby"
)

// storeTimeout bounds one request's work against NATS.
const storeTimeout = 5 * time.Second

// maxBad is how many refused messages in a row close a connection.
const maxBad = 3

// conn is one client's connection. Its reader goroutine owns id, secret,
// and sub; room and queue are also set from NATS deliveries, so
// they sit behind mu.
type conn struct {
	s    *Server
	ws   *websocket.Conn
	addr string
	out  chan []byte
	done chan struct{}

	once        sync.Once
	closeCode   websocket.StatusCode // 0: drop without a close handshake
	closeReason string

	id, secret string
	sub        *nats.Subscription

	// evmu orders a quick match's waiting event before a room event that
	// another instance publishes meanwhile.
	evmu sync.Mutex

	mu       sync.Mutex
	room     string
	queue    string
	game     string // what the client queued for
	players  int
	queuedAt time.Time
}

func (c *conn) serve(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.id, c.secret = lobby.NewID(), lobby.NewID()
	var wg sync.WaitGroup
	wg.Go(c.write)
	if err := c.subscribe(); err != nil {
		c.s.o.Log.Warn("lobby: subscribing a client", "err", err)
		c.stop(websocket.StatusTryAgainLater, "lobby: the state store did not answer")
	} else {
		c.welcome()
		wg.Go(func() { c.ping(ctx) })
		c.read(ctx)
		c.stop(0, "")
	}
	cancel()
	wg.Wait()
	c.cleanup()
}

// stop ends the connection once: with a close frame of code, or at once
// when code is 0.
func (c *conn) stop(code websocket.StatusCode, reason string) {
	c.once.Do(func() {
		c.closeCode, c.closeReason = code, reason
		close(c.done)
	})
}

// send queues a frame for the writer. A client that lets 32 frames pile up
// is too slow to be a game and is dropped.
func (c *conn) send(b []byte) {
	select {
	case <-c.done:
	case c.out <- b:
	default:
		c.stop(websocket.StatusPolicyViolation, "lobby: too slow: events backed up")
	}
}

func (c *conn) event(m lobby.Message) { c.send(m.Encode()) }

func (c *conn) refuse(r lobby.Reason, format string, args ...any) {
	d := fmt.Sprintf(format, args...)
	if len(d) > 250 {
		d = d[:250]
	}
	c.event(lobby.Message{Type: lobby.TypeError, Reason: r, Detail: d})
}

func (c *conn) write() {
	for {
		select {
		case b := <-c.out:
			// Not the connection's context: the reader ends that when it
			// stops, and a write it cancels drops the connection before
			// the refusal and close frame that say why.
			wctx, cancel := context.WithTimeout(context.Background(), c.s.o.PingEvery)
			err := c.ws.Write(wctx, websocket.MessageText, b)
			cancel()
			if err != nil {
				c.stop(0, "")
			}
		case <-c.done:
			if c.closeCode == 0 {
				c.ws.CloseNow()
				return
			}
			// A graceful close first sends what was queued, such as the
			// refusal that explains it.
			for flushing := true; flushing; {
				select {
				case b := <-c.out:
					wctx, cancel := context.WithTimeout(context.Background(), c.s.o.PingEvery)
					flushing = c.ws.Write(wctx, websocket.MessageText, b) == nil
					cancel()
				default:
					flushing = false
				}
			}
			c.ws.Close(c.closeCode, c.closeReason)
			return
		}
	}
}

// ping drops a client that does not answer a ping before the next one is
// due, and keeps a waiting client's queue entry fresh.
func (c *conn) ping(ctx context.Context) {
	t := time.NewTicker(c.s.o.PingEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, c.s.o.PingEvery)
			err := c.ws.Ping(pctx)
			cancel()
			if err != nil {
				c.stop(0, "") // it would not read a close frame either
				return
			}
			c.refreshQueue(ctx)
		case <-c.done:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (c *conn) read(ctx context.Context) {
	bad := 0
	for {
		typ, b, err := c.ws.Read(ctx)
		if err != nil {
			return // closed, too large (1009 sent), or a broken frame
		}
		var m lobby.Message
		if typ != websocket.MessageText {
			err = errors.New("a binary frame: the protocol is JSON in text frames")
		} else {
			m, err = lobby.DecodeRequest(b)
		}
		if err != nil {
			bad++
			c.refuse(lobby.ReasonBadMessage, "%v", err)
			if bad >= maxBad {
				c.stop(websocket.StatusPolicyViolation, "lobby: three bad messages in a row")
				return
			}
			continue
		}
		bad = 0
		sctx, cancel := context.WithTimeout(ctx, storeTimeout)
		c.handle(sctx, m)
		cancel()
	}
}

func (c *conn) handle(ctx context.Context, m lobby.Message) {
	var err error
	switch m.Type {
	case lobby.TypeCreate:
		err = c.create(ctx, m)
	case lobby.TypeJoin:
		err = c.join(ctx, m)
	case lobby.TypeReclaim:
		err = c.reclaim(ctx, m)
	case lobby.TypeQuick:
		err = c.quick(ctx, m.Game, m.Players)
	case lobby.TypeDedicated:
		err = c.dedicated(ctx, m.Game, m.Players)
	case lobby.TypeLeave:
		err = c.leave(ctx)
	case lobby.TypeResume:
		err = c.resume(ctx, m)
	case lobby.TypeSignal:
		err = c.signal(ctx, m)
	}
	var r refusal
	switch {
	case err == nil:
	case errors.As(err, &r):
		c.event(lobby.Message{Type: lobby.TypeError, Reason: r.reason, Detail: r.detail, Code: r.code})
	default:
		c.s.o.Log.Warn("lobby: the state store failed", "request", m.Type, "err", err)
		c.refuse(lobby.ReasonUnavailable, "lobby: the state store did not answer; try again")
	}
}

// refusal is a request refused for a reason the client is told.
type refusal struct {
	reason lobby.Reason
	detail string
	code   string
}

func (r refusal) Error() string { return string(r.reason) + ": " + r.detail }

func refuse(r lobby.Reason, code, format string, args ...any) error {
	return refusal{r, fmt.Sprintf(format, args...), code}
}

func (c *conn) subscribe() error {
	sub, err := c.s.o.NATS.Subscribe(subjectClient+c.id, func(m *nats.Msg) { c.deliver(m.Data) })
	if err != nil {
		return err
	}
	// Wait until the servers know of the subscription, so that an event
	// published after a resume reaches this instance.
	if err := c.s.o.NATS.FlushTimeout(storeTimeout); err != nil {
		sub.Unsubscribe()
		return err
	}
	c.sub = sub
	return nil
}

// deliver forwards an event another instance (or this one) published for
// the client, noting a room it was placed in.
func (c *conn) deliver(b []byte) {
	m, err := lobby.DecodeEvent(b)
	if err != nil {
		c.s.o.Log.Warn("lobby: a malformed event on NATS", "err", err)
		return
	}
	c.evmu.Lock()
	defer c.evmu.Unlock()
	if m.Type == lobby.TypeRoom {
		c.mu.Lock()
		c.room, c.queue = m.Code, ""
		c.mu.Unlock()
	}
	c.send(b)
}

func (c *conn) publish(to string, m lobby.Message) error {
	return c.s.o.NATS.Publish(subjectClient+to, m.Encode())
}

func (c *conn) welcome() {
	m := lobby.Message{Type: lobby.TypeWelcome, Client: c.id, Secret: c.secret}
	if len(c.s.o.TURNSecret) > 0 {
		t := lobby.Credentials(c.s.o.TURNSecret, c.id, c.s.o.Now().Add(c.s.o.TURNTTL), c.s.o.TURNURLs)
		m.TURN = &t
	}
	c.event(m)
}

// record writes the client's record the first time it enters a room or a
// queue, and then changes it.
func (c *conn) record(ctx context.Context, change func(*client)) error {
	_, err := update(ctx, c.s.st.clients, "c."+c.id, func(r *client, found bool) error {
		if !found {
			r.Secret = hashSecret(c.secret)
		}
		r.Instance = c.s.o.Instance
		change(r)
		return nil
	})
	return err
}

func (c *conn) state() (room, queue string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.room, c.queue
}

func (c *conn) setState(room, queue string) {
	c.mu.Lock()
	c.room, c.queue = room, queue
	if queue == "" {
		c.game, c.players = "", 0
	}
	c.mu.Unlock()
}

func (c *conn) create(ctx context.Context, m lobby.Message) error {
	now := c.s.o.Now()
	if !c.s.create.take(c.addr, now) {
		l := c.s.o.Creations
		return refuse(lobby.ReasonRateLimited, "", "at most %d rooms at once from one address, then one every %v", l.Burst, l.Every)
	}
	if err := c.leave(ctx); err != nil {
		return err
	}
	secret := lobby.NewID()
	seats := make([]string, m.Players)
	seats[0] = c.id
	code, err := c.s.makeRoom(ctx, m.Game, seats, secret, now)
	if err != nil {
		return err
	}
	if err := c.record(ctx, func(r *client) { r.Room, r.Queue = code, "" }); err != nil {
		return err
	}
	c.setState(code, "")
	c.event(lobby.Message{Type: lobby.TypeRoom, Code: code, Secret: secret, Seat: 0, Peers: seats, Players: m.Players, Game: m.Game})
	return nil
}

// makeRoom stores a new room under a fresh code.
func (s *Server) makeRoom(ctx context.Context, game string, seats []string, secret string, now time.Time) (string, error) {
	r := room{Game: game, Players: len(seats), Seats: seats, Secret: hashSecret(secret), Expires: now.Add(s.o.RoomTTL).UnixNano()}
	for range 8 {
		code := lobby.NewCode()
		_, err := update(ctx, s.st.rooms, roomKey(code), func(v *room, found bool) error {
			if found && v.Expires > now.UnixNano() {
				return errStop // taken: draw another code
			}
			*v = r
			return nil
		})
		if errors.Is(err, errStop) {
			continue
		}
		return code, err
	}
	return "", errors.New("lobby: eight codes in a row were taken")
}

func (c *conn) join(ctx context.Context, m lobby.Message) error {
	now := c.s.o.Now()
	if c.s.guess.spent(c.addr, now) {
		l := c.s.o.Guesses
		return refuse(lobby.ReasonRateLimited, m.Code, "too many unknown codes from this address: %d at once, then one every %v", l.Burst, l.Every)
	}
	code, _ := lobby.ParseCode(m.Code)
	if err := c.leave(ctx); err != nil {
		return err
	}
	seat := -1
	r, err := update(ctx, c.s.st.rooms, roomKey(code), func(r *room, found bool) error {
		switch {
		case !found || r.Expires <= now.UnixNano():
			c.s.guess.take(c.addr, now)
			return refuse(lobby.ReasonRoomUnknown, code, "no room has the code %s, or it expired", code)
		case r.Game != m.Game:
			return refuse(lobby.ReasonOtherGame, code, "room %s is for another game or configuration", code)
		}
		if seat = slices.Index(r.Seats, c.id); seat >= 0 {
			return errStop
		}
		if seat = slices.Index(r.Seats, ""); seat < 0 {
			return refuse(lobby.ReasonRoomFull, code, "room %s has all its %d seats taken", code, r.Players)
		}
		r.Seats[seat] = c.id
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return err
	}
	if err := c.record(ctx, func(cr *client) { cr.Room, cr.Queue = code, "" }); err != nil {
		return err
	}
	c.setState(code, "")
	c.tellPeers(r.Seats, lobby.Message{Type: lobby.TypePeer, Peer: c.id, Seat: seat})
	c.event(lobby.Message{Type: lobby.TypeRoom, Code: code, Seat: seat, Peers: r.Seats, Players: r.Players, Game: r.Game})
	return nil
}

func (c *conn) tellPeers(seats []string, m lobby.Message) {
	for _, p := range seats {
		if p != "" && p != c.id {
			c.publish(p, m)
		}
	}
}

func (c *conn) reclaim(ctx context.Context, m lobby.Message) error {
	now := c.s.o.Now()
	if c.s.guess.spent(c.addr, now) {
		l := c.s.o.Guesses
		return refuse(lobby.ReasonRateLimited, m.Code, "too many wrong codes or secrets from this address: %d at once, then one every %v", l.Burst, l.Every)
	}
	code, _ := lobby.ParseCode(m.Code)
	if err := c.leave(ctx); err != nil {
		return err
	}
	r, err := update(ctx, c.s.st.rooms, roomKey(code), func(r *room, found bool) error {
		switch {
		case !found || r.Expires <= now.UnixNano():
			c.s.guess.take(c.addr, now)
			return refuse(lobby.ReasonRoomUnknown, code, "no room has the code %s, or it expired", code)
		case !secretMatches(r.Secret, m.Secret):
			c.s.guess.take(c.addr, now)
			return refuse(lobby.ReasonForbidden, code, "that is not room %s's secret", code)
		case r.Game != m.Game:
			return refuse(lobby.ReasonOtherGame, code, "room %s is for another game or configuration", code)
		}
		r.Seats[0] = c.id
		r.Expires = now.Add(c.s.o.RoomTTL).UnixNano()
		return nil
	})
	if err != nil {
		return err
	}
	if err := c.record(ctx, func(cr *client) { cr.Room, cr.Queue = code, "" }); err != nil {
		return err
	}
	c.setState(code, "")
	c.tellPeers(r.Seats, lobby.Message{Type: lobby.TypePeer, Peer: c.id, Seat: 0})
	c.event(lobby.Message{Type: lobby.TypeRoom, Code: code, Secret: m.Secret, Seat: 0, Peers: r.Seats, Players: r.Players, Game: r.Game})
	return nil
}

func (s *Server) queueLock(key string) *sync.Mutex {
	h := fnv.New32a()
	h.Write([]byte(key))
	return &s.qlocks[h.Sum32()%uint32(len(s.qlocks))]
}

func (c *conn) quick(ctx context.Context, game string, players int) error {
	if room, _ := c.state(); room != "" {
		if err := c.leave(ctx); err != nil {
			return err
		}
	}
	now := c.s.o.Now()
	key := queueKey(game, players)
	// The record names the queue before the queue names the client, so
	// that an instance pairing it next finds the record to write the room
	// in.
	if err := c.record(ctx, func(r *client) { r.Room, r.Queue, r.Game, r.Players = "", key, game, players }); err != nil {
		return err
	}
	// A room event for this client published from here on waits until
	// the waiting event is sent: the client sees them in that order.
	c.evmu.Lock()
	defer c.evmu.Unlock()
	mu := c.s.queueLock(key)
	mu.Lock()
	var paired []string
	_, err := update(ctx, c.s.st.queues, key, func(q *queue, _ bool) error {
		paired = paired[:0]
		keep := q.Waiting[:0]
		for _, w := range q.Waiting {
			if w.Until > now.UnixNano() && w.ID != c.id {
				keep = append(keep, w)
			}
		}
		if len(keep)+1 >= players {
			for _, w := range keep[:players-1] {
				paired = append(paired, w.ID)
			}
			q.Waiting = keep[players-1:]
			return nil
		}
		q.Waiting = append(keep, waiting{ID: c.id, Until: now.Add(c.s.o.QueueTTL).UnixNano()})
		return nil
	})
	mu.Unlock()
	if err != nil {
		return err
	}
	if len(paired) == 0 {
		c.mu.Lock()
		c.room, c.queue, c.game, c.players, c.queuedAt = "", key, game, players, now
		c.mu.Unlock()
		c.event(lobby.Message{Type: lobby.TypeWaiting, Game: game, Players: players})
		return nil
	}

	// A dedicated host waiting for this game's rooms hosts, at seat 0;
	// else the first to wait does. Every member's record names the room
	// before any is told, so a client that moves to another instance
	// meanwhile learns of the room from its record if the event misses it.
	host, err := c.s.takeDedicated(ctx, game, players, now)
	if err != nil {
		return err
	}
	if host != "" {
		paired = append([]string{host}, paired...)
	}
	seats := append(paired, c.id)
	secret := lobby.NewID()
	code, err := c.s.makeRoom(ctx, game, seats, secret, now)
	if err != nil {
		return err
	}
	for _, id := range paired {
		_, err := update(ctx, c.s.st.clients, "c."+id, func(r *client, found bool) error {
			if !found {
				return errStop
			}
			r.Room, r.Queue = code, ""
			return nil
		})
		if err != nil && !errors.Is(err, errStop) {
			return err
		}
	}
	if err := c.record(ctx, func(r *client) { r.Room, r.Queue = code, "" }); err != nil {
		return err
	}
	c.setState(code, "")
	for i, id := range paired {
		m := lobby.Message{Type: lobby.TypeRoom, Code: code, Seat: i, Peers: seats, Players: len(seats), Game: game}
		if i == 0 {
			m.Secret = secret
		}
		if err := c.publish(id, m); err != nil {
			return err
		}
	}
	c.event(lobby.Message{Type: lobby.TypeRoom, Code: code, Seat: len(paired), Peers: seats, Players: len(seats), Game: game})
	return nil
}

// dedicatedKey keys the queue of the dedicated hosts waiting for game's
// quick matches of players.
func dedicatedKey(game string, players int) string { return queueKey(game, players) + ".d" }

// dedicated queues the client as a dedicated host for game's quick
// matches of players: the next such room to fill is handed to it, as
// seat 0 of players+1 seats (quick). Until then it waits as a quick
// player does, its entry refreshed and dropped the same way.
func (c *conn) dedicated(ctx context.Context, game string, players int) error {
	if room, _ := c.state(); room != "" {
		if err := c.leave(ctx); err != nil {
			return err
		}
	}
	now := c.s.o.Now()
	key := dedicatedKey(game, players)
	if err := c.record(ctx, func(r *client) { r.Room, r.Queue, r.Game, r.Players = "", key, game, players }); err != nil {
		return err
	}
	c.evmu.Lock()
	defer c.evmu.Unlock()
	mu := c.s.queueLock(key)
	mu.Lock()
	_, err := update(ctx, c.s.st.queues, key, func(q *queue, _ bool) error {
		keep := q.Waiting[:0]
		for _, w := range q.Waiting {
			if w.Until > now.UnixNano() && w.ID != c.id {
				keep = append(keep, w)
			}
		}
		q.Waiting = append(keep, waiting{ID: c.id, Until: now.Add(c.s.o.QueueTTL).UnixNano()})
		return nil
	})
	mu.Unlock()
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.room, c.queue, c.game, c.players, c.queuedAt = "", key, game, players, now
	c.mu.Unlock()
	c.event(lobby.Message{Type: lobby.TypeWaiting, Game: game, Players: players})
	return nil
}

// takeDedicated takes the dedicated host that has waited longest for
// game's quick matches of players out of its queue, or returns "" when
// none waits. Its record is updated with the room's by quick, as the
// paired players' are.
func (s *Server) takeDedicated(ctx context.Context, game string, players int, now time.Time) (string, error) {
	key := dedicatedKey(game, players)
	mu := s.queueLock(key)
	mu.Lock()
	defer mu.Unlock()
	var id string
	_, err := update(ctx, s.st.queues, key, func(q *queue, found bool) error {
		id = ""
		if !found || len(q.Waiting) == 0 {
			return errStop
		}
		for i, w := range q.Waiting {
			if w.Until > now.UnixNano() {
				id = w.ID
				q.Waiting = q.Waiting[i+1:]
				return nil
			}
		}
		q.Waiting = nil // every entry ran out
		return nil
	})
	if errors.Is(err, errStop) {
		return "", nil
	}
	return id, err
}

// requeue queues a client again under key: as a dedicated host or as a
// quick player, as the key says.
func (c *conn) requeue(ctx context.Context, key, game string, players int) error {
	if strings.HasSuffix(key, ".d") {
		return c.dedicated(ctx, game, players)
	}
	return c.quick(ctx, game, players)
}

// refreshQueue keeps a waiting client's entry from running out, and
// queues the client again if its entry was lost: taken by a pairing that
// failed before it made the room (a NATS server stopped in between).
func (c *conn) refreshQueue(ctx context.Context) {
	c.mu.Lock()
	key, at, game, players := c.queue, c.queuedAt, c.game, c.players
	c.mu.Unlock()
	now := c.s.o.Now()
	if key == "" {
		return
	}
	sctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	mu := c.s.queueLock(key)
	mu.Lock()
	missing := false
	_, err := update(sctx, c.s.st.queues, key, func(q *queue, _ bool) error {
		i := slices.IndexFunc(q.Waiting, func(w waiting) bool { return w.ID == c.id })
		if i < 0 {
			missing = true
			return errStop
		}
		if now.Sub(at) < c.s.o.QueueTTL/2 {
			return errStop
		}
		q.Waiting[i].Until = now.Add(c.s.o.QueueTTL).UnixNano()
		return nil
	})
	mu.Unlock()
	switch {
	case err == nil:
		c.mu.Lock()
		c.queuedAt = now
		c.mu.Unlock()
	case missing:
		// Paired meanwhile, if the room event is on its way: the record
		// says which.
		r, _, found, err := get[client](sctx, c.s.st.clients, "c."+c.id)
		if err != nil || !found || r.Room != "" {
			return
		}
		if room, q := c.state(); room == "" && q == key {
			if err := c.requeue(sctx, key, game, players); err != nil {
				c.s.o.Log.Warn("lobby: queueing a client again", "err", err)
			}
		}
	}
}

// leave takes the client out of its queue and its room, telling the room's
// other clients which seat is free.
func (c *conn) leave(ctx context.Context) error {
	code, key := c.state()
	if key != "" {
		if err := c.unqueue(ctx, key); err != nil {
			return err
		}
	}
	if code != "" {
		seat := -1
		r, err := update(ctx, c.s.st.rooms, roomKey(code), func(r *room, found bool) error {
			if seat = slices.Index(r.Seats, c.id); !found || seat < 0 {
				return errStop
			}
			r.Seats[seat] = ""
			return nil
		})
		if err != nil && !errors.Is(err, errStop) {
			return err
		}
		if err == nil {
			c.tellPeers(r.Seats, lobby.Message{Type: lobby.TypePeer, Seat: seat})
		}
	}
	if code != "" || key != "" {
		if err := c.record(ctx, func(r *client) { r.Room, r.Queue = "", "" }); err != nil {
			return err
		}
	}
	c.setState("", "")
	return nil
}

func (c *conn) unqueue(ctx context.Context, key string) error {
	mu := c.s.queueLock(key)
	mu.Lock()
	defer mu.Unlock()
	_, err := update(ctx, c.s.st.queues, key, func(q *queue, _ bool) error {
		n := len(q.Waiting)
		q.Waiting = slices.DeleteFunc(q.Waiting, func(w waiting) bool { return w.ID == c.id })
		if len(q.Waiting) == n {
			return errStop
		}
		return nil
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

func (c *conn) signal(ctx context.Context, m lobby.Message) error {
	code, _ := c.state()
	if code == "" {
		return refuse(lobby.ReasonNotInRoom, "", "signal from a client in no room: create, join or quick-match first")
	}
	r, _, found, err := get[room](ctx, c.s.st.rooms, roomKey(code))
	if err != nil {
		return err
	}
	if !found || !slices.Contains(r.Seats, c.id) {
		return refuse(lobby.ReasonNotInRoom, code, "room %s is gone or no longer has this client", code)
	}
	if m.Peer == c.id || !slices.Contains(r.Seats, m.Peer) {
		return refuse(lobby.ReasonNotInRoom, code, "peer %s is not another client of room %s", m.Peer, code)
	}
	return c.publish(m.Peer, lobby.Message{Type: lobby.TypeSignal, Peer: c.id, Data: m.Data})
}

// resume takes over a client that was connected before, here or on another
// instance: its id, its room or its place in the queue.
func (c *conn) resume(ctx context.Context, m lobby.Message) error {
	now := c.s.o.Now()
	if c.s.guess.spent(c.addr, now) {
		return refuse(lobby.ReasonRateLimited, "", "too many wrong resume secrets from this address")
	}
	r, _, found, err := get[client](ctx, c.s.st.clients, "c."+m.Client)
	if err != nil {
		return err
	}
	if !found || !secretMatches(r.Secret, m.Secret) {
		c.s.guess.take(c.addr, now)
		return refuse(lobby.ReasonForbidden, "", "no client %s with that secret: connect afresh", m.Client)
	}
	if err := c.leave(ctx); err != nil {
		return err
	}
	// Subscribe under the old id before reading the record again: an event
	// published from now on arrives, and one published before is in it.
	old := c.sub
	oldID, oldSecret := c.id, c.secret
	c.id, c.secret = m.Client, m.Secret
	if err := c.subscribe(); err != nil {
		c.id, c.secret = oldID, oldSecret
		return err
	}
	old.Unsubscribe()
	cr, err := update(ctx, c.s.st.clients, "c."+c.id, func(r *client, found bool) error {
		if !found {
			return refuse(lobby.ReasonForbidden, "", "client %s expired meanwhile", c.id)
		}
		r.Instance = c.s.o.Instance
		return nil
	})
	if err != nil {
		return err
	}
	c.welcome()
	switch {
	case cr.Room != "":
		rm, _, found, err := get[room](ctx, c.s.st.rooms, roomKey(cr.Room))
		if err != nil {
			return err
		}
		seat := slices.Index(rm.Seats, c.id)
		if !found || seat < 0 || rm.Expires <= now.UnixNano() {
			c.record(ctx, func(r *client) { r.Room = "" })
			return refuse(lobby.ReasonRoomUnknown, cr.Room, "room %s expired or let the seat go", cr.Room)
		}
		c.setState(cr.Room, "")
		c.event(lobby.Message{Type: lobby.TypeRoom, Code: cr.Room, Seat: seat, Peers: rm.Seats, Players: rm.Players, Game: rm.Game})
	case cr.Queue != "":
		return c.requeue(ctx, cr.Queue, cr.Game, cr.Players)
	}
	return nil
}

// cleanup runs when the connection has ended: a waiting client leaves the
// queue (its record keeps the place, and a resume queues it again); a seat
// in a room is kept for the client to come back to.
func (c *conn) cleanup() {
	if c.sub != nil {
		c.sub.Unsubscribe()
	}
	_, key := c.state()
	if key == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := c.unqueue(ctx, key); err != nil && !errors.Is(err, nats.ErrConnectionClosed) && !errors.Is(err, jetstream.ErrJetStreamNotEnabled) {
		c.s.o.Log.Warn("lobby: taking a gone client out of the queue", "err", err)
	}
}
