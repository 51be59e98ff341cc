package runtime

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
