package runtime

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/metronome-go/metronome/timing"
)

// ServicePhase says where attached service work runs.
type ServicePhase int

const (
	// Maintenance work runs on the platform thread once per loop cycle,
	// including the idle maintenance wakes, after the dispatcher batch. It
	// never consumes input or simulation time.
	Maintenance ServicePhase = iota
	// PreUpdate work runs on the simulation owner before each update, after
	// the mailbox drain and before the update takes its input.
	PreUpdate
)

func (p ServicePhase) String() string {
	switch p {
	case Maintenance:
		return "maintenance"
	case PreUpdate:
		return "pre-update"
	}
	return fmt.Sprintf("ServicePhase(%d)", int(p))
}

// ServiceFunc is recurring module work. now is the cycle's or update's clock
// reading. An error or a panic fails the session.
type ServiceFunc func(now timing.Instant) error

// Services holds recurring work attached to a session's phases. Attach from
// the hook that owns the phase (InitPlatform for maintenance, InitSimulation
// for pre-update) or later; keep the returned [ServiceAttachment] and detach
// through it.
type Services struct {
	mu     sync.Mutex
	phases [2]atomic.Pointer[[]*ServiceAttachment]
}

// ServiceAttachment is the handle of attached service work.
type ServiceAttachment struct {
	services *Services
	phase    ServicePhase
	work     ServiceFunc
	detached atomic.Bool
}

// Attach adds work to a phase and returns its handle. It is safe from any
// goroutine. It returns an error for an unknown phase or nil work.
func (s *Services) Attach(phase ServicePhase, work ServiceFunc) (*ServiceAttachment, error) {
	if phase != Maintenance && phase != PreUpdate {
		return nil, fmt.Errorf("runtime: service phase %d is not Maintenance (0) or PreUpdate (1)", int(phase))
	}
	if work == nil {
		return nil, fmt.Errorf("runtime: service work for phase %v is nil", phase)
	}
	a := &ServiceAttachment{services: s, phase: phase, work: work}
	s.mu.Lock()
	defer s.mu.Unlock()
	var next []*ServiceAttachment
	if cur := s.phases[phase].Load(); cur != nil {
		next = append(next, *cur...)
	}
	next = append(next, a)
	s.phases[phase].Store(&next)
	return a, nil
}

// Detach removes the work from its phase. It is idempotent and safe from any
// goroutine, including from the work itself. Once Detach returns the work is
// not started again; a run already in progress on another goroutine finishes.
func (a *ServiceAttachment) Detach() {
	if a == nil || a.detached.Swap(true) {
		return
	}
	s := a.services
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.phases[a.phase].Load()
	if cur == nil {
		return
	}
	next := make([]*ServiceAttachment, 0, len(*cur))
	for _, x := range *cur {
		if x != a {
			next = append(next, x)
		}
	}
	s.phases[a.phase].Store(&next)
}

// Attached reports whether the work is still attached.
func (a *ServiceAttachment) Attached() bool { return a != nil && !a.detached.Load() }

// Len returns the number of attachments in a phase.
func (s *Services) Len(phase ServicePhase) int {
	if phase != Maintenance && phase != PreUpdate {
		return 0
	}
	if cur := s.phases[phase].Load(); cur != nil {
		return len(*cur)
	}
	return 0
}

// run runs a phase's work in attachment order and returns the first failure.
func (s *Services) run(phase ServicePhase, now timing.Instant) error {
	cur := s.phases[phase].Load()
	if cur == nil {
		return nil
	}
	for _, a := range *cur {
		if a.detached.Load() {
			continue
		}
		if err := guard(func() error { return a.work(now) }); err != nil {
			return err
		}
	}
	return nil
}
