package config

import (
	"time"

	"github.com/metronome-go/metronome/timing"
)

// Config is a game's whole configuration: the [window], [runtime],
// [timing], [timing.debt], [polling] and [input] tables of config.toml.
// [Default] returns the embedded defaults; the zero Config is not useful.
type Config struct {
	Window  Window
	Runtime Runtime
	Timing  Timing
	Polling Polling
	// Bindings maps action names to key and button names ([input.bindings]).
	// The game registers the actions; the config only rebinds them.
	Bindings map[string][]string
}

// Window configures the game window.
type Window struct {
	Title     string
	Width     int
	Height    int
	Resizable bool
	VSync     bool
	// Headless renders into an invisible window, for tests and servers.
	Headless bool
}

// Runtime configures the game loop.
type Runtime struct {
	// Mode is "sequential" or "concurrent".
	Mode string
	// FrameCap limits frames per second; 0 leaves pacing to vsync.
	FrameCap int
	// HiddenRate is the frame rate while the window is hidden or minimised.
	HiddenRate int
}

// Timing configures the simulation scheduler.
type Timing struct {
	// Mode is "variable" or "fixed".
	Mode string
	// Interval paces variable updates; 0 runs them unpaced.
	Interval time.Duration
	// Step is the fixed step; ignored when Rate is set.
	Step time.Duration
	// Rate is an exact fixed tick rate; zero means "use Step".
	Rate timing.Rate
	// MaxFixedUpdates bounds the fixed updates of one cycle.
	MaxFixedUpdates int
	// Recovery is "drop-excess-lag", "variable-catch-up" or "repay-debt".
	Recovery string
	// RecoveryPrefix is the fixed updates before a catch-up update.
	RecoveryPrefix int
	// RecoveryCap bounds one catch-up update; 0 means no cap.
	RecoveryCap time.Duration
	Debt        Debt
}

// Debt configures the repay-debt recovery policy.
type Debt struct {
	Pacing              bool
	MaxSpeedUp          float64
	MaxSlowDown         float64
	Gain                float64
	QuietTicks          bool
	CoarseCosmetic      bool
	CoarseCosmeticEvery int
	VariableStep        bool
	MaxStepScale        int
	Rollback            bool
	Cutoff              time.Duration
	SuspendAfter        time.Duration
	// PastCutoff is "slow-down" or "drop-time" for a solo game.
	PastCutoff string
}

// Polling configures input polling.
type Polling struct {
	// Spacing is the least time between two polls.
	Spacing time.Duration
	// Capacity is the number of polls the backlog holds before coalescing.
	Capacity int
	// Delivery is "backlog" or "timestamped".
	Delivery string
}
