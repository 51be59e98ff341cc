package work

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// settleWait bounds each of the owner's waits while accepted jobs settle:
// short enough that the platform work a job waits on runs promptly, and a
// bound that holds even when no wake arrives.
const settleWait = time.Millisecond

// Session hands out the worker groups of one game session. Its groups'
// job contexts are done once the session closes, and its owner settles
// their accepted jobs at shutdown ([Session.Settle]). A game gets it from
// its runtime; only the owner (the runtime) calls Close and Settle.
type Session struct {
	pool   *Pool
	owned  bool
	track  tracker
	ctx    context.Context
	cancel context.CancelCauseFunc
	// toSim runs a function on the simulation owner before an update, and
	// toPlatform one on the platform thread; both return ErrClosed once
	// their side has stopped.
	toSim, toPlatform func(func()) error
}

// NewSession returns the worker session of a game session with the pool o
// chooses. toSim must run a function on the simulation owner (before an
// update) and toPlatform one on the platform thread, each returning an
// error once its side no longer runs work; wake ends the owner's current
// settle wait early and may be nil. It returns o's validation error.
func NewSession(o Options, toSim, toPlatform func(func()) error, wake func()) (*Session, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	s := &Session{pool: o.Pool, toSim: toSim, toPlatform: toPlatform}
	if s.pool == nil {
		nice := 0
		if o.Background {
			nice = BackgroundNice
		}
		p, err := newPool(o.Workers, nice)
		if err != nil {
			return nil, err
		}
		s.pool, s.owned = p, true
	}
	s.ctx, s.cancel = context.WithCancelCause(context.Background())
	s.track.wake = wake
	return s, nil
}

// Group returns a new group of the session named name. Its results reach
// the session through [Go] and [GoPlatform]. Once the session is closing,
// the group accepts nothing ([Group.Submit] returns [ErrClosed]).
func (s *Session) Group(name string) *Group {
	return s.pool.newGroup(name, s.ctx, s)
}

// Pool returns the pool the session's groups run on: its own, or the one
// from [Options.Pool].
func (s *Session) Pool() *Pool { return s.pool }

// Active returns how many jobs of the session's groups are queued or
// running.
func (s *Session) Active() int { return int(s.track.active.Load()) }

// Close is the first step of a shutdown: the session's groups refuse new
// jobs and their jobs' contexts are done. Accepted jobs still run. Owner
// only.
func (s *Session) Close() {
	s.track.closed.Store(true)
	s.cancel(ErrClosed)
}

// Settle waits until the session's accepted jobs have finished, calling
// service before each wait (the owner runs the platform work a job may
// wait on there), and then joins an owned pool. Each wait lasts at most
// 1 ms on clock, ended early by the last job's completion or the wake
// given to [NewSession], so virtual time works too. Past limit (0: no
// limit) it returns an error wrapping [ErrSettleTimeout] and leaves the
// stuck jobs' goroutines behind, an owned pool closed to new work. Owner
// only, after [Session.Close].
func (s *Session) Settle(clock timing.Clock, w timing.Waiter, limit time.Duration, service func()) error {
	start := clock.Now()
	for s.track.active.Load() > 0 {
		service()
		n := s.track.active.Load()
		if n == 0 {
			break
		}
		now := clock.Now()
		if limit > 0 && now >= start.AddSaturating(limit) {
			if s.owned {
				s.pool.refuse()
			}
			return fmt.Errorf("%w: %d still running after %v", ErrSettleTimeout, n, limit)
		}
		_ = w.WaitUntil(now.AddSaturating(settleWait))
	}
	if s.owned {
		s.pool.Close()
	}
	return nil
}

// resultJob is the job [Go] and [GoPlatform] submit: it runs fn, turns a
// panic into a *PanicError (failing the group as any panicking job does)
// and hands the outcome to finish.
type resultJob[T any] struct {
	g      *Group
	fn     func(ctx context.Context) (T, error)
	finish func(T, error)
}

func (j *resultJob[T]) Run(ctx context.Context) {
	var v T
	var err error
	ok := false
	func() {
		defer func() {
			if !ok {
				pe := &PanicError{Value: recover(), Stack: debug.Stack()}
				j.g.fail(pe)
				err = pe
			}
		}()
		v, err = j.fn(ctx)
		ok = true
	}()
	j.finish(v, err)
}

// Go runs job on a worker of g and delivers its result to deliver on the
// simulation owner: deliver runs before the first update that starts after
// the job finished, so it may touch simulation state. A panic in job
// reaches deliver as a *[PanicError] (and fails g). A result that arrives
// after the simulation stopped is dropped. Go returns [Group.Submit]'s
// error, or [ErrNoSession] for a group that no session created. It
// allocates; submit a pooled [Job] where that matters.
func Go[T any](g *Group, job func(ctx context.Context) (T, error), deliver func(T, error)) error {
	if g.sess == nil {
		return ErrNoSession
	}
	toSim := g.sess.toSim
	return g.Submit(&resultJob[T]{g: g, fn: job, finish: func(v T, err error) {
		if deliver != nil {
			_ = toSim(func() { deliver(v, err) }) // ErrClosed: nobody is left to deliver to
		}
	}})
}

// GoPlatform runs job on a worker of g, then, when it succeeded, upload
// on the platform thread with its value (a decoded image becomes a texture
// there), then deliver on the simulation owner with upload's result
// (before an update). A job that fails skips upload and delivers its
// error (a panic as a *[PanicError], failing g as well); a panic in upload
// is delivered as a *[PanicError]. A result that arrives after the
// simulation or the platform stopped taking work is dropped. GoPlatform
// returns [Group.Submit]'s error, or [ErrNoSession] for a group that no
// session created.
func GoPlatform[T, U any](g *Group, job func(ctx context.Context) (T, error), upload func(T) (U, error), deliver func(U, error)) error {
	if g.sess == nil {
		return ErrNoSession
	}
	s := g.sess
	post := func(u U, err error) {
		if deliver != nil {
			_ = s.toSim(func() { deliver(u, err) }) // ErrClosed: nobody is left to deliver to
		}
	}
	return g.Submit(&resultJob[T]{g: g, fn: job, finish: func(v T, err error) {
		if err != nil {
			var zero U
			post(zero, err)
			return
		}
		// Refused at shutdown: the simulation has stopped by then, so
		// there is nobody to tell.
		_ = s.toPlatform(func() {
			var u U
			err := guard(func() error {
				var err error
				u, err = upload(v)
				return err
			})
			post(u, err)
		})
	}})
}
