package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/time/rate"

	"github.com/metronome-go/metronome/lobby"
	"github.com/metronome-go/metronome/option"
)

// Limit is a per-address allowance: Burst at once, then one more every
// Every.
type Limit struct {
	Burst int
	Every time.Duration
}

// Options configures a lobby instance. Zero fields take the defaults given
// with each, except NATS, which is required.
type Options struct {
	// NATS is the instance's connection to the NATS server or cluster that
	// holds the lobby's state. Every instance of one lobby uses the same.
	NATS *nats.Conn
	// Instance names this instance in the client records. Default: random.
	Instance string
	// Replicas is how many NATS servers keep the bucket: 1 (the default)
	// for one server, 3 on a cluster of three or more, so that a stopped
	// server loses nothing.
	Replicas int
	// TURNSecret is coturn's static-auth-secret. Empty: clients get no TURN
	// credentials. The lobby signs with it and never sends or logs it.
	TURNSecret []byte
	// TURNURLs are the relay's addresses handed to clients, such as
	// "turn:turn.example.org:3478". Needed when TURNSecret is set.
	TURNURLs []string
	// TURNTTL is how long credentials stay valid. Default 2 h.
	TURNTTL time.Duration
	// RoomTTL is how long a room lives after it was made or its host last
	// reclaimed it. Default 1 h.
	RoomTTL time.Duration
	// QueueTTL is how long a quick-match entry waits; a client that is
	// still connected queues again when it runs out. Default 10 min.
	QueueTTL time.Duration
	// QueueCheck is how often a waiting client's entry and record are
	// read: the entry is renewed before it runs out, a room the client
	// missed the event of (the instance that paired it died first) is
	// told, a lost entry is queued again. Default 5 s.
	QueueCheck time.Duration
	// PingEvery is how often the lobby pings each client; one that has not
	// answered by the next ping is dropped. Default 20 s.
	PingEvery time.Duration
	// Guesses limits, per address, joins and reclaims that name no room or
	// give a wrong secret. Default 10 at once, then one every 6 s.
	Guesses Limit
	// Creations limits, per address, the rooms made. Default 5 at once,
	// then one every 12 s.
	Creations Limit
	// MaxClients is how many clients this instance holds at once; one more
	// is refused with 503. Default 20,000.
	MaxClients int
	// Now is the wall clock. Default time.Now.
	Now func() time.Time
	// Log receives one line per refused connection and per failure of the
	// state store. Default: discarded.
	Log *slog.Logger
}

func (o *Options) defaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&o.TURNTTL, 2*time.Hour)
	def(&o.RoomTTL, time.Hour)
	def(&o.QueueTTL, 10*time.Minute)
	def(&o.PingEvery, 20*time.Second)
	def(&o.QueueCheck, 5*time.Second)
	if o.Guesses == (Limit{}) {
		o.Guesses = Limit{10, 6 * time.Second}
	}
	if o.Creations == (Limit{}) {
		o.Creations = Limit{5, 12 * time.Second}
	}
	if o.Replicas == 0 {
		o.Replicas = 1
	}
	if o.MaxClients == 0 {
		o.MaxClients = 20000
	}
	if o.Instance == "" {
		o.Instance = lobby.NewID()[:10]
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
}

// Validate reports every field out of range at once.
func (o *Options) Validate() error {
	var errs []error
	bad := func(field string, v any, problem, allowed string) {
		errs = append(errs, &option.Error{Pkg: "lobby", Field: "Options." + field, Value: v, Problem: problem, Allowed: allowed})
	}
	if o.NATS == nil {
		bad("NATS", nil, "is missing", "a connection (ConnectEmbedded or Connect)")
	}
	if o.Replicas < 0 || o.Replicas > 5 {
		bad("Replicas", o.Replicas, "is out of range", "1 to 5")
	}
	if len(o.TURNSecret) > 0 && len(o.TURNURLs) == 0 {
		bad("TURNURLs", nil, "is empty while TURNSecret is set", "one or more turn: URLs")
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"TURNTTL", o.TURNTTL}, {"RoomTTL", o.RoomTTL}, {"QueueTTL", o.QueueTTL}, {"PingEvery", o.PingEvery}, {"QueueCheck", o.QueueCheck}, {"Guesses.Every", o.Guesses.Every}, {"Creations.Every", o.Creations.Every}} {
		if d.v < 0 {
			bad(d.name, d.v, "is negative", "above zero, or zero for the default")
		}
	}
	if o.Guesses.Burst < 0 || o.Creations.Burst < 0 {
		bad("Guesses.Burst or Creations.Burst", nil, "is negative", "1 or more, or zero for the default")
	}
	if o.MaxClients < 0 {
		bad("MaxClients", o.MaxClients, "is negative", "1 or more, or zero for the default")
	}
	return errors.Join(errs...)
}

// Server is one lobby instance: an http.Handler that takes WebSocket
// connections from games. Any number of instances on one NATS system serve
// one player base.
type Server struct {
	o      Options
	st     *store
	guess  *limiter
	create *limiter
	// qlocks serialize this instance's writes to one queue, so that its own
	// clients do not race each other's compare-and-set.
	qlocks [64]sync.Mutex

	mu       sync.Mutex
	conns    map[*conn]struct{}
	byID     map[string]*conn    // the latest connection of each client id held here
	matchers map[string]*matcher // by queue key, while requests are pending
	closing  bool
	wg       sync.WaitGroup

	// stopWatch ends watchMailboxes, which watchWG waits for.
	stopWatch context.CancelFunc
	watchWG   sync.WaitGroup

	hooks hooks
}

// hooks stop a connection between two steps, for this package's tests
// (export_test.go sets them); they are nil otherwise.
type hooks struct {
	paired func() // a pairing is stored and its events not yet sent
	queued func() // a quick-match request is pending with its matcher
	round  func() // a matcher starts a round
	// roomRead fails the read of a room a client is told of from its
	// record when it returns an error.
	roomRead func() error
	cleanup  func(after bool) // a connection ended: before it leaves the queue, and after
	// resuming runs once a resume has subscribed under the client's id,
	// before it reads the client's record again.
	resuming func()
	// delivering runs before a NATS delivery to a client is handled;
	// kept after a signal went to a mailbox; drained after the watch
	// handled a mailbox change. signalWait replaces signalWait when set.
	delivering, kept, drained func()
	signalWait                time.Duration
	// watchEnded runs when the mailbox watch ends before Close.
	watchEnded func()
}

// New opens the lobby's bucket (making it if no instance has yet) and
// returns an instance ready to serve. ctx bounds the opening only: the
// instance runs until Close, whatever becomes of ctx.
func New(ctx context.Context, o Options) (*Server, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	o.defaults()
	js, err := jetstream.New(o.NATS)
	if err != nil {
		return nil, fmt.Errorf("lobby: JetStream: %w", err)
	}
	st, err := openStore(ctx, o.NATS, js, o.Replicas, o.RoomTTL)
	if err != nil {
		return nil, err
	}
	// The watch lives as long as the instance: a context it is made with
	// also ends it, so ctx, which bounds New, only bounds its making.
	wctx, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, cancel)
	w, err := st.kv.Watch(wctx, "s.*", jetstream.UpdatesOnly())
	if !stop() && err == nil {
		err = ctx.Err() // ctx ended as the watch was made: it may be gone already
		w.Stop()
	}
	if err != nil {
		cancel()
		return nil, fmt.Errorf("lobby: watching the mailboxes: %w", err)
	}
	s := &Server{
		o:        o,
		st:       st,
		guess:    newLimiter(o.Guesses),
		create:   newLimiter(o.Creations),
		conns:    make(map[*conn]struct{}),
		byID:     make(map[string]*conn),
		matchers: make(map[string]*matcher),
	}
	s.stopWatch = cancel
	s.watchWG.Go(func() { s.watchMailboxes(wctx, w) })
	return s, nil
}

// Clients returns how many clients this instance holds.
func (s *Server) Clients() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// ServeHTTP upgrades the request to a WebSocket and serves the client until
// it leaves, fails a ping or the server closes. It is called by net/http,
// one goroutine per client.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closing || len(s.conns) >= s.o.MaxClients {
		s.mu.Unlock()
		http.Error(w, "lobby: busy: this instance holds its most clients", http.StatusServiceUnavailable)
		return
	}
	c := &conn{s: s, out: make(chan []byte, 32), done: make(chan struct{}), nonce: lobby.NewID()[:8]}
	s.conns[c] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		s.wg.Done()
	}()

	// Pages from any origin may use a lobby: it holds no cookie or
	// credential of the browser's to protect.
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return // Accept wrote the reason
	}
	ws.SetReadLimit(lobby.MaxFrame)
	c.ws = ws
	c.addr = addrOf(r)
	c.serve(r.Context())
}

// Close drops every client and waits for their goroutines. The state in
// NATS stays: clients resume on another instance. It does not close the
// NATS connection, which the caller owns.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closing = true
	for c := range s.conns {
		c.stop(websocket.StatusGoingAway, "lobby instance closing")
	}
	s.mu.Unlock()
	s.wg.Wait()
	s.stopWatch()
	s.watchWG.Wait()
	return nil
}

func addrOf(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return h
}

// limiter keeps one token bucket per address.
type limiter struct {
	l  Limit
	mu sync.Mutex
	m  map[string]*rate.Limiter
}

// limiterCap bounds the addresses remembered; past it, the buckets that
// are full again (addresses that stopped) are forgotten.
const limiterCap = 1 << 16

func newLimiter(l Limit) *limiter { return &limiter{l: l, m: make(map[string]*rate.Limiter)} }

func (l *limiter) get(addr string, now time.Time) *rate.Limiter {
	b := l.m[addr]
	if b == nil {
		if len(l.m) >= limiterCap {
			for a, x := range l.m {
				if x.TokensAt(now) >= float64(l.l.Burst) {
					delete(l.m, a)
				}
			}
		}
		b = rate.NewLimiter(rate.Every(l.l.Every), l.l.Burst)
		l.m[addr] = b
	}
	return b
}

// spent reports whether addr has no allowance left, without taking any.
func (l *limiter) spent(addr string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.get(addr, now).TokensAt(now) < 1
}

// take takes one of addr's allowance; false when there is none.
func (l *limiter) take(addr string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.get(addr, now).AllowN(now, 1)
}
