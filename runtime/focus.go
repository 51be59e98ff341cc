package runtime

import (
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// FocusPolicy says what a session does while its window has no keyboard
// focus (the player switched to another program).
type FocusPolicy uint8

const (
	// FocusRun keeps running as if focused (the default).
	FocusRun FocusPolicy = iota
	// FocusPause stops simulation time while the window is unfocused: no
	// update runs, and the scheduler's ledger counts the time as suspended
	// (never as lag to repay or time dropped). The window keeps
	// presenting its last frame; input, dispatcher work and maintenance go
	// on. Updates resume with the time that was pending when focus went.
	FocusPause
	// FocusThrottle slows the session to [Options.HiddenInterval] while the
	// window is unfocused, as if it were hidden, but keeps presenting: a
	// game in the background keeps moving at a low rate and a low cost.
	FocusThrottle
)

func (p FocusPolicy) String() string {
	switch p {
	case FocusRun:
		return "run"
	case FocusPause:
		return "pause"
	case FocusThrottle:
		return "throttle"
	}
	return fmt.Sprintf("FocusPolicy(%d)", uint8(p))
}

// parseFocusPolicy reads "run", "pause" or "throttle" (case ignored).
func parseFocusPolicy(s string) (FocusPolicy, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "run":
		return FocusRun, nil
	case "pause":
		return FocusPause, nil
	case "throttle":
		return FocusThrottle, nil
	}
	return FocusRun, fmt.Errorf("runtime: focus policy %q is not valid (valid: \"run\", \"pause\", \"throttle\")", s)
}

// MarshalText implements encoding.TextMarshaler.
func (p FocusPolicy) MarshalText() ([]byte, error) {
	if p > FocusThrottle {
		return nil, fmt.Errorf("runtime: focus policy %d is not valid (valid: 0 run, 1 pause, 2 throttle)", uint8(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText reads "run", "pause" or "throttle" (case ignored).
func (p *FocusPolicy) UnmarshalText(b []byte) error {
	v, err := parseFocusPolicy(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// FocusPolicy returns the focus policy in force.
func (r *GameRuntime) FocusPolicy() FocusPolicy { return FocusPolicy(r.x.focus.policy.Load()) }

// SetFocusPolicy changes the focus policy from the platform's next poll on:
// a pause ends (or begins) at that poll. It returns an error naming the
// valid policies for an invalid one. Safe from any goroutine.
func (r *GameRuntime) SetFocusPolicy(p FocusPolicy) error {
	if _, err := p.MarshalText(); err != nil {
		return err
	}
	r.x.focus.policy.Store(uint32(p))
	r.plat.waiter.Wake()
	return nil
}

// focusGate carries the focus policy and its decision between the owners:
// the policy from any goroutine to the platform thread, which applies it
// to the focus it samples at each poll; the pause from the platform thread
// to the simulation owner, which suspends its scheduler.
type focusGate struct {
	policy atomic.Uint32 // a FocusPolicy
	// pausedAt is the instant of the poll that found the window unfocused
	// under FocusPause, or notPaused.
	pausedAt atomic.Int64
}

// notPaused is focusGate.pausedAt while the simulation runs; no clock
// reading is that early.
const notPaused = math.MinInt64

func (g *focusGate) init(p FocusPolicy) {
	g.policy.Store(uint32(p))
	g.pausedAt.Store(notPaused)
}

// applyFocusPolicy decides, on the platform thread at each sample, whether
// the session pauses (telling the simulation owner when that changes) and
// reports whether it slows to the hidden interval: while the window is not
// visible, or unfocused under FocusThrottle. A replay ignores the policy:
// its updates come from the recording.
func (p *platform) applyFocusPolicy(w input.Window) (slow bool) {
	policy := FocusPolicy(p.x.focus.policy.Load())
	if p.replay {
		policy = FocusRun
	}
	unfocused := !w.Focused
	pause := policy == FocusPause && unfocused
	g := &p.x.focus
	if paused := g.pausedAt.Load() != notPaused; pause != paused {
		at := int64(notPaused)
		if pause {
			at = int64(p.clock.Now())
		}
		g.pausedAt.Store(at)
		if p.wakeSim != nil {
			p.wakeSim()
		}
	}
	return !w.Visible() || (policy == FocusThrottle && unfocused)
}

// applyFocus suspends or resumes the scheduler as the platform's latest
// poll decided, before each scheduling decision of the simulation owner.
// The suspension starts at the poll that found the window unfocused and
// ends now, when the simulation learns that focus came back.
func (s *simulation) applyFocus() {
	at := s.x.focus.pausedAt.Load()
	want := at != notPaused
	if want == s.sched.Suspended() {
		return
	}
	var err error
	if want {
		err = s.sched.Suspend(timing.Instant(at))
	} else {
		err = s.sched.Resume(s.clock.Now())
	}
	if err != nil {
		s.fails.fail(PhaseSchedule, err)
	}
}
