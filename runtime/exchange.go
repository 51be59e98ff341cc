package runtime

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// exchange holds the values that cross between the owners of a session, or
// out to other goroutines, each with its direction and its own guard.
// Everything else in a [GameRuntime] belongs to one owner.
type exchange struct {
	// hidden: platform -> simulation. The simulation spaces its batches at
	// the hidden interval while the window is hidden (or unfocused under
	// FocusThrottle).
	hidden atomic.Bool
	// hiddenAt: platform -> simulation. While hidden, the platform cycles
	// every HiddenInterval on a grid through this instant (the cycle that
	// found the window hidden, moved when the hidden pacer re-anchors);
	// the simulation runs its batches on the same grid.
	hiddenAt atomic.Int64

	// focus: the focus policy (any goroutine -> platform) and the pause it
	// decides (platform -> simulation); see focus.go.
	focus focusGate

	// Timing options and delivery policy: any goroutine -> simulation
	// owner, which installs them before its next scheduling decision.
	timingMu      sync.Mutex
	timingOpts    timing.Options
	deliveryPol   atomic.Uint32 // an input.Delivery, changed under timingMu
	timingPending atomic.Bool

	// Frame cap: any goroutine -> platform.
	capNext  atomic.Int64
	capDirty atomic.Bool

	// Published after each batch: simulation -> platform (the frame
	// accumulation, taken once per presented frame into the telemetry)
	// and readers (stats, telemetry). One lock: a presented frame takes the
	// accumulation and records it in one step.
	pubMu sync.Mutex
	stats timing.Stats
	// acc is what the simulation did since the previous presented frame:
	// its batches' work, and the debt and rate after the latest.
	acc timing.FrameRecord

	// Telemetry: platform -> readers, under pubMu.
	telemetry    timing.Telemetry
	paceInterval atomic.Int64
	// cadence is the presentation cadence in force (zero when unknown):
	// platform -> simulation; follow is Options.FollowPresentation as
	// set while running.
	cadence atomic.Int64
	follow  atomic.Bool
}

func (x *exchange) init(o Options) {
	x.timingOpts = o.Timing
	x.deliveryPol.Store(uint32(o.Polling.Delivery))
	x.capNext.Store(int64(o.FrameCap))
	x.paceInterval.Store(int64(o.FrameCap))
	x.cadence.Store(int64(o.FrameCap))
	x.follow.Store(o.FollowPresentation)
	x.focus.init(o.FocusPolicy)
}

func (x *exchange) delivery() input.Delivery { return input.Delivery(x.deliveryPol.Load()) }

func (x *exchange) setDelivery(d input.Delivery) error {
	x.timingMu.Lock()
	defer x.timingMu.Unlock()
	if err := input.ValidateDelivery(d, x.timingOpts.Mode == timing.FixedMode); err != nil {
		return err
	}
	x.deliveryPol.Store(uint32(d))
	return nil
}

func (x *exchange) timingOptions() timing.Options {
	x.timingMu.Lock()
	defer x.timingMu.Unlock()
	return x.timingOpts
}

func (x *exchange) setTimingOptions(o timing.Options) error {
	x.timingMu.Lock()
	defer x.timingMu.Unlock()
	err := o.Validate()
	if derr := input.ValidateDelivery(x.delivery(), o.Mode == timing.FixedMode); derr != nil {
		err = errors.Join(err, derr)
	}
	if err != nil {
		return err
	}
	x.timingOpts = o
	x.timingPending.Store(true)
	return nil
}

// takeTimingOptions returns options set since the last call, if any.
func (x *exchange) takeTimingOptions() (timing.Options, bool) {
	if !x.timingPending.Load() {
		return timing.Options{}, false
	}
	x.timingMu.Lock()
	defer x.timingMu.Unlock()
	x.timingPending.Store(false)
	return x.timingOpts, true
}

func (x *exchange) frameCap() time.Duration { return time.Duration(x.capNext.Load()) }

func (x *exchange) setFrameCap(d time.Duration) {
	x.capNext.Store(int64(d))
	x.capDirty.Store(true)
}

// takeFrameCap returns a cap set since the last call, if any.
func (x *exchange) takeFrameCap() (time.Duration, bool) {
	if !x.capDirty.Swap(false) {
		return 0, false
	}
	return x.frameCap(), true
}

// setStats stores the scheduler's statistics.
func (x *exchange) setStats(s timing.Stats) {
	x.pubMu.Lock()
	x.stats = s
	x.pubMu.Unlock()
}

// addBatch stores the statistics after a batch and adds the work of the
// updates that ran to the accumulation for the next presented frame.
func (x *exchange) addBatch(s timing.Stats, w timing.Work) {
	x.pubMu.Lock()
	x.stats = s
	x.acc.Add(w)
	x.acc.Debt = s.DebtTime
	x.acc.Rate = s.Rate
	x.pubMu.Unlock()
}

func (x *exchange) timingStats() timing.Stats {
	x.pubMu.Lock()
	defer x.pubMu.Unlock()
	return x.stats
}

// present completes the accumulation since the previous presented frame
// with the frame's pacing and sample, records it in the telemetry and
// starts a new one.
func (x *exchange) present(pace timing.PaceResult, sample timing.FrameSample) {
	x.pubMu.Lock()
	fr := x.acc
	x.acc = timing.FrameRecord{}
	fr.Pace = pace
	fr.SetSample(sample)
	x.telemetry.Record(fr)
	x.pubMu.Unlock()
}

func (x *exchange) telemetryStats() timing.TelemetryStats {
	x.pubMu.Lock()
	s := x.telemetry.Stats()
	x.pubMu.Unlock()
	s.PacingInterval = time.Duration(x.paceInterval.Load())
	return s
}

func (x *exchange) telemetryFrames(dst []timing.TelemetryFrame) []timing.TelemetryFrame {
	x.pubMu.Lock()
	defer x.pubMu.Unlock()
	return x.telemetry.AppendWindow(dst)
}
