package work

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/option"
)

// Bounds of [Options].
const (
	MaxWorkers       = 1024
	MaxSettleTimeout = time.Minute
)

var (
	// ErrClosed is returned when work is handed to a group, a pool or a
	// game session's queues once they no longer accept it: closed,
	// canceled, failed or shutting down.
	ErrClosed = errors.New("work: no longer accepting work (closed or shutting down)")
	// ErrGroupCanceled is the cause a job's context reports after
	// [Group.Cancel].
	ErrGroupCanceled = errors.New("work: worker group canceled")
	// ErrNoSession is returned by [Go] and [GoPlatform] for a group that
	// no session created: only a session's groups know where its results
	// go.
	ErrNoSession = errors.New("work: worker group belongs to no session; get it from a Session")
	// ErrSettleTimeout is the failure of a settle whose accepted jobs were
	// still running after [Options.SettleTimeout].
	ErrSettleTimeout = errors.New("work: accepted worker jobs did not settle in time")
)

// Options choose the worker pool a session's groups run on. The zero
// value is an owned pool of GOMAXPROCS workers that waits for every job
// at shutdown.
type Options struct {
	// Workers is the capacity of the pool the session owns: at most this
	// many jobs run at once. Its goroutines start one by one as jobs
	// arrive, so a session that never submits a job starts none. 0 is
	// GOMAXPROCS when the session is made; 0 to 1024. Must be 0 when Pool
	// is set.
	Workers int
	// Pool, when set, is an application pool the session borrows instead
	// of owning one: the session creates its groups on it, settles only
	// those at shutdown and leaves the pool and its other groups open.
	// The application closes it.
	Pool *Pool `toml:"-"`
	// SettleTimeout bounds how long a shutdown waits for accepted jobs to
	// finish. Past it the session fails with [ErrSettleTimeout] in
	// the runtime's settle phase and cleanup goes on without them (an owned pool is
	// then closed but not joined). 0 (the default) waits for every job:
	// cleanup frees resources those jobs may still use. 0 to 1 min.
	SettleTimeout time.Duration
	// Background runs the owned pool's workers on threads of their own at
	// a lower OS priority (on Linux the kernel's idle scheduling class,
	// SCHED_IDLE, or [BackgroundNice] where that is refused), so that on a
	// machine with few cores a long background load yields the CPU to the
	// loop and the renderer instead of stretching frames: the kernel
	// preempts an idle-class worker the moment a game thread wakes. The
	// price is latency: waking an idle worker on its own thread takes tens
	// of microseconds more (about 0.07 ms against 0.7 µs for a job's round
	// trip here), which matters for many small jobs waited on within a
	// frame, not for loading.
	//
	// Background workers also bring Go processors of their own: from the
	// first job until the pool is closed, GOMAXPROCS is raised by the
	// pool's capacity, so that a worker whose thread the operating system
	// leaves waiting never holds a processor the platform thread needs
	// (it would wait for the Go scheduler to preempt the worker: up to a
	// 10 ms time slice, tens of milliseconds on a loaded machine). Like
	// any call to runtime.GOMAXPROCS, this ends the Go runtime's own
	// updates of GOMAXPROCS from the CPU limit.
	Background bool `toml:"background_workers"`
}

// BackgroundNice is the nice value a background pool's worker threads
// take on Linux (where a thread's priority is its own) beside the idle
// scheduling class, and the whole of their lowered priority where the
// kernel refuses that class. Elsewhere workers keep the process's
// priority.
const BackgroundNice = 10

// Validate reports every invalid field at once, each an *[option.Error],
// joined with errors.Join.
func (o Options) Validate() error {
	var errs []error
	bad := func(field string, value any, problem, allowed string) {
		errs = append(errs, &option.Error{Pkg: "work", Field: field, Value: value, Problem: problem, Allowed: allowed})
	}
	if o.Workers < 0 || o.Workers > MaxWorkers {
		bad("Options.Workers", o.Workers, "is out of range", fmt.Sprintf("0 (GOMAXPROCS) to %d", MaxWorkers))
	} else if o.Workers != 0 && o.Pool != nil {
		bad("Options.Workers", o.Workers, "is set together with Options.Pool", "0 when a pool is supplied")
	}
	if o.SettleTimeout < 0 || o.SettleTimeout > MaxSettleTimeout {
		bad("Options.SettleTimeout", o.SettleTimeout, "is out of range", fmt.Sprintf("0 (no limit) to %v", MaxSettleTimeout))
	}
	return errors.Join(errs...)
}

// Job is CPU work for a [Pool]: decode a level, build a navigation
// mesh, generate a chunk. Run gets the context of its group, done when the
// group is canceled or fails, or when its session stops; a long job
// should check it and return early. A job must not touch simulation
// state: it hands its result over to the simulation owner or the platform
// thread (see [Go] and [GoPlatform]).
//
// Submitting a pointer to a job the caller reuses (a pooled job type)
// allocates nothing on submission or completion. Every accepted job runs
// exactly once, also after its group was canceled (its context is done
// then), so a pooled job always comes back to its pool.
type Job interface {
	Run(ctx context.Context)
}

// JobFunc adapts a function to [Job].
type JobFunc func(ctx context.Context)

// Run calls f.
func (f JobFunc) Run(ctx context.Context) { f(ctx) }

// Pool runs jobs on at most a fixed number of goroutines, started
// one by one as work arrives. Jobs are submitted through groups
// ([Pool.Group]), which track and cancel them. A [Session] owns one
// unless [Options.Pool] lends it an application pool; an
// application pool outlives sessions and is closed by its owner.
type Pool struct {
	capacity int
	nice     int // the workers' nice value; 0 keeps the process's

	mu      sync.Mutex
	cond    sync.Cond // idle workers wait here
	queue   []task    // ring buffer of n tasks from head
	head, n int
	started int // live worker goroutines
	idle    int // workers waiting on cond and not yet signalled
	closed  bool
	lent    int // processors added to GOMAXPROCS for the workers (background)
	wg      sync.WaitGroup
}

type task struct {
	job   Job
	group *Group
}

// NewPool returns a pool of at most workers goroutines (0 is
// GOMAXPROCS; 0 to [MaxWorkers]) at the process's priority. No goroutine
// starts before the first job.
func NewPool(workers int) (*Pool, error) {
	return newPool(workers, 0)
}

func newPool(workers, nice int) (*Pool, error) {
	if workers < 0 || workers > MaxWorkers {
		return nil, &option.Error{Pkg: "work", Field: "workers", Value: workers, Problem: "is out of range", Allowed: fmt.Sprintf("0 (GOMAXPROCS) to %d", MaxWorkers)}
	}
	if workers == 0 {
		workers = goruntime.GOMAXPROCS(0)
	}
	p := &Pool{capacity: workers, nice: nice}
	p.cond.L = &p.mu
	return p, nil
}

// Capacity returns the most jobs that run at once.
func (p *Pool) Capacity() int { return p.capacity }

// Running returns how many worker goroutines are alive: 0 before the first
// job and after [Pool.Close] returns.
func (p *Pool) Running() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.started
}

// Group returns a new group of the pool named name (for diagnostics). Its
// jobs' contexts are done only when the group is canceled or fails. Use
// [Session.Group] instead for work whose results go to a session.
func (p *Pool) Group(name string) *Group {
	return p.newGroup(name, context.Background(), nil)
}

// Close refuses further jobs in every group, lets the queued and running
// ones finish and waits for the worker goroutines to end. It is safe to
// repeat; do not call it from a job (it would wait for itself).
func (p *Pool) Close() {
	p.refuse()
	p.wg.Wait()
	p.mu.Lock()
	lent := p.lent
	p.lent = 0
	p.mu.Unlock()
	if lent > 0 {
		extraProcs.add(-lent) // no worker of the pool is left
	}
}

// refuse refuses further jobs and lets idle workers end, without waiting.
func (p *Pool) refuse() {
	p.mu.Lock()
	p.closed = true
	p.idle = 0
	p.cond.Broadcast()
	p.mu.Unlock()
}

// push queues t and makes sure a worker will take it.
func (p *Pool) push(t task) error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return ErrClosed
	}
	if p.n == len(p.queue) {
		p.grow()
	}
	p.queue[(p.head+p.n)%len(p.queue)] = t
	p.n++
	switch {
	case p.idle > 0:
		// The signalled worker is off the idle count from now on, so the
		// next job signals another one instead of waking the same.
		p.idle--
		p.cond.Signal()
	case p.started < p.capacity:
		if p.nice > 0 && p.lent == 0 {
			// The pool's first worker: processors come before any
			// worker runs and stay until Close (see procLender).
			p.lent = p.capacity
			extraProcs.add(p.lent)
		}
		p.started++
		p.wg.Add(1)
		go p.work()
	}
	p.mu.Unlock()
	return nil
}

func (p *Pool) grow() {
	next := make([]task, max(16, 2*len(p.queue)))
	for i := range p.n {
		next[i] = p.queue[(p.head+i)%len(p.queue)]
	}
	p.queue, p.head = next, 0
}

// work is a worker goroutine: it takes tasks in order until the pool is
// closed and empty.
func (p *Pool) work() {
	defer p.wg.Done()
	if p.nice > 0 {
		// The worker keeps its thread for life, so the thread's priority
		// is the worker's alone; a locked goroutine that returns takes its
		// thread with it, and no other goroutine ever runs at the lowered
		// priority.
		goruntime.LockOSThread()
		lowerThreadPriority(p.nice)
	}
	p.mu.Lock()
	for {
		for p.n == 0 && !p.closed {
			p.idle++
			p.cond.Wait() // whoever wakes us has taken us off idle
		}
		if p.n == 0 {
			p.started--
			p.mu.Unlock()
			return
		}
		t := p.queue[p.head]
		p.queue[p.head] = task{}
		p.head = (p.head + 1) % len(p.queue)
		p.n--
		p.mu.Unlock()
		t.group.run(t.job)
		p.mu.Lock()
	}
}

// procLender raises GOMAXPROCS by a background pool's capacity while its
// workers may run, so that they never hold a Go processor the game's
// goroutines need. A background worker's thread runs at a lower priority,
// and the operating system may leave it waiting while it holds a
// processor; had it taken one of the game's, the platform thread coming
// back from a graphics call would find every processor held and wait for
// the Go scheduler to preempt a worker (up to a 10 ms time slice, and
// tens of milliseconds on a loaded machine, in which the worker's thread
// waits for the CPU too). With processors of their own the workers
// compete with the game's threads only in the operating system's
// scheduler, where their priority is lower.
//
// GOMAXPROCS changes only while none of the pool's workers exist: before
// the first starts and after they have all ended. Changing it stops the
// world, which waits for every running goroutine, a low-priority worker
// the operating system has left waiting among them (measured: pauses of
// 50 ms on a loaded machine when it changed around each job).
var extraProcs procLender

type procLender struct{ mu sync.Mutex }

// add raises GOMAXPROCS by d (lowers it for d < 0) from its present
// value, so that a change the game makes meanwhile is kept.
func (l *procLender) add(d int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	goruntime.GOMAXPROCS(max(1, goruntime.GOMAXPROCS(0)+d))
}

// tracker counts a session's accepted jobs across all its groups and
// closes their acceptance at once, so that the session need not keep a
// list of the groups it handed out.
type tracker struct {
	closed atomic.Bool
	active atomic.Int64
	wake   func() // ends the platform's settle wait early; nil outside a session
}

// admit counts one job in, unless acceptance is closed. Counting first and
// checking second means that once close has stored the flag, every job it
// did not see counted refuses itself: the settle loop cannot miss one.
func (t *tracker) admit() bool {
	t.active.Add(1)
	if t.closed.Load() {
		t.release()
		return false
	}
	return true
}

func (t *tracker) release() {
	if t.active.Add(-1) == 0 && t.closed.Load() && t.wake != nil {
		t.wake()
	}
}

// Stats are a group's counts, read with [Group.Stats]: progress is
// Finished out of Accepted.
type Stats struct {
	// Accepted counts jobs the group took; Finished those that have run
	// (a panicking job included); Panicked those that panicked.
	Accepted, Finished, Panicked uint64
	// Active is Accepted - Finished: queued or running jobs.
	Active int
}

// Group tracks a set of jobs on a [Pool]: it accepts them until it is
// closed, canceled or fails, gives them one context, counts them and
// reports the first panic. Its methods are safe from any goroutine; the
// simulation reads it without blocking ([Group.Idle], [Group.Stats],
// [Group.Err]) and never calls [Group.Wait].
//
// A job that panics fails its group, not the session: the group's Err
// reports the [*PanicError], its context is canceled with that cause (the
// other jobs see it done) and it accepts nothing more. The helpers [Go]
// and [GoPlatform] also hand the panic to whoever waits for the result,
// so it is not lost when nobody reads Err.
type Group struct {
	pool   *Pool
	name   string
	ctx    context.Context
	cancel context.CancelCauseFunc
	track  *tracker // the session's; nil for an application group
	sess   *Session // where results go (Go, GoPlatform); nil for an application group

	mu                           sync.Mutex
	cond                         sync.Cond // Wait waits here
	closed                       bool
	waiting                      int
	active                       int
	accepted, finished, panicked uint64
	err                          error
}

func (p *Pool) newGroup(name string, parent context.Context, sess *Session) *Group {
	g := &Group{pool: p, name: name, sess: sess}
	if sess != nil {
		g.track = &sess.track
	}
	g.ctx, g.cancel = context.WithCancelCause(parent)
	g.cond.L = &g.mu
	return g
}

// Name returns the name the group was created with.
func (g *Group) Name() string { return g.name }

// Submit queues j. It returns [ErrClosed] once the group no longer
// accepts work (closed, canceled, failed, its session stopping or its pool
// closed) and an error for a nil job; an accepted job runs exactly once.
func (g *Group) Submit(j Job) error {
	if j == nil {
		return fmt.Errorf("work: nil job submitted to worker group %q", g.name)
	}
	if g.track != nil && !g.track.admit() {
		return ErrClosed
	}
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		if g.track != nil {
			g.track.release()
		}
		return ErrClosed
	}
	g.active++
	g.accepted++
	g.mu.Unlock()
	if err := g.pool.push(task{job: j, group: g}); err != nil {
		g.mu.Lock()
		g.accepted--
		g.mu.Unlock()
		g.done()
		return err
	}
	return nil
}

// Close stops accepting jobs; the accepted ones go on. Close a group you
// no longer need: once it is closed and idle its context is released.
func (g *Group) Close() {
	g.mu.Lock()
	g.closed = true
	idle := g.active == 0
	g.mu.Unlock()
	if idle {
		g.cancel(ErrClosed)
	}
}

// Cancel stops accepting jobs and makes the context of every accepted job
// done, with [ErrGroupCanceled] as its cause. Jobs still queued run too,
// with a done context, so that each accepted job runs once.
func (g *Group) Cancel() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.cancel(ErrGroupCanceled)
}

// Err returns the group's failure: the first job panic as a *[PanicError],
// or nil.
func (g *Group) Err() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.err
}

// Idle reports whether no accepted job is queued or running.
func (g *Group) Idle() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.active == 0
}

// Stats returns the group's counts.
func (g *Group) Stats() Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	return Stats{Accepted: g.accepted, Finished: g.finished, Panicked: g.panicked, Active: g.active}
}

// Wait blocks until every accepted job has run and returns [Group.Err].
// Jobs accepted while it waits are waited for too. Never call it on the
// simulation owner or the platform thread while a job may need their
// work (a mailbox delivery, a dispatcher request): it would wait for
// itself.
func (g *Group) Wait() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waiting++
	for g.active > 0 {
		g.cond.Wait()
	}
	g.waiting--
	return g.err
}

// run runs one job on a worker and accounts for it, also when it panics.
func (g *Group) run(j Job) {
	ok := false
	defer func() {
		if !ok {
			g.fail(&PanicError{Value: recover(), Stack: debug.Stack()})
		}
		g.done()
	}()
	j.Run(g.ctx)
	ok = true
}

// fail records a panic and cancels the group with it.
func (g *Group) fail(pe *PanicError) {
	g.mu.Lock()
	g.panicked++
	g.closed = true
	if g.err == nil {
		g.err = pe
	}
	g.mu.Unlock()
	g.cancel(pe)
}

// done counts one accepted job out.
func (g *Group) done() {
	g.mu.Lock()
	g.active--
	g.finished++
	idle := g.active == 0
	if idle && g.waiting > 0 {
		g.cond.Broadcast()
	}
	release := idle && g.closed
	g.mu.Unlock()
	if release {
		g.cancel(ErrClosed)
	}
	if g.track != nil {
		g.track.release()
	}
}
