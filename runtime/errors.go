package runtime

import (
	"errors"
	"fmt"
	"strings"
)

var (
	// ErrAlreadyRun is returned by a second [GameRuntime.Run]: a runtime and
	// its context serve one session.
	ErrAlreadyRun = errors.New("runtime: a runtime runs one session; Run was already called")
	// ErrCanceled completes a platform request that was still queued when
	// the session shut down.
	ErrCanceled = errors.New("runtime: request canceled at shutdown")
	// ErrPending is returned by [Future.Result] while the work has not run.
	ErrPending = errors.New("runtime: request has not completed")
	// ErrNoStopSource is returned by [TickContext.RequestStop] on a tick built
	// without a [StopSignal].
	ErrNoStopSource = errors.New("runtime: tick has no stop source")
)

// Phase names a step of a session, used to say where a failure happened. A
// [PhaseError] carries one and its message starts with the phase's name.
// Phase is not a string so that a misspelt phase cannot compile: compare
// with the constants below (pe.Phase == runtime.PhaseUpdate); String gives
// the name a message uses.
type Phase uint8

// The phases of a session, in the order they normally run. The zero Phase
// is none of them.
const (
	PhaseValidate Phase = iota + 1
	PhaseInitInput
	PhaseInitGraphics
	PhaseInitPlatform
	PhaseInitSimulation
	PhasePoll
	PhaseSchedule
	PhaseMailbox
	PhaseService
	// PhaseShutdownPolicy is where a panic in, or an invalid answer from,
	// the [ShutdownPolicy] fails the session.
	PhaseShutdownPolicy
	PhaseUpdate
	PhasePrepareFrame
	PhaseRender
	PhasePresent
	PhaseDeinitSimulation
	PhaseQuiesce
	// PhaseSettleWorkers is where a shutdown reports jobs that did not
	// settle within the Execution options' SettleTimeout.
	PhaseSettleWorkers
	PhaseSettle
	PhaseRecycleFrames
	PhaseRecord
	PhaseReplay
	PhaseDeinitPlatform
	PhaseCloseInput
	PhaseCloseGraphics
)

var phaseNames = [...]string{
	PhaseValidate:         "validate",
	PhaseInitInput:        "init input",
	PhaseInitGraphics:     "init graphics",
	PhaseInitPlatform:     "init platform",
	PhaseInitSimulation:   "init simulation",
	PhasePoll:             "poll",
	PhaseSchedule:         "schedule",
	PhaseMailbox:          "mailbox",
	PhaseService:          "service",
	PhaseShutdownPolicy:   "shutdown policy",
	PhaseUpdate:           "update",
	PhasePrepareFrame:     "prepare frame",
	PhaseRender:           "render",
	PhasePresent:          "present",
	PhaseDeinitSimulation: "deinit simulation",
	PhaseQuiesce:          "quiesce",
	PhaseSettleWorkers:    "settle workers",
	PhaseSettle:           "settle",
	PhaseRecycleFrames:    "recycle frames",
	PhaseRecord:           "record",
	PhaseReplay:           "replay",
	PhaseDeinitPlatform:   "deinit platform",
	PhaseCloseInput:       "close input",
	PhaseCloseGraphics:    "close graphics",
}

// String returns the phase's name as messages write it ("init platform"),
// or Phase(N) for a value that is no phase.
func (p Phase) String() string {
	if int(p) < len(phaseNames) && phaseNames[p] != "" {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// PhaseError is a failure with the phase it happened in. [GameRuntime.Run]
// returns the first failure of a session wrapped in one; later failures are
// joined to it, each in its own PhaseError.
type PhaseError struct {
	Phase Phase
	Err   error
}

// Error names the phase once: a failure of this package's own already
// carries its "runtime: " prefix, which is not repeated, and one that
// already names the phase ("runtime: replay diverged ...") stands as it is.
func (e *PhaseError) Error() string {
	msg := fmt.Sprint(e.Err)
	if inner, ok := strings.CutPrefix(msg, "runtime: "); ok {
		if strings.HasPrefix(inner, e.Phase.String()) {
			return msg
		}
		msg = inner
	}
	return "runtime: " + e.Phase.String() + ": " + msg
}

// Unwrap returns the underlying failure.
func (e *PhaseError) Unwrap() error { return e.Err }
