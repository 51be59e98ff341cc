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

// Phase names a step of a session, used to say where a failure happened:
// in the order they normally run, "validate", "init input", "init
// graphics", "init platform", "init simulation", "poll", "schedule",
// "mailbox", "service", "shutdown policy", "update", "prepare frame",
// "render", "present", "deinit simulation", "quiesce", "settle workers",
// "settle", "recycle frames", "record", "replay", "deinit platform",
// "close input" and "close graphics". A [PhaseError] carries one; its
// message starts with it.
type Phase string

// The phases of a session, in the order they normally run.
const (
	phaseValidate         Phase = "validate"
	phaseInitInput        Phase = "init input"
	phaseInitGraphics     Phase = "init graphics"
	phaseInitPlatform     Phase = "init platform"
	phaseInitSimulation   Phase = "init simulation"
	phasePoll             Phase = "poll"
	phaseSchedule         Phase = "schedule"
	phaseMailbox          Phase = "mailbox"
	phaseService          Phase = "service"
	phaseUpdate           Phase = "update"
	phasePrepareFrame     Phase = "prepare frame"
	phaseRender           Phase = "render"
	phasePresent          Phase = "present"
	phaseDeinitSimulation Phase = "deinit simulation"
	phaseQuiesce          Phase = "quiesce"
	phaseSettle           Phase = "settle"
	phaseRecycle          Phase = "recycle frames"
	phaseRecord           Phase = "record"
	phaseReplay           Phase = "replay"
	phaseDeinitPlatform   Phase = "deinit platform"
	phaseCloseInput       Phase = "close input"
	phaseCloseGraphics    Phase = "close graphics"
	// phaseWorkers is where a shutdown reports jobs that did not settle
	// within the Execution options' SettleTimeout.
	phaseWorkers Phase = "settle workers"
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
