package framework

import (
	"os"
	"os/signal"
	"sync"

	"github.com/metronome-go/metronome/runtime"
)

// ReasonSignal is the reason of the shutdown request a signal of the
// operating system makes (an interrupt from Ctrl+C, a termination request
// from a service manager or a CI runner, a hang-up): a game's shutdown
// policy sees it as it sees the window's close button.
const ReasonSignal runtime.ShutdownReason = "signal"

// signals turns the operating system's stop signals into an ordinary
// shutdown request (the policy may defer it: "save first?"), and a second
// one into a stop that asks nothing; either way the session shuts down in
// order. A third signal finds the default handling back and ends the
// process at once. Run owns it: newSignals starts its goroutine, stop
// joins it.
type signals struct {
	ch   chan os.Signal
	quit chan struct{}
	wg   sync.WaitGroup

	mu     sync.Mutex
	rt     *runtime.GameRuntime // nil until the session is attached
	count  int
	first  os.Signal
	forced bool // the second signal stopped the session
	replay bool // the session is a replay: the first signal stops it
}

func newSignals() *signals {
	s := &signals{ch: make(chan os.Signal, 4), quit: make(chan struct{})}
	for _, sig := range stopSignals {
		// A signal the program was started with ignored (SIGHUP under
		// nohup) stays ignored.
		if !signal.Ignored(sig) {
			signal.Notify(s.ch, sig)
		}
	}
	s.wg.Add(1)
	go s.run()
	return s
}

func (s *signals) run() {
	defer s.wg.Done()
	for {
		select {
		case sig := <-s.ch:
			s.got(sig)
		case <-s.quit:
			return
		}
	}
}

func (s *signals) got(sig os.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count++
	if s.count == 1 {
		s.first = sig
	} else {
		s.forced = true
		signal.Stop(s.ch) // a third signal ends the process
	}
	s.deliver()
}

// deliver passes what has arrived to the attached session. s.mu is held.
func (s *signals) deliver() {
	if s.rt == nil {
		return
	}
	if s.forced || (s.replay && s.count > 0) {
		s.rt.Stop()
		return
	}
	if s.count == 1 {
		_ = s.rt.Shutdown().Request(ReasonSignal) // ErrClosed: already stopping
	}
}

// attach gives the signals a session: what arrived before is delivered
// now. Any goroutine.
func (s *signals) attach(rt *runtime.GameRuntime) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rt = rt
	s.deliver()
}

// stopped returns the signal that ended the session, or nil: the first
// signal when the policy accepted its request (or there is no policy), or
// the second, which stops whatever the policy says.
func (s *signals) stopped() os.Signal {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.count == 0 {
		return nil
	}
	if s.forced {
		return s.first
	}
	if s.rt != nil {
		if req, ok := s.rt.Shutdown().Ended(); ok && req.Reason == ReasonSignal {
			return s.first
		}
	}
	return nil
}

// stop restores the default handling and joins the goroutine.
func (s *signals) stop() {
	signal.Stop(s.ch)
	close(s.quit)
	s.wg.Wait()
}
