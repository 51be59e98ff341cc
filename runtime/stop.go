package runtime

import (
	"sync"
	"sync/atomic"
)

// StopSignal is the one stop state of a session. [TickContext.RequestStop],
// [GameRuntime.Stop] and a window's close intent all set it. Setting it is
// idempotent, safe from any goroutine, and wakes every wait that watches
// [StopSignal.Done]. It never interrupts a hook that is already running.
//
// A StopSignal holds only stop state, so a copy of the pointer stays valid after
// the runtime that created it has finished.
type StopSignal struct {
	once sync.Once
	done chan struct{}
	set  atomic.Bool
	// wake, when set, is notified after the signal is set so that a runtime
	// blocked in a frame wait returns at once.
	wake func()
}

// NewStopSignal returns a signal that has not been requested. Tests and other
// schedulers use it to give a hand-built [TickContext] a stop source.
func NewStopSignal() *StopSignal {
	return &StopSignal{done: make(chan struct{})}
}

// Request sets the signal. Repeated calls do nothing more.
func (s *StopSignal) Request() {
	s.once.Do(func() {
		s.set.Store(true)
		close(s.done)
		if s.wake != nil {
			s.wake()
		}
	})
}

// Requested reports whether [StopSignal.Request] has been called.
func (s *StopSignal) Requested() bool { return s.set.Load() }

// Done returns a channel that is closed once the signal is requested.
func (s *StopSignal) Done() <-chan struct{} { return s.done }
