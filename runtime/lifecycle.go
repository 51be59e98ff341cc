package runtime

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/metronome-go/metronome/runtime/work"
)

// State is a lifecycle milestone of a session.
type State int32

// Session states in the order a session passes through them. A session ends in
// exactly one of the two terminal states.
const (
	StateCreated      State = iota // constructed, Run not called
	StateInitializing              // adapters and game init hooks are running
	StateRunning                   // the loop is running updates and frames
	StateStopping                  // stop requested or a failure happened; cleanup is running
	StateStopped                   // terminal: the session ended without a failure
	StateFailed                    // terminal: the session ended with at least one failure
)

var stateNames = [...]string{"created", "initializing", "running", "stopping", "stopped", "failed"}

func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", int32(s))
}

// Terminal reports whether s is StateStopped or StateFailed.
func (s State) Terminal() bool { return s == StateStopped || s == StateFailed }

// Lifecycle observes a session from any goroutine without holding the
// runtime: keep the pointer from [GameRuntime.Lifecycle] and read it while or
// after the session runs.
type Lifecycle struct {
	state atomic.Int32
	done  chan struct{}
	// err is written once, before the terminal state is stored: a reader
	// that loads a terminal state sees it, so it needs no lock.
	err error
}

func newLifecycle() *Lifecycle { return &Lifecycle{done: make(chan struct{})} }

// State returns the current milestone.
func (l *Lifecycle) State() State { return State(l.state.Load()) }

// Done returns a channel closed when the session reaches a terminal state.
func (l *Lifecycle) Done() <-chan struct{} { return l.done }

// Outcome returns the terminal error and true once the session has ended
// (nil for a clean stop, the same error Run returned otherwise), or nil
// and false while it is still running.
func (l *Lifecycle) Outcome() (error, bool) {
	if !l.State().Terminal() {
		return nil, false
	}
	return l.err, true
}

// advance moves to s unless the session is already at or past it.
func (l *Lifecycle) advance(s State) {
	for {
		cur := l.state.Load()
		if cur >= int32(s) || State(cur).Terminal() {
			return
		}
		if l.state.CompareAndSwap(cur, int32(s)) {
			return
		}
	}
}

func (l *Lifecycle) finish(err error) {
	l.err = err
	if err != nil {
		l.state.Store(int32(StateFailed))
	} else {
		l.state.Store(int32(StateStopped))
	}
	close(l.done)
}

// failures keeps the first failure of a session and every later one with its
// phase. It is safe for concurrent use.
type failures struct {
	mu    sync.Mutex
	list  []error
	count atomic.Int32

	life *Lifecycle
	stop *StopSignal
}

// fail records a failure and stops the session.
func (f *failures) fail(phase Phase, err error) {
	if err == nil {
		return
	}
	f.add(phase, err)
	f.life.advance(StateStopping)
	f.stop.Request()
}

func (f *failures) add(phase Phase, err error) {
	if err == nil {
		return
	}
	f.mu.Lock()
	f.list = append(f.list, &PhaseError{Phase: phase, Err: err})
	f.mu.Unlock()
	f.count.Add(1)
}

func (f *failures) any() bool { return f.count.Load() > 0 }

// err returns nil, the only failure, or the first joined with the others in
// the order they happened.
func (f *failures) err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch len(f.list) {
	case 0:
		return nil
	case 1:
		return f.list[0]
	}
	return errors.Join(f.list...)
}

// guard runs fn and turns a panic into a [work.PanicError].
func guard(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &work.PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	return fn()
}
