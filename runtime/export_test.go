package runtime

import "time"

// The phases, for the external tests.
const (
	PhaseCloseGraphics    = phaseCloseGraphics
	PhaseCloseInput       = phaseCloseInput
	PhaseDeinitPlatform   = phaseDeinitPlatform
	PhaseDeinitSimulation = phaseDeinitSimulation
	PhaseInitGraphics     = phaseInitGraphics
	PhaseInitInput        = phaseInitInput
	PhaseInitPlatform     = phaseInitPlatform
	PhaseInitSimulation   = phaseInitSimulation
	PhaseMailbox          = phaseMailbox
	PhasePoll             = phasePoll
	PhasePrepareFrame     = phasePrepareFrame
	PhasePresent          = phasePresent
	PhaseQuiesce          = phaseQuiesce
	PhaseRecord           = phaseRecord
	PhaseRecycle          = phaseRecycle
	PhaseRender           = phaseRender
	PhaseReplay           = phaseReplay
	PhaseSchedule         = phaseSchedule
	PhaseService          = phaseService
	PhaseSettle           = phaseSettle
	PhaseShutdownPolicy   = phaseShutdownPolicy
	PhaseUpdate           = phaseUpdate
	PhaseValidate         = phaseValidate
	PhaseWorkers          = phaseWorkers
)

// SetStallTimeout shortens how long a replay waits for work that does not
// come, for tests that expect a stall; it returns the function that puts
// the old value back.
func SetStallTimeout(d time.Duration) (restore func()) {
	old := stallTimeout
	stallTimeout = d
	return func() { stallTimeout = old }
}
