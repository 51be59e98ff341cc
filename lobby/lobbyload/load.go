// Package lobbyload measures the lobby under load on the loopback: many
// simulated clients entering quick match in pairs across lobby instances
// on a NATS cluster, with an instance killed or a NATS server stopped in
// the middle if asked. The instances and NATS run in the calling process;
// the clients run there too, or in worker processes ([Options.Workers],
// [Child]) that report each step over a pipe, so that no process holds
// both ends of every socket. A run ends when every client is done, when
// none has moved for [Options.Stall], or at [Options.Timeout].
// cmd/lobbyload prints its figures; its test runs small loads in CI.
package lobbyload

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http/httptest"
	"os/exec"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/metronome-go/metronome/lobby"
	"github.com/metronome-go/metronome/lobby/server"
)

// Options describes one run.
type Options struct {
	// Clients is how many simulated clients enter quick match (even).
	Clients int
	// Instances is how many lobby instances they are spread over.
	Instances int
	// NATSNodes is 1 for the embedded default (one server, in-process
	// connections) or 3 for a cluster on the loopback, buckets replicated
	// three times.
	NATSNodes int
	// Parallel bounds the clients between dialling and paired at once.
	// Default 256.
	Parallel int
	// KillAt, when above zero, kills instance 0 once that many clients
	// have entered the queue: its NATS connection first (so it cleans
	// nothing up), then its sockets. Its clients resume on the others.
	KillAt int
	// StopNATSAt, when above zero and NATSNodes is 3, shuts down NATS
	// server 2 once that many clients have entered.
	StopNATSAt int
	// Timeout bounds the whole run. Default 10 minutes.
	Timeout time.Duration
	// Stall ends a run in which no client made progress (dialled, entered,
	// was paired, resumed, heard its peer) for that long, with what each
	// unfinished client waited for: a lost signal fails the run at once,
	// not at Timeout. Default 30 s, above every recovery the lobby makes
	// (a queue check, a resume, a NATS reconnect).
	Stall time.Duration
	// Workers, when above zero, runs the clients in that many child
	// processes, each holding its share of them, so that no process
	// holds both ends of every socket. Command starts one child, a
	// process that calls [Child] on its standard input and output.
	Workers int
	Command func() *exec.Cmd
	// Dir holds the NATS servers' files.
	Dir string
}

// Result is what a run measured.
type Result struct {
	Clients, Paired int
	// P50 and P99 are the time from sending quick to reading the room
	// event, over paired clients.
	P50, P99 time.Duration
	// BytesPerClient is the growth of the process's heap and stacks with
	// every client connected and paired, divided by Clients. It counts
	// the lobby instances and NATS, and the simulated clients too when
	// they run in this process (Workers 0).
	BytesPerClient float64
	// Lost is the paired clients that never got their peer's signal.
	Lost int
	// Split is the paired clients whose peer is not in the same room with
	// them: a room lost or handed out twice. Stray is the signals that
	// came from a client that was not the peer.
	Split, Stray int
	// Resumed is how many times a client reconnected to another instance.
	// Afresh is how many of them found no record of the client (its
	// instance died before storing it) and started again under a new id;
	// the others took the client's place, waiting or paired, over.
	Resumed, Afresh int
	// Elapsed is from the first dial to the last client paired.
	Elapsed time.Duration
	// Refused counts the requests the lobby refused, by reason.
	Refused map[lobby.Reason]int
	// Stuck counts the clients never paired, by where they stopped.
	Stuck map[string]int
	// Unheard counts the Lost clients by what they went through: how
	// often they resumed, and whether before or after their room came.
	Unheard map[string]int
}

func (r Result) String() string {
	s := fmt.Sprintf("clients %d paired %d p50 %v p99 %v mem/client %.1f KiB lost %d split %d stray %d resumed %d (%d afresh) in %v",
		r.Clients, r.Paired, r.P50.Round(time.Microsecond), r.P99.Round(time.Microsecond),
		r.BytesPerClient/1024, r.Lost, r.Split, r.Stray, r.Resumed, r.Afresh, r.Elapsed.Round(time.Millisecond))
	for _, k := range slices.Sorted(maps.Keys(r.Refused)) {
		s += fmt.Sprintf(" refused(%s) %d", k, r.Refused[k])
	}
	for _, k := range slices.Sorted(maps.Keys(r.Stuck)) {
		s += fmt.Sprintf(" unpaired(%s) %d", k, r.Stuck[k])
	}
	for _, k := range slices.Sorted(maps.Keys(r.Unheard)) {
		s += fmt.Sprintf(" unheard(%s) %d", k, r.Unheard[k])
	}
	return s
}

const game = "lobbyload/pairs@v1"

type instance struct {
	s  *server.Server
	ts *httptest.Server
	nc *nats.Conn
}

type run struct {
	o        Options
	urls     []string
	dead     []atomic.Bool
	entered  atomic.Int64
	resumed  atomic.Int64
	afresh   atomic.Int64
	stray    atomic.Int64
	done     atomic.Int64
	progress atomic.Int64 // every step any client took
	allDone  chan struct{}
	start    time.Time
	last     atomic.Int64 // since start, when the last client was done

	// watch is told how many clients have entered (the kill and NATS
	// stop points); note, in a child, passes each step to the parent.
	watch func(n int64)
	note  func(kind byte, arg string)

	mu      sync.Mutex
	refused map[lobby.Reason]int
}

func (r *run) step(kind byte, arg string) {
	r.progress.Add(1)
	if r.note != nil {
		r.note(kind, arg)
	}
}

func (r *run) enter() {
	n := r.entered.Add(1)
	r.step(noteEntered, "")
	if r.watch != nil {
		r.watch(n)
	}
}

func (r *run) refuse(reason lobby.Reason) {
	r.mu.Lock()
	r.refused[reason]++
	r.mu.Unlock()
	r.step(noteRefused, string(reason))
}

// finish counts a client paired and heard.
func (r *run) finish() {
	r.step(noteDone, "")
	for {
		l := r.last.Load()
		if d := int64(time.Since(r.start)); d <= l || r.last.CompareAndSwap(l, d) {
			break
		}
	}
	if r.done.Add(1) == int64(r.o.Clients) {
		close(r.allDone)
	}
}

// noteAfresh follows noteResumed for a resume that found no record.
const noteAfresh = "afresh"

// The lines a child writes to its parent, one per step, then one per
// client's outcome; and the lines the parent writes to its children.
const (
	noteDialled = 'c'
	noteEntered = 'e'
	notePaired  = 'p'
	noteDone    = 'd'
	noteResumed = 'r' // and noteAfresh when the client started again
	noteStray   = 's'
	noteRefused = 'x' // and the reason
	noteOutcome = 'o' // and the outcome in JSON
	noteMemory  = 'm' // and the child's heap and stack growth in bytes
	noteDead    = 'k' // from the parent: and the instance killed
	noteRelease = 'q' // from the parent: every client may stop
)

// Run starts the NATS servers and lobby instances, runs the clients and
// tears everything down. It returns an error when the setup fails, no
// client made progress for Options.Stall, or the run exceeded its
// timeout; what was not done then (unpaired clients by where they
// stopped, signals never heard) is in the Result.
func Run(ctx context.Context, o Options) (Result, error) {
	if o.Parallel == 0 {
		o.Parallel = 256
	}
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Minute
	}
	if o.Stall == 0 {
		o.Stall = 30 * time.Second
	}
	if o.Clients < 2 || o.Clients%2 != 0 || o.Instances < 1 || (o.NATSNodes != 1 && o.NATSNodes != 3) || o.Workers < 0 || (o.Workers > 0 && o.Command == nil) {
		return Result{}, errors.New("lobbyload: Clients must be even and 2 or more, Instances 1 or more, NATSNodes 1 or 3, Workers 0 or more (with a Command above 0)")
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()

	nodes, urls, err := startNATS(o)
	defer func() {
		for _, ns := range nodes {
			ns.Shutdown()
			ns.WaitForShutdown()
		}
	}()
	if err != nil {
		return Result{}, err
	}
	insts := make([]*instance, o.Instances)
	defer func() {
		for _, in := range insts {
			if in != nil {
				in.s.Close()
				in.ts.Close()
				in.nc.Close()
			}
		}
	}()
	for i := range insts {
		var nc *nats.Conn
		if o.NATSNodes == 1 {
			nc, err = server.ConnectEmbedded(nodes[0], fmt.Sprint("lobby-", i))
		} else {
			// Each instance prefers its own server and fails over to the others.
			own := []string{urls[i%len(urls)]}
			for j, u := range urls {
				if j != i%len(urls) {
					own = append(own, u)
				}
			}
			nc, err = server.Connect(strings.Join(own, ","), fmt.Sprint("lobby-", i))
		}
		if err != nil {
			return Result{}, err
		}
		s, err := newServer(ctx, nc, o, i)
		if err != nil {
			nc.Close()
			return Result{}, err
		}
		ts := httptest.NewServer(s)
		insts[i] = &instance{s: s, ts: ts, nc: nc}
	}

	r := &run{o: o, dead: make([]atomic.Bool, o.Instances), allDone: make(chan struct{}), refused: make(map[lobby.Reason]int)}
	for _, in := range insts {
		r.urls = append(r.urls, "ws"+strings.TrimPrefix(in.ts.URL, "http"))
	}
	var before goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)

	ws := &workers{}
	var killOnce, stopOnce sync.Once
	r.watch = func(n int64) {
		if o.KillAt > 0 && n >= int64(o.KillAt) && o.Instances > 1 {
			killOnce.Do(func() {
				in := insts[0]
				r.dead[0].Store(true)
				in.nc.Close() // a crash: nothing it held is cleaned up
				go func() {
					in.s.Close()
					in.ts.Close()
				}()
				ws.tell(fmt.Sprintf("%c %d", noteDead, 0))
			})
		}
		if o.StopNATSAt > 0 && n >= int64(o.StopNATSAt) && len(nodes) == 3 {
			stopOnce.Do(func() { go nodes[2].Shutdown() })
		}
	}

	out := make([]outcome, o.Clients)
	release, releaseAll := context.WithCancel(ctx)
	defer releaseAll()
	r.start = time.Now()
	var wg sync.WaitGroup
	if o.Workers == 0 {
		wg.Go(func() { r.clients(ctx, release, 0, out) })
	} else if err := ws.start(r, out); err != nil {
		releaseAll()
		return Result{}, errors.Join(err, ws.stop())
	}
	res := Result{Clients: o.Clients, Stuck: make(map[string]int), Unheard: make(map[string]int)}
	// Every client done, no progress for Stall, or the run's bound: what
	// is missing then is lost.
	stalled := r.waitProgress(ctx)
	var after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&after)
	res.BytesPerClient = float64(int64(after.HeapInuse+after.StackInuse)-int64(before.HeapInuse+before.StackInuse)) / float64(o.Clients)
	releaseAll()
	wg.Wait()
	werr := ws.stop()

	var paired []time.Duration
	byID := make(map[string]*outcome, len(out))
	for i := range out {
		byID[out[i].ID] = &out[i]
	}
	for _, c := range out {
		if c.Lat == 0 {
			if c.Stuck == "" {
				c.Stuck = "waiting" // connected and queued, no room came
			}
			res.Stuck[c.Stuck]++
			continue
		}
		paired = append(paired, c.Lat)
		if !c.Heard {
			res.Lost++
			peer := "peer unknown"
			if p := byID[c.Peer]; p != nil {
				peer = fmt.Sprintf("peer resumed %d", p.Resumes)
			}
			res.Unheard[fmt.Sprintf("resumed %d, %d before the room, %s, %s", c.Resumes, c.Early, peer, kept(insts[len(insts)-1].nc, c.ID))]++
		}
		if p := byID[c.Peer]; p == nil || p.Code != c.Code || p.Peer != c.ID {
			res.Split++
		}
	}
	res.Stray = int(r.stray.Load())
	res.Paired = len(paired)
	slices.Sort(paired)
	if len(paired) > 0 {
		res.P50 = paired[len(paired)/2]
		res.P99 = paired[min(len(paired)-1, len(paired)*99/100)]
	}
	res.Resumed = int(r.resumed.Load())
	res.Afresh = int(r.afresh.Load())
	res.Refused = r.refused
	res.Elapsed = time.Duration(r.last.Load())
	switch {
	case werr != nil:
		return res, werr
	case stalled && res.Paired < o.Clients || stalled && res.Lost > 0:
		return res, fmt.Errorf("lobbyload: no client made progress for %v with %d of %d clients done: %d paired, %d of them never heard their peer", o.Stall, r.done.Load(), o.Clients, res.Paired, res.Lost)
	case ctx.Err() != nil && r.done.Load() < int64(o.Clients):
		return res, fmt.Errorf("lobbyload: the run passed its %v bound with %d of %d clients done", o.Timeout, r.done.Load(), o.Clients)
	}
	return res, nil
}

// kept says whether the lobby still keeps signals for the client: one
// kept and never handed over, or one lost on the way.
func kept(nc *nats.Conn, id string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		return "mailbox unread: " + err.Error()
	}
	kv, err := js.KeyValue(ctx, "lobby")
	if err != nil {
		return "mailbox unread: " + err.Error()
	}
	e, err := kv.Get(ctx, "s."+id)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound), errors.Is(err, jetstream.ErrKeyDeleted):
		return "mailbox empty"
	case err != nil:
		return "mailbox unread: " + err.Error()
	}
	return fmt.Sprintf("mailbox keeps %d bytes", len(e.Value()))
}

// waitProgress returns when every client is done, the run's bound has
// passed, or (true) no client took a step for Options.Stall.
func (r *run) waitProgress(ctx context.Context) (stalled bool) {
	t := time.NewTicker(r.o.Stall / 4)
	defer t.Stop()
	seen, at := r.progress.Load(), time.Now()
	for {
		select {
		case <-r.allDone:
			return false
		case <-ctx.Done():
			return false
		case <-t.C:
		}
		if n := r.progress.Load(); n != seen {
			seen, at = n, time.Now()
		} else if time.Since(at) >= r.o.Stall {
			return true
		}
	}
}

// clients runs the clients of out, the first numbered from, at most
// Options.Parallel of them between dialling and paired at once, until
// release ends; out[i] is client from+i's outcome.
func (r *run) clients(ctx, release context.Context, from int, out []outcome) {
	slots := make(chan struct{}, r.o.Parallel)
	var wg sync.WaitGroup
	for i := range out {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() { r.client(ctx, release, from+i, slots, &out[i]) })
	}
	wg.Wait()
}

func newServer(ctx context.Context, nc *nats.Conn, o Options, i int) (*server.Server, error) {
	so := server.Options{NATS: nc, Instance: fmt.Sprint("lobby-", i), Replicas: o.NATSNodes, MaxClients: o.Clients + 1,
		QueueCheck: 2 * time.Second} // a room whose event died with its instance is told within seconds
	// A cluster that has just formed elects its JetStream leader first:
	// try until it answers, within the run's bound.
	for {
		// A request made before the leader is elected goes unanswered:
		// each try has its own short bound.
		tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		s, err := server.New(tctx, so)
		cancel()
		if err == nil || ctx.Err() != nil {
			return s, err
		}
		t := time.NewTimer(100 * time.Millisecond)
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
}

func startNATS(o Options) ([]*natsserver.Server, []string, error) {
	if o.NATSNodes == 1 {
		ns, err := server.StartNATS(server.NATSOptions{Dir: o.Dir + "/n0"})
		if err != nil {
			return nil, nil, err
		}
		return []*natsserver.Server{ns}, nil, nil
	}
	// Three servers, each given the cluster addresses of all three
	// (JetStream needs its routes configured, not learnt).
	var routes []string
	for range 3 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, nil, err
		}
		routes = append(routes, "nats://"+l.Addr().String())
		l.Close()
	}
	var nodes []*natsserver.Server
	var urls []string
	for i := range 3 {
		ns, err := server.StartNATS(server.NATSOptions{Name: fmt.Sprint("n", i), Dir: fmt.Sprintf("%s/n%d", o.Dir, i),
			ClientAddr: "127.0.0.1:0", Cluster: "lobbyload",
			ClusterAddr: strings.TrimPrefix(routes[i], "nats://"), Routes: routes})
		if err != nil {
			return nodes, nil, err
		}
		nodes = append(nodes, ns)
		urls = append(urls, ns.ClientURL())
	}
	return nodes, urls, nil
}

// outcome is what one client saw.
type outcome struct {
	Stuck string        `json:"s,omitempty"` // where a client that was never paired gave up
	Lat   time.Duration `json:"l,omitempty"` // from quick to the room event; 0: never paired
	Heard bool          `json:"h,omitempty"` // the peer's signal came
	ID    string        `json:"i,omitempty"`
	Peer  string        `json:"p,omitempty"`
	Code  string        `json:"c,omitempty"`
	// Resumes counts the client's resumes, Early those before its room
	// came.
	Resumes int `json:"r,omitempty"`
	Early   int `json:"e,omitempty"`
}

// client is one simulated player: it dials an instance, enters quick
// match, and once paired sends its peer one signal and waits for the
// peer's. When its connection drops it resumes on the next instance that
// is alive and sends its signal again, asking the peer to do the same.
// It stops when release ends.
func (r *run) client(ctx, release context.Context, i int, slots chan struct{}, o *outcome) {
	held := true
	free := func() {
		if held {
			<-slots
			held = false
		}
	}
	defer free()
	inst := i % len(r.urls)
	c, inst, err := r.dial(ctx, inst)
	if err != nil {
		o.Stuck = "dial failed"
		return
	}
	defer func() { c.Close() }()
	r.step(noteDialled, "")
	id, secret := c.Welcome().Client, c.Welcome().Secret
	defer func() { o.ID = id }()
	t0 := time.Now()
	if err := c.Quick(ctx, game, 2); err != nil {
		o.Stuck = "quick not sent"
		return
	}
	r.enter()
	var peer string
	paired, done := false, false
	for {
		m, err := c.Next(release)
		if err != nil {
			var refused *lobby.RefusedError
			if errors.As(err, &refused) {
				r.refuse(refused.Reason)
				// A store hiccup during a NATS failover: ask again.
				if refused.Reason == lobby.ReasonUnavailable {
					if paired {
						c.Signal(ctx, peer, "syn")
					} else {
						c.Quick(ctx, game, 2)
					}
				}
				continue
			}
			if release.Err() != nil {
				return
			}
			// The instance went away: resume on another, trying each a
			// few times while the cluster settles.
			c.Close()
			afresh := false
			for try := 0; ; try++ {
				if c, inst, err = r.dial(ctx, inst+1); err == nil {
					err = c.Resume(ctx, id, secret)
					if errors.As(err, &refused) && refused.Reason == lobby.ReasonForbidden && !paired {
						// The instance died before it recorded the client:
						// start afresh under the new connection's id.
						afresh = true
						id, secret = c.Welcome().Client, c.Welcome().Secret
						err = c.Quick(ctx, game, 2)
					}
					if err == nil {
						break
					}
					c.Close()
				}
				if try == 8 || ctx.Err() != nil {
					o.Stuck = "no instance took the resume"
					if errors.As(err, &refused) {
						o.Stuck += " (" + string(refused.Reason) + ")"
					}
					return
				}
				// A growing pause while the cluster settles: 3.6 s over
				// the nine tries.
				t := time.NewTimer(time.Duration(try+1) * 100 * time.Millisecond)
				select {
				case <-t.C:
				case <-ctx.Done():
				}
				t.Stop()
			}
			r.resumed.Add(1)
			if afresh {
				r.afresh.Add(1)
				r.step(noteResumed, noteAfresh)
			} else {
				r.step(noteResumed, "")
			}
			o.Resumes++
			if !paired {
				o.Early++
			}
			if paired {
				c.Signal(ctx, peer, "again")
			}
			continue
		}
		switch m.Type {
		case lobby.TypeRoom:
			if !paired {
				paired = true
				o.Lat = time.Since(t0)
				peer = m.Peers[1-m.Seat]
				o.Peer, o.Code = peer, m.Code
				r.step(notePaired, "")
				free()
				c.Signal(ctx, peer, "syn")
			}
		case lobby.TypeSignal:
			if !paired || m.Peer != peer {
				r.stray.Add(1)
				r.step(noteStray, "")
				continue
			}
			if m.Data == "again" {
				c.Signal(ctx, peer, "syn")
			}
			o.Heard = true
		}
		if paired && o.Heard && !done {
			done = true
			r.finish()
		}
	}
}

// dial connects to instance from, or the next live one.
func (r *run) dial(ctx context.Context, from int) (*lobby.Client, int, error) {
	var err error
	for k := range len(r.urls) {
		i := (from + k) % len(r.urls)
		if r.dead[i].Load() {
			continue
		}
		var c *lobby.Client
		if c, err = lobby.Dial(ctx, r.urls[i]); err == nil {
			return c, i, nil
		}
	}
	return nil, 0, err
}
