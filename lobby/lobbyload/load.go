// Package lobbyload measures the lobby under load on the loopback: many
// simulated clients entering quick match in pairs across lobby instances
// on a NATS cluster, all in one process, with an instance killed or a NATS
// server stopped in the middle if asked. cmd/lobbyload prints its figures;
// its test runs a small load in CI.
package lobbyload

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http/httptest"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

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
	// both ends (the simulated client's socket too) and NATS.
	BytesPerClient float64
	// Lost is the paired clients that never got their peer's signal.
	Lost int
	// Split is the paired clients whose peer is not in the same room with
	// them: a room lost or handed out twice. Stray is the signals that
	// came from a client that was not the peer.
	Split, Stray int
	// Resumed is how many times a client reconnected to another instance.
	Resumed int
	// Elapsed is from the first dial to the last client paired.
	Elapsed time.Duration
	// Refused counts the requests the lobby refused, by reason.
	Refused map[lobby.Reason]int
	// Stuck counts the clients never paired, by where they stopped.
	Stuck map[string]int
}

func (r Result) String() string {
	s := fmt.Sprintf("clients %d paired %d p50 %v p99 %v mem/client %.1f KiB lost %d split %d stray %d resumed %d in %v",
		r.Clients, r.Paired, r.P50.Round(time.Microsecond), r.P99.Round(time.Microsecond),
		r.BytesPerClient/1024, r.Lost, r.Split, r.Stray, r.Resumed, r.Elapsed.Round(time.Millisecond))
	for _, k := range slices.Sorted(maps.Keys(r.Refused)) {
		s += fmt.Sprintf(" refused(%s) %d", k, r.Refused[k])
	}
	for _, k := range slices.Sorted(maps.Keys(r.Stuck)) {
		s += fmt.Sprintf(" unpaired(%s) %d", k, r.Stuck[k])
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
	o       Options
	urls    []string
	dead    []atomic.Bool
	entered atomic.Int64
	resumed atomic.Int64
	stray   atomic.Int64
	done    atomic.Int64
	allDone chan struct{}

	mu      sync.Mutex
	refused map[lobby.Reason]int
}

// Run starts the NATS servers and lobby instances, runs the clients and
// tears everything down. It returns an error when the setup fails or the
// run exceeds its timeout; clients that were not paired are in the Result.
func Run(ctx context.Context, o Options) (Result, error) {
	if o.Parallel == 0 {
		o.Parallel = 256
	}
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Minute
	}
	if o.Clients < 2 || o.Clients%2 != 0 || o.Instances < 1 || (o.NATSNodes != 1 && o.NATSNodes != 3) {
		return Result{}, errors.New("lobbyload: Clients must be even and 2 or more, Instances 1 or more, NATSNodes 1 or 3")
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

	var killOnce, stopOnce sync.Once
	watch := func(n int64) {
		if o.KillAt > 0 && n >= int64(o.KillAt) && o.Instances > 1 {
			killOnce.Do(func() {
				in := insts[0]
				r.dead[0].Store(true)
				in.nc.Close() // a crash: nothing it held is cleaned up
				go func() {
					in.s.Close()
					in.ts.Close()
				}()
			})
		}
		if o.StopNATSAt > 0 && n >= int64(o.StopNATSAt) && len(nodes) == 3 {
			stopOnce.Do(func() { go nodes[2].Shutdown() })
		}
	}

	out := make([]outcome, o.Clients)
	release, releaseAll := context.WithCancel(ctx)
	defer releaseAll()
	slots := make(chan struct{}, o.Parallel)
	var wg sync.WaitGroup
	start := time.Now()
	var last atomic.Int64
	for i := range o.Clients {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			r.client(ctx, release, i, slots, &out[i], watch, start, &last)
		})
	}
	res := Result{Clients: o.Clients, Stuck: make(map[string]int)}
	// Every client done, or the run's bound: what is missing then is
	// lost.
	select {
	case <-r.allDone:
	case <-ctx.Done():
	}
	var after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&after)
	res.BytesPerClient = float64(int64(after.HeapInuse+after.StackInuse)-int64(before.HeapInuse+before.StackInuse)) / float64(o.Clients)
	releaseAll()
	wg.Wait()

	var paired []time.Duration
	byID := make(map[string]*outcome, len(out))
	for i := range out {
		byID[out[i].id] = &out[i]
	}
	for _, c := range out {
		if c.lat == 0 {
			if c.stuck == "" {
				c.stuck = "waiting" // connected and queued, no room came
			}
			res.Stuck[c.stuck]++
			continue
		}
		paired = append(paired, c.lat)
		if !c.heard {
			res.Lost++
		}
		if p := byID[c.peer]; p == nil || p.code != c.code || p.peer != c.id {
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
	res.Refused = r.refused
	res.Elapsed = time.Duration(last.Load())
	if err := ctx.Err(); err != nil && res.Paired < o.Clients {
		return res, fmt.Errorf("lobbyload: the run passed its %v bound with %d of %d clients done", o.Timeout, r.done.Load(), o.Clients)
	}
	return res, nil
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

// client is one simulated player: it dials an instance, enters quick
// match, and once paired sends its peer one signal and waits for the
// peer's. When its connection drops it resumes on the next instance that
// is alive and sends its signal again, asking the peer to do the same.
// outcome is what one client saw.
type outcome struct {
	stuck          string        // where a client that was never paired gave up
	lat            time.Duration // from quick to the room event; 0: never paired
	heard          bool          // the peer's signal came
	id, peer, code string
}

func (r *run) client(ctx, release context.Context, i int, slots chan struct{}, o *outcome, watch func(int64), start time.Time, last *atomic.Int64) {
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
		o.stuck = "dial failed"
		return
	}
	defer func() { c.Close() }()
	id, secret := c.Welcome().Client, c.Welcome().Secret
	defer func() { o.id = id }()
	t0 := time.Now()
	if err := c.Quick(ctx, game, 2); err != nil {
		o.stuck = "quick not sent"
		return
	}
	watch(r.entered.Add(1))
	var peer string
	paired, done := false, false
	for {
		m, err := c.Next(release)
		if err != nil {
			var refused *lobby.RefusedError
			if errors.As(err, &refused) {
				r.mu.Lock()
				r.refused[refused.Reason]++
				r.mu.Unlock()
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
			for try := 0; ; try++ {
				if c, inst, err = r.dial(ctx, inst+1); err == nil {
					err = c.Resume(ctx, id, secret)
					if errors.As(err, &refused) && refused.Reason == lobby.ReasonForbidden && !paired {
						// The instance died before it recorded the client:
						// start afresh under the new connection's id.
						id, secret = c.Welcome().Client, c.Welcome().Secret
						err = c.Quick(ctx, game, 2)
					}
					if err == nil {
						break
					}
					c.Close()
				}
				if try == 8 || ctx.Err() != nil {
					o.stuck = "no instance took the resume"
					return
				}
			}
			r.resumed.Add(1)
			if paired {
				c.Signal(ctx, peer, "again")
			}
			continue
		}
		switch m.Type {
		case lobby.TypeRoom:
			if !paired {
				paired = true
				o.lat = time.Since(t0)
				peer = m.Peers[1-m.Seat]
				o.peer, o.code = peer, m.Code
				free()
				c.Signal(ctx, peer, "syn")
			}
		case lobby.TypeSignal:
			if !paired || m.Peer != peer {
				r.stray.Add(1)
				continue
			}
			if m.Data == "again" {
				c.Signal(ctx, peer, "syn")
			}
			o.heard = true
		}
		if paired && o.heard && !done {
			done = true
			for {
				l := last.Load()
				if d := int64(time.Since(start)); d <= l || last.CompareAndSwap(l, d) {
					break
				}
			}
			if r.done.Add(1) == int64(r.o.Clients) {
				close(r.allDone)
			}
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
