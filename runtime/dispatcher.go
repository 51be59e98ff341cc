package runtime

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/metronome-go/metronome/runtime/work"
)

// PlatformDispatcher carries work to the platform thread, which owns the
// window and the graphics context. Any goroutine may submit; the runtime runs
// the queued work in FIFO batches at the start of each cycle, before it polls
// input, also while the input backlog is full. Work submitted while a batch
// runs (a nested submission) waits for the next batch, so one cycle's batch is
// bounded. At shutdown the runtime settles the batch accepted so far and
// cancels whatever is still queued with [ErrCanceled]; later submissions fail
// at once with [work.ErrClosed].
//
// Work must leave the graphics context current and must not capture live
// simulation objects: pass owned values in, and publish the result (a texture
// handle, say) through a later frame.
//
// The dispatcher in [Simulation] is the simulation owner's handle: its
// requests are numbered apart from everyone else's, so a recording can say
// which of them each update saw and a replay shows the same ones on the
// same updates, however many requests the platform thread, workers and
// tools made meanwhile (their number and order follow the machine's
// timing). Submit through it on the simulation owner only; other
// goroutines submit through [PlatformDispatcher.Shared].
type PlatformDispatcher struct {
	// of is the dispatcher whose queue a simulation owner's handle
	// shares; nil for the dispatcher itself.
	of *PlatformDispatcher

	mu      sync.Mutex
	queue   []platformJob
	spare   []platformJob
	closed  bool
	pending atomic.Int32
	wake    func()

	// Requests are numbered in queue order and settle in that order, so
	// "the first n settled" says exactly which futures are done.
	// completed counts settled requests; visible is the simulation's view
	// of it, moved at the start of each update (or to a recorded value
	// during a replay), so which results an update sees is a fact of the
	// session that a recording can keep.
	queued, completed, visible atomic.Uint64
	// The same three for the requests submitted through the simulation
	// owner's handle alone: what a recording keeps.
	ownQueued, ownCompleted, ownVisible atomic.Uint64
	// byCount replays a recording of format 6 or older, whose watermarks
	// count every request: the simulation's results are then told apart
	// by their place among all requests, as those recordings were made.
	byCount bool
	// revealing says how visible moves; a simulation hook outside the
	// updates (InitSimulation, DeinitSimulation) changes it while it runs.
	revealing atomic.Uint32
	// arrived is signalled by every submission, for a replay waiting for
	// work the recording says came.
	arrived signal
}

// signal is a level-triggered notification: any number of notifies before
// a wait count once.
type signal struct {
	once sync.Once
	c    chan struct{}
}

func (s *signal) ch() chan struct{} {
	s.once.Do(func() { s.c = make(chan struct{}, 1) })
	return s.c
}

func (s *signal) notify() {
	select {
	case s.ch() <- struct{}{}:
	default:
	}
}

type platformJob interface {
	run()
	cancel(error)
	fromOwner() bool
}

// How results become visible to the simulation (PlatformDispatcher.revealing).
const (
	// revealAtUpdates: visible moves at the start of each update, so one
	// update sees the same results from its start to its end.
	revealAtUpdates uint32 = iota
	// revealWhenSettled: a simulation hook runs, and may wait for
	// platform work; a result is visible as soon as it is settled.
	revealWhenSettled
	// revealRecorded: a replayed hook runs; the results the recorded hook
	// saw (below visible) are visible, each once it is settled.
	revealRecorded
)

// Future is the result of work submitted to a [PlatformDispatcher]. Inspect
// it without blocking from an update ([Future.Ready], [Future.Result]); a
// simulation must not block on it.
type Future[T any] struct {
	done chan struct{}
	val  T
	err  error
	work func() (T, error)
	d    *PlatformDispatcher // nil: settled at submission
	seq  uint64
	// own marks a request of the simulation owner's handle; ownSeq is
	// its number among those.
	own    bool
	ownSeq uint64
}

// Done returns a channel closed when the work has run or was canceled.
func (f *Future[T]) Done() <-chan struct{} { return f.done }

// Ready reports whether the result is available. Results become available
// to the simulation at the start of an update, and during InitSimulation
// and DeinitSimulation as soon as they are settled (such a hook in
// concurrent mode may wait for Done). A recording keeps what each update
// and hook saw, so a session and its replay see the same results.
func (f *Future[T]) Ready() bool {
	d := f.d
	if d != nil {
		switch d.revealing.Load() {
		case revealWhenSettled:
			select {
			case <-f.done:
				// Requests settle in order: every earlier one is
				// settled too.
				revealAtLeast(&d.visible, f.seq+1)
				if f.own {
					revealAtLeast(&d.ownVisible, f.ownSeq+1)
				}
				return true
			default:
				return false
			}
		case revealRecorded:
			if !d.sees(f.own, f.seq, f.ownSeq) {
				return false
			}
			// The recorded hook saw it: the platform thread, which runs
			// beside a replayed hook that may wait, is settling it.
			<-f.done
			return true
		}
	}
	select {
	case <-f.done:
		return d == nil || d.sees(f.own, f.seq, f.ownSeq)
	default:
		return false
	}
}

// sees reports whether the simulation sees the request numbered seq (and
// ownSeq among the simulation owner's, for own).
func (d *PlatformDispatcher) sees(own bool, seq, ownSeq uint64) bool {
	if own && !d.byCount {
		return ownSeq < d.ownVisible.Load()
	}
	return seq < d.visible.Load()
}

// Result returns the work's value and error once ready. Before that it
// returns the zero value and [ErrPending]. A canceled request reports
// [ErrCanceled] or [work.ErrClosed]; a panic in the work is a [work.PanicError].
func (f *Future[T]) Result() (T, error) {
	if !f.Ready() {
		var zero T
		return zero, ErrPending
	}
	return f.val, f.err
}

func (f *Future[T]) run() {
	var v T
	err := guard(func() error {
		var err error
		v, err = f.work()
		return err
	})
	f.val, f.err, f.work = v, err, nil
	close(f.done)
}

func (f *Future[T]) cancel(err error) {
	f.err, f.work = err, nil
	close(f.done)
}

func (f *Future[T]) fromOwner() bool { return f.own }

// Submit queues work for the platform thread of d and returns its future. It
// is safe to call from any goroutine, including from platform work itself
// (the nested work runs in the next batch), except through the simulation
// owner's handle (see [PlatformDispatcher]), which is for the simulation
// owner alone.
func Submit[T any](d *PlatformDispatcher, fn func() (T, error)) *Future[T] {
	f := &Future[T]{done: make(chan struct{}), work: fn}
	if d.of != nil {
		d, f.own = d.of, true
	}
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		f.cancel(work.ErrClosed)
		return f
	}
	f.d, f.seq = d, d.queued.Load()
	d.queued.Add(1)
	if f.own {
		f.ownSeq = d.ownQueued.Load()
		d.ownQueued.Add(1)
	}
	d.queue = append(d.queue, f)
	d.pending.Add(1)
	d.mu.Unlock()
	d.arrived.notify()
	if d.wake != nil {
		d.wake()
	}
	return f
}

// Do queues work that has no value; see [Submit].
func (d *PlatformDispatcher) Do(fn func() error) *Future[struct{}] {
	return Submit(d, func() (struct{}, error) { return struct{}{}, fn() })
}

// Pending returns the number of queued requests that have not run.
func (d *PlatformDispatcher) Pending() int { return int(d.Shared().pending.Load()) }

// Shared returns the handle of d's queue that any goroutine may submit
// through: d itself, or the dispatcher behind the simulation owner's
// handle. Work that the platform thread queues for itself (a budgeted
// upload that continues in the next batch), workers' uploads and tools'
// requests go through it, so that the simulation's own requests keep
// their numbers in a replay.
func (d *PlatformDispatcher) Shared() *PlatformDispatcher {
	if d.of != nil {
		return d.of
	}
	return d
}

// drain runs the batch queued so far, in order, and returns how many ran.
// Platform thread only.
func (d *PlatformDispatcher) drain() int {
	if d.pending.Load() == 0 {
		return 0
	}
	d.mu.Lock()
	batch := d.queue
	d.queue = d.spare[:0]
	d.spare = nil
	d.pending.Add(-int32(len(batch)))
	d.mu.Unlock()
	for i, j := range batch {
		j.run()
		d.settled(j)
		batch[i] = nil
	}
	d.mu.Lock()
	if d.spare == nil {
		d.spare = batch[:0]
	}
	d.mu.Unlock()
	return len(batch)
}

// close refuses further submissions and cancels everything still queued.
func (d *PlatformDispatcher) close() {
	d.mu.Lock()
	d.closed = true
	batch := d.queue
	d.queue = nil
	d.pending.Store(0)
	d.mu.Unlock()
	for _, j := range batch {
		j.cancel(ErrCanceled)
		d.settled(j)
	}
	d.visible.Store(math.MaxUint64)
	d.ownVisible.Store(math.MaxUint64)
}

// settled counts j, which has run or was canceled.
func (d *PlatformDispatcher) settled(j platformJob) {
	if j.fromOwner() {
		d.ownCompleted.Add(1)
	}
	d.completed.Add(1)
}

// revealAtLeast makes at least n settled requests of a watermark visible.
func revealAtLeast(visible *atomic.Uint64, n uint64) {
	for {
		v := visible.Load()
		if v >= n || visible.CompareAndSwap(v, n) {
			return
		}
	}
}

// revealSettled makes every settled request visible and returns the
// watermark a recording keeps: how many of the simulation owner's
// requests that is.
func (d *PlatformDispatcher) revealSettled() uint64 {
	d.visible.Store(d.completed.Load())
	n := d.ownCompleted.Load()
	d.ownVisible.Store(n)
	return n
}

// recorded returns the watermark a recording keeps as it stands now (a
// hook's, which moves while the hook runs).
func (d *PlatformDispatcher) recorded() uint64 { return d.ownVisible.Load() }

// settledFor reports whether the results a recorded watermark n stands
// for have all settled.
func (d *PlatformDispatcher) settledFor(n uint64) bool {
	if d.byCount {
		return d.completed.Load() >= n
	}
	return d.ownCompleted.Load() >= n
}

// revealRecorded makes visible the results a recorded watermark n stands
// for (settled: see settledFor), and every other request settled so far:
// the simulation's own results are the recording's, the rest are not the
// simulation's to replay.
func (d *PlatformDispatcher) revealRecorded(n uint64) {
	if d.byCount {
		d.visible.Store(n)
		return
	}
	d.visible.Store(d.completed.Load())
	d.ownVisible.Store(n)
}

// Mailbox carries work to the simulation owner. Each update first drains the
// mailbox: the work posted before the drain began runs, in order, before the
// update's hook. Work posted during a drain belongs to a later update, which
// may be the next update of the same batch. At shutdown the simulation owner
// discards what is still queued.
type Mailbox struct {
	mu      sync.Mutex
	queue   []func()
	spare   []func()
	closed  bool
	pending atomic.Int32
	arrived signal
}

// Post queues work for the simulation owner. It is safe from any goroutine
// and returns [work.ErrClosed] once the session's simulation has stopped.
func (m *Mailbox) Post(fn func()) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return work.ErrClosed
	}
	m.queue = append(m.queue, fn)
	m.pending.Add(1)
	m.arrived.notify()
	return nil
}

// Pending returns the number of queued items.
func (m *Mailbox) Pending() int { return int(m.pending.Load()) }

// drain runs the current batch. It stops at the first panic, reporting it,
// and drops the rest of the batch: the session is failing anyway.
func (m *Mailbox) drain() error {
	_, err := m.drainN(-1)
	return err
}

// drainN runs the oldest limit items queued (every item for a negative
// limit) and returns how many it took.
func (m *Mailbox) drainN(limit int) (int, error) {
	if m.pending.Load() == 0 || limit == 0 {
		return 0, nil
	}
	m.mu.Lock()
	batch := m.queue
	if limit >= 0 && limit < len(batch) {
		// Take a prefix; the rest moves to the front of a fresh queue.
		rest := append(m.spare[:0], batch[limit:]...)
		batch = batch[:limit:limit]
		m.queue, m.spare = rest, nil
	} else {
		m.queue = m.spare[:0]
		m.spare = nil
	}
	m.pending.Add(-int32(len(batch)))
	m.mu.Unlock()
	var err error
	for i, work := range batch {
		if err == nil {
			err = guard(func() error { work(); return nil })
		}
		batch[i] = nil
	}
	m.mu.Lock()
	if m.spare == nil {
		m.spare = batch[:0]
	}
	m.mu.Unlock()
	return len(batch), err
}

// close refuses further posts and discards what is queued; it returns how
// many items were discarded.
func (m *Mailbox) close() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	n := len(m.queue)
	m.queue = nil
	m.pending.Store(0)
	return n
}
