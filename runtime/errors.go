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

// Phase names a step of a session, used to say where a failure happened.
type Phase string

// The phases of a session, in the order they normally run.
const (
	PhaseValidate         Phase = "validate"
	PhaseInitInput        Phase = "init input"
	PhaseInitGraphics     Phase = "init graphics"
	PhaseInitPlatform     Phase = "init platform"
	PhaseInitSimulation   Phase = "init simulation"
	PhasePoll             Phase = "poll"
	PhaseSchedule         Phase = "schedule"
	PhaseMailbox          Phase = "mailbox"
	PhaseService          Phase = "service"
	PhaseUpdate           Phase = "update"
	PhasePrepareFrame     Phase = "prepare frame"
	PhaseRender           Phase = "render"
	PhasePresent          Phase = "present"
	PhaseDeinitSimulation Phase = "deinit simulation"
	PhaseQuiesce          Phase = "quiesce"
	PhaseSettle           Phase = "settle"
	PhaseRecycle          Phase = "recycle frames"
	PhaseRecord           Phase = "record"
	PhaseReplay           Phase = "replay"
	PhaseDeinitPlatform   Phase = "deinit platform"
	PhaseCloseInput       Phase = "close input"
	PhaseCloseGraphics    Phase = "close graphics"
	// PhaseWorkers is where a shutdown reports jobs that did not settle
	// within the Execution options' SettleTimeout.
	PhaseWorkers Phase = "settle workers"
)

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
		if strings.HasPrefix(inner, string(e.Phase)) {
			return msg
		}
		msg = inner
	}
	return "runtime: " + string(e.Phase) + ": " + msg
}

// Unwrap returns the underlying failure.
func (e *PhaseError) Unwrap() error { return e.Err }
