package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
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
	// nonce tells this connection's queue entries from an earlier one's
	// of the same (resumed) client.
	nonce string

	// evmu orders a quick match's waiting event before a room event that
	// another instance publishes meanwhile, and a room event before the
	// signals that follow it.
	evmu sync.Mutex
	// held, under evmu, says a signal was kept in the mailbox before the
	// connection knew its room: the room event hands it over.
	held bool

	mu       sync.Mutex
	room     string
	queue    string
	game     string // what the client queued for
	players  int
	queuedAt time.Time
	// seen holds the ids of the last signals sent to the client.
	seen     [16]string
	seenNext int
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
		wg.Go(func() { c.checkQueue(ctx) })
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

// send queues a frame for the writer and reports whether it did. A
// client that lets 32 frames pile up is too slow to be a game and is
// dropped.
func (c *conn) send(b []byte) bool {
	select {
	case <-c.done:
		return false
	default:
	}
	select {
	case <-c.done:
	case c.out <- b:
		return true
	default:
		c.stop(websocket.StatusPolicyViolation, "lobby: too slow: events backed up")
	}
	return false
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
// due.
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
		case <-c.done:
			return
		case <-ctx.Done():
			return
		}
	}
}

// checkQueue checks a waiting client's queue entry every
// Options.QueueCheck.
func (c *conn) checkQueue(ctx context.Context) {
	t := time.NewTicker(c.s.o.QueueCheck)
	defer t.Stop()
	for {
		select {
		case <-t.C:
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
	sub, err := c.s.o.NATS.Subscribe(subjectClient+c.id, func(m *nats.Msg) {
		// A relayed signal asks for an answer once it is queued for the
		// socket: without one, the sender keeps it in the mailbox.
		if h := c.s.hooks.delivering; h != nil {
			h()
		}
		queued, keep := c.deliver(m.Data, m.Header.Get(headerSignal))
		switch {
		case m.Reply == "":
		case queued:
			m.Respond(nil)
		case keep:
			m.Respond([]byte(replyKeep))
		}
	})
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
	c.s.mu.Lock()
	c.s.byID[c.id] = c
	c.s.mu.Unlock()
	return nil
}

// forget takes the client's id off the instance's index, unless a newer
// connection of it took the place.
func (c *conn) forget(id string) {
	c.s.mu.Lock()
	if c.s.byID[id] == c {
		delete(c.s.byID, id)
	}
	c.s.mu.Unlock()
}

// deliver forwards an event another instance (or this one) published for
// the client, noting a room it was placed in. It reports whether the
// event is queued for the socket (or was known already), and for a
// signal that is not, whether the sender should keep it at once.
func (c *conn) deliver(b []byte, signal string) (queued, keep bool) {
	m, err := lobby.DecodeEvent(b)
	if err != nil {
		c.s.o.Log.Warn("lobby: a malformed event on NATS", "err", err)
		return false, false
	}
	c.evmu.Lock()
	defer c.evmu.Unlock()
	if m.Type == lobby.TypeSignal {
		if room, _ := c.state(); room == "" {
			// The room event has not reached this connection yet (it is
			// resuming, or the event is on its way): the signal waits in
			// the mailbox and follows the event.
			return false, true
		}
		if !c.firstSight(signal) {
			return true, false // queued already, from the mailbox
		}
	}
	if m.Type == lobby.TypeRoom {
		c.mu.Lock()
		// Told already from its record; the event still brings the
		// host's secret, which the record does not keep.
		told := c.room == m.Code && m.Secret == ""
		c.room, c.queue = m.Code, ""
		c.mu.Unlock()
		if told {
			return true, false
		}
		if !c.send(b) {
			return false, false
		}
		if c.held {
			// A signal came before this event and was kept.
			c.held = false
			ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
			defer cancel()
			if err := c.drain(ctx); err != nil {
				c.s.o.Log.Warn("lobby: handing over kept signals", "err", err)
			}
		}
		return true, false
	}
	return c.send(b), false
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
	_, err := update(ctx, c.s.st.kv, "c."+c.id, func(r *client, found bool) error {
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
		_, err := update(ctx, s.st.kv, roomKey(code), func(v *room, found bool) error {
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
	r, err := update(ctx, c.s.st.kv, roomKey(code), func(r *room, found bool) error {
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
	r, err := update(ctx, c.s.st.kv, roomKey(code), func(r *room, found bool) error {
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
	// A room event for this client published from here on waits until
	// the waiting event is sent: the client sees them in that order.
	c.evmu.Lock()
	defer c.evmu.Unlock()
	return c.quickLocked(ctx, game, players)
}

// quickLocked enters the client in the queue of game and players; the
// caller holds evmu and the client is in no room.
func (c *conn) quickLocked(ctx context.Context, game string, players int) error {
	key := queueKey(game, players)
	m, err := c.s.matchQuick(c, key, game, players)
	if err != nil {
		// The commit may have been stored all the same (an answer lost
		// in a NATS failover, a timeout): the record says.
		sctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		r, _, found, rerr := get[client](sctx, c.s.st.kv, "c."+c.id)
		switch {
		case rerr != nil || !found:
			return err
		case r.Room != "":
			m = match{code: r.Room}
		case r.Queue == key:
			m = match{} // the next ping queues it again if the entry is not there
		default:
			return err
		}
	}
	switch {
	case m.moved:
		return refuse(lobby.ReasonForbidden, "", "client %s went on in another connection", c.id)
	case m.code == "":
		c.mu.Lock()
		c.room, c.queue, c.game, c.players, c.queuedAt = "", key, game, players, c.s.o.Now()
		c.mu.Unlock()
		c.event(lobby.Message{Type: lobby.TypeWaiting, Game: game, Players: players})
		return nil
	case m.seats == nil:
		return c.enterRoom(ctx, m.code, nil)
	}
	if h := c.s.hooks.paired; h != nil {
		h()
	}
	// The first to wait hosts. A member that misses its event (its
	// instance died, or it was moving to another) finds the room in its
	// record at its next ping or resume.
	c.setState(m.code, "")
	ev := func(seat int) lobby.Message {
		e := lobby.Message{Type: lobby.TypeRoom, Code: m.code, Seat: seat, Peers: m.seats, Players: len(m.seats), Game: game}
		if seat == 0 {
			e.Secret = m.secret
		}
		return e
	}
	for _, seat := range m.tell {
		if err := c.publish(m.seats[seat], ev(seat)); err != nil {
			return err
		}
	}
	c.event(ev(m.seat))
	return nil
}

// enterRoom tells the client of the room its record names, when the
// event that should have told it was lost or is still on its way, and
// hands over the signals kept for it. The caller holds evmu.
//
// first, when not nil, runs once the room is read, before anything is
// sent: a resume's welcome, which a store failure must not precede, or the
// client would take itself for resumed into a room its connection does not
// know, and its signals would be refused.
func (c *conn) enterRoom(ctx context.Context, code string, first func()) error {
	now := c.s.o.Now()
	rm, _, found, err := get[room](ctx, c.s.st.kv, roomKey(code))
	if h := c.s.hooks.roomRead; h != nil && err == nil {
		err = h()
	}
	if err != nil {
		return err
	}
	if first != nil {
		first()
	}
	seat := slices.Index(rm.Seats, c.id)
	if !found || seat < 0 || rm.Expires <= now.UnixNano() {
		c.record(ctx, func(r *client) { r.Room = "" })
		return refuse(lobby.ReasonRoomUnknown, code, "room %s expired or let the seat go", code)
	}
	c.setState(code, "")
	c.event(lobby.Message{Type: lobby.TypeRoom, Code: code, Seat: seat, Peers: rm.Seats, Players: rm.Players, Game: rm.Game})
	// The signals kept while nobody held the client, or before it knew
	// its room, follow the room event.
	c.held = false
	return c.drain(ctx)
}

// dedicatedKey keys the queue of the dedicated hosts waiting for game's
// quick matches of players. A round of that game's quick queue takes
// them from it (matcher.try).
func dedicatedKey(game string, players int) string { return queueKey(game, players) + ".d" }

// dedicated queues the client as a dedicated host for game's quick
// matches of players: the next round that fills such a room hands it to
// the host as seat 0 of players+1 seats. Until then it waits as a quick
// player does, its entry refreshed, requeued and dropped the same way.
// Its record and its entry are stored in one commit, so that a round
// never finds the one without the other.
func (c *conn) dedicated(ctx context.Context, game string, players int) error {
	if room, _ := c.state(); room != "" {
		if err := c.leave(ctx); err != nil {
			return err
		}
	}
	c.evmu.Lock()
	defer c.evmu.Unlock()
	return c.dedicatedLocked(ctx, game, players)
}

// dedicatedLocked queues the client as a dedicated host; the caller holds
// evmu and the client is in no room.
func (c *conn) dedicatedLocked(ctx context.Context, game string, players int) error {
	key := dedicatedKey(game, players)
	kv := c.s.st.kv
	var now time.Time
	var taken string
	err := errConflict
	for try := 0; try < casTries && errors.Is(err, errConflict); try++ {
		now = c.s.o.Now()
		var q queue
		var r client
		var qrev, rrev uint64
		var found bool
		if q, qrev, _, err = get[queue](ctx, kv, key); err != nil {
			return err
		}
		if r, rrev, found, err = get[client](ctx, kv, "c."+c.id); err != nil {
			return err
		}
		if found && r.Instance != "" && r.Instance != c.s.o.Instance {
			return refuse(lobby.ReasonForbidden, "", "client %s went on in another connection", c.id)
		}
		if found && r.Room != "" {
			// A round took this host's earlier entry (it is resuming).
			taken = r.Room
			break
		}
		if !found {
			r.Secret = hashSecret(c.secret)
		}
		r.Instance = c.s.o.Instance
		r.Room, r.Queue, r.Game, r.Players = "", key, game, players
		q.Waiting = slices.DeleteFunc(q.Waiting, func(w waiting) bool { return w.Until <= now.UnixNano() || w.ID == c.id })
		q.Waiting = append(q.Waiting, waiting{ID: c.id, Conn: c.nonce, Until: now.Add(c.s.o.QueueTTL).UnixNano()})
		err = c.s.st.commit(ctx, []write{{key, q, qrev}, {"c." + c.id, r, rrev}})
	}
	if taken != "" {
		return c.enterRoom(ctx, taken, nil)
	}
	if errors.Is(err, errConflict) {
		err = fmt.Errorf("lobby: dedicated queue %s: %d writers in a row got there first", key, casTries)
	}
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.room, c.queue, c.game, c.players, c.queuedAt = "", key, game, players, now
	c.mu.Unlock()
	c.event(lobby.Message{Type: lobby.TypeWaiting, Game: game, Players: players})
	return nil
}

// requeue queues a client again under key, as a dedicated host or as a
// quick player, as the key says. The caller holds evmu and has seen the
// client in no room: a room event that came meanwhile waits, rather than
// being undone by the quick match's leaving the room it names.
func (c *conn) requeue(ctx context.Context, key, game string, players int) error {
	if key == dedicatedKey(game, players) {
		return c.dedicatedLocked(ctx, game, players)
	}
	return c.quickLocked(ctx, game, players)
}

// refreshQueue keeps a waiting client's entry from running out. When the
// entry is gone, the client's record says why: a room it was not told of
// (the instance that paired it died first) or, failing that, nothing, and
// it queues again.
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
	_, err := update(sctx, c.s.st.kv, key, func(q *queue, _ bool) error {
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
		return
	case !missing:
		return
	}
	r, _, found, err := get[client](sctx, c.s.st.kv, "c."+c.id)
	if err != nil || !found {
		return
	}
	switch {
	case r.Room != "":
		// Under evmu, so that the event, if it comes now, is not sent
		// twice.
		c.evmu.Lock()
		if room, q := c.state(); room == "" && q == key {
			err = c.enterRoom(sctx, r.Room, nil)
		}
		c.evmu.Unlock()
	case r.Queue == key:
		c.evmu.Lock()
		if room, q := c.state(); room == "" && q == key {
			err = c.requeue(sctx, key, game, players)
		}
		c.evmu.Unlock()
	}
	if err != nil {
		c.s.o.Log.Warn("lobby: a waiting client's lost queue entry", "err", err)
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
		r, err := update(ctx, c.s.st.kv, roomKey(code), func(r *room, found bool) error {
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
	_, err := update(ctx, c.s.st.kv, key, func(q *queue, _ bool) error {
		n := len(q.Waiting)
		q.Waiting = slices.DeleteFunc(q.Waiting, func(w waiting) bool { return w.ID == c.id && w.Conn == c.nonce })
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
	r, _, found, err := get[room](ctx, c.s.st.kv, roomKey(code))
	if err != nil {
		return err
	}
	if !found || !slices.Contains(r.Seats, c.id) {
		return refuse(lobby.ReasonNotInRoom, code, "room %s is gone or no longer has this client", code)
	}
	if m.Peer == c.id || !slices.Contains(r.Seats, m.Peer) {
		return refuse(lobby.ReasonNotInRoom, code, "peer %s is not another client of room %s", m.Peer, code)
	}
	return c.relay(ctx, m.Peer, m.Data)
}

// resume takes over a client that was connected before, here or on another
// instance: its id, its room or its place in the queue.
func (c *conn) resume(ctx context.Context, m lobby.Message) error {
	now := c.s.o.Now()
	if c.s.guess.spent(c.addr, now) {
		return refuse(lobby.ReasonRateLimited, "", "too many wrong resume secrets from this address")
	}
	r, _, found, err := get[client](ctx, c.s.st.kv, "c."+m.Client)
	if err != nil {
		return err
	}
	if !found || !secretMatches(r.Secret, m.Secret) {
		// A wrong secret is a guess. An id with no record is not: ids
		// are 128 random bits, and after an instance dies every client
		// it had not recorded yet resumes so, from addresses that many
		// players may share.
		if found {
			c.s.guess.take(c.addr, now)
		}
		if !found {
			// The client connects afresh under a new id. A quick match
			// its earlier connection asked for may still be storing:
			// a record of no instance makes that commit fail, and its
			// next try drop the request, instead of pairing an id nobody
			// answers to.
			b, _ := json.Marshal(client{Instance: instanceGone})
			c.s.st.kv.Create(ctx, "c."+m.Client, b)
		}
		return refuse(lobby.ReasonForbidden, "", "no client %s with that secret: connect afresh", m.Client)
	}
	if err := c.leave(ctx); err != nil {
		return err
	}
	// Subscribe under the old id before reading the record again: an event
	// published from now on arrives, and one published before is in it.
	// Those that arrive wait (deliver takes evmu) until the welcome and the
	// room or waiting event are sent: the client takes whatever precedes
	// its welcome for the old connection's, and drops it.
	c.evmu.Lock()
	defer c.evmu.Unlock()
	old := c.sub
	oldID, oldSecret := c.id, c.secret
	c.id, c.secret = m.Client, m.Secret
	if err := c.subscribe(); err != nil {
		c.id, c.secret = oldID, oldSecret
		return err
	}
	old.Unsubscribe()
	c.forget(oldID)
	if h := c.s.hooks.resuming; h != nil {
		h()
	}
	cr, err := update(ctx, c.s.st.kv, "c."+c.id, func(r *client, found bool) error {
		if !found {
			return refuse(lobby.ReasonForbidden, "", "client %s expired meanwhile", c.id)
		}
		r.Instance = c.s.o.Instance
		return nil
	})
	if err != nil {
		return err
	}
	if cr.Room != "" {
		// The signals kept while nobody held the client follow its room
		// event, before any relayed from now on.
		return c.enterRoom(ctx, cr.Room, c.welcome)
	}
	c.welcome()
	if cr.Queue != "" {
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
		c.forget(c.id)
	}
	if h := c.s.hooks.cleanup; h != nil {
		h(false)
		defer h(true)
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
