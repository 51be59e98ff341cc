package runtime

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/metronome-go/metronome/option"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime/work"
	"github.com/metronome-go/metronome/timing"
)

// Mode selects where updates and frame preparation run. Both modes use the
// same timing options.
type Mode uint8

const (
	// Sequential polls, updates, prepares, renders and presents on the
	// caller of Run, with one frame slot.
	Sequential Mode = iota
	// Concurrent runs updates and frame preparation on one simulation
	// goroutine while the caller of Run polls, renders and presents. Input
	// and window sizes cross as values; frames cross through three slots.
	Concurrent
)

func (m Mode) String() string {
	switch m {
	case Sequential:
		return "sequential"
	case Concurrent:
		return "concurrent"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// parseMode reads "sequential" or "concurrent" (case ignored).
func parseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "sequential":
		return Sequential, nil
	case "concurrent":
		return Concurrent, nil
	}
	return Sequential, fmt.Errorf("runtime: mode %q is not valid (valid: \"sequential\", \"concurrent\")", s)
}

// MarshalText implements encoding.TextMarshaler.
func (m Mode) MarshalText() ([]byte, error) {
	if m > Concurrent {
		return nil, fmt.Errorf("runtime: mode %d is not valid (valid: 0 sequential, 1 concurrent)", uint8(m))
	}
	return []byte(m.String()), nil
}

// UnmarshalText reads "sequential" or "concurrent" (case ignored).
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := parseMode(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// Bounds of the runtime's own intervals.
const (
	MaxFrameCap           = time.Second
	MinIdleInterval       = time.Millisecond
	MaxIdleInterval       = time.Second
	defaultMaintenance    = 10 * time.Millisecond
	DefaultHiddenInterval = 100 * time.Millisecond // 10 Hz
)

// Options configure a [GameRuntime]. Several zero values have their own
// meaning (a zero FrameCap is no cap, and the zero timing.Options is not the
// timing default), so start from [DefaultOptions] and change fields.
type Options struct {
	// Mode is Sequential (default) or Concurrent.
	Mode Mode
	// Timing is the scheduler's configuration, shared by both modes.
	// Default [timing.DefaultOptions]. It can change while running with
	// [GameRuntime.SetTimingOptions].
	Timing timing.Options
	// Polling is the input backlog's configuration: poll spacing, backlog
	// capacity and delivery policy. Default [input.DefaultPollingOptions].
	Polling input.PollingOptions
	// FrameCap is the shortest interval between presented frames, paced
	// with a [timing.FramePacer]. Zero presents every new frame at once
	// (vsync, if the presenter enables it, still applies). 0 to 1 s.
	// Default 0.
	FrameCap time.Duration
	// HiddenInterval is the cycle interval while the window is hidden or
	// minimised: polls, updates and maintenance slow to this rate,
	// nothing is presented and telemetry reports it as the pacing
	// interval. 1 ms to 1 s. Default 100 ms (10 Hz).
	HiddenInterval time.Duration
	// FollowPresentation makes variable timing update once per presented
	// frame: the scheduler's pacing interval (timing.Options.Interval) is
	// the presentation cadence, that is the frame cap, or without one the
	// display's refresh when the presenter waits for it (a
	// [RefreshPresenter] with vsync on). While the window is hidden or
	// throttled the hidden rate spaces every cycle, and so every update.
	// With no known cadence (no cap, no vsync) Timing.Interval applies.
	// Off, Timing.Interval always applies, as given. Fixed timing is
	// unaffected. Default on.
	FollowPresentation bool
	// FocusPolicy is what the session does while the window is unfocused:
	// keep running (FocusRun, the default), pause simulation time
	// (FocusPause) or slow to HiddenInterval (FocusThrottle). It can change
	// while running with [GameRuntime.SetFocusPolicy].
	FocusPolicy FocusPolicy
	// Maintenance is the longest the platform thread waits while idle:
	// it wakes this often to run the dispatcher and maintenance services.
	// Such wakes never consume input or simulation time. 1 ms to 1 s.
	// Default 10 ms.
	Maintenance time.Duration
	// Actions is the action set input ticks are summarised with. Nil
	// makes the runtime create an empty one; the game registers its
	// actions through [Platform.Actions] in InitPlatform.
	Actions *input.Actions
	// FrameRelease, when set, sees every frame about to be recycled, on
	// the graphics thread (see [render2d.SlotOptions]).
	FrameRelease func(*render2d.Frame)
	// Clock supplies time and waits. Nil is [timing.SystemClock]. New asks
	// it for the platform thread's waiter first and then, in concurrent
	// mode, for the simulation goroutine's, so on a [timing.ManualClock]
	// the platform goes first at every instant.
	Clock timing.Clock
	// Execution chooses the worker pool of the session's groups
	// ([Simulation.Workers]): an owned one of a given capacity (default
	// GOMAXPROCS, started lazily) or an application pool.
	Execution work.Options
	// ShutdownPolicy decides ordinary shutdown requests (the window's
	// close button, quit actions, tools; see [ShutdownEndpoint]). Nil
	// accepts each at once. It can also be installed once with
	// [ShutdownEndpoint.SetPolicy] before the session runs.
	ShutdownPolicy ShutdownPolicy
	// Record makes the session keep a recording of what it hands the
	// simulation, or replay one ([RecordOptions]). The zero value does
	// neither.
	Record RecordOptions
}

// DefaultOptions returns sequential mode, [timing.DefaultOptions],
// [input.DefaultPollingOptions], no frame cap, a 10 Hz hidden rate, 10 ms
// maintenance wakes and variable timing that follows the presentation.
func DefaultOptions() Options {
	return Options{
		Mode:               Sequential,
		Timing:             timing.DefaultOptions(),
		Polling:            input.DefaultPollingOptions(),
		HiddenInterval:     DefaultHiddenInterval,
		Maintenance:        defaultMaintenance,
		FollowPresentation: true,
	}
}

// Validate reports every invalid field at once, joined with errors.Join:
// the runtime's own fields as *[option.Error] values, Timing's as
// *[option.Error], Polling's as *[option.Error], and a delivery
// policy that does not suit the timing mode as
// [input.ErrTimestampedNeedsFixedSteps].
func (o Options) Validate() error {
	var errs []error
	bad := func(field string, value any, problem, allowed string) {
		errs = append(errs, &option.Error{Pkg: "runtime", Field: field, Value: value, Problem: problem, Allowed: allowed})
	}
	if o.Mode > Concurrent {
		bad("Options.Mode", uint8(o.Mode), "is not valid", "0 sequential, 1 concurrent")
	}
	if err := o.Timing.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := o.Polling.Validate(); err != nil {
		errs = append(errs, err)
	} else if err := input.ValidateDelivery(o.Polling.Delivery, o.Timing.Mode == timing.FixedMode); err != nil {
		errs = append(errs, err)
	}
	if o.FrameCap < 0 || o.FrameCap > MaxFrameCap {
		bad("Options.FrameCap", o.FrameCap, "is out of range", fmt.Sprintf("0 to %v", MaxFrameCap))
	}
	if o.HiddenInterval < MinIdleInterval || o.HiddenInterval > MaxIdleInterval {
		bad("Options.HiddenInterval", o.HiddenInterval, "is out of range", fmt.Sprintf("%v to %v", MinIdleInterval, MaxIdleInterval))
	}
	if o.FocusPolicy > FocusThrottle {
		bad("Options.FocusPolicy", uint8(o.FocusPolicy), "is not valid", "0 run, 1 pause, 2 throttle")
	}
	if o.Maintenance < MinIdleInterval || o.Maintenance > MaxIdleInterval {
		bad("Options.Maintenance", o.Maintenance, "is out of range", fmt.Sprintf("%v to %v", MinIdleInterval, MaxIdleInterval))
	}
	if err := o.Execution.Validate(); err != nil {
		errs = append(errs, err)
	}
	o.Record.validate(bad)
	return errors.Join(errs...)
}
