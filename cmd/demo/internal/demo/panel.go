package demo

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Controls is what the resilience panel changes: the runtime's timing
// options and frame cap. *runtime.GameRuntime implements it; every method
// must be safe from any goroutine.
type Controls interface {
	TimingOptions() timing.Options
	SetTimingOptions(o timing.Options) error
	SetFrameCap(d time.Duration) error
}

// DeliverySetter is implemented by controls that can switch the input
// delivery policy while the session runs. Without it the panel's delivery row
// says the policy needs a restart.
type DeliverySetter interface {
	SetDelivery(d input.Delivery) error
}

// Interpolator is implemented by controls that can switch interpolation at
// each present on and off while the session runs (the demo's Game). Without
// it the panel's interpolation row says the setting needs a restart.
type Interpolator interface {
	Interpolation() bool
	SetInterpolation(on bool) error
}

// FocusSetter is implemented by controls that switch the focus policy
// while the session runs (*runtime.GameRuntime does). Without it the
// panel's focus row says the policy needs a restart.
type FocusSetter interface {
	FocusPolicy() runtime.FocusPolicy
	SetFocusPolicy(p runtime.FocusPolicy) error
}

// PresentationFollower is implemented by controls whose variable timing
// can follow the presentation cadence (*runtime.GameRuntime is, see
// runtime.Options.FollowPresentation). Without it the panel's interval row
// offers the configured intervals only.
type PresentationFollower interface {
	FollowPresentation() bool
	SetFollowPresentation(on bool)
	VariableInterval() time.Duration
}

// Panel is the resilience panel: one row per timing setting, a selected row,
// and a status line saying what the latest change did. Move and Change are
// the keyboard's Up/Down and Left/Right; Row and Change serve mouse clicks.
//
// A Panel belongs to the goroutine that handles input (the simulation
// owner); the Controls it calls are safe from any goroutine.
type Panel struct {
	ctl      Controls
	sel      int
	frameCap time.Duration
	delivery input.Delivery
	status   string
	changes  int
}

// NewPanel returns a panel over ctl, which starts with the given frame cap
// and delivery policy (the runtime's options at start).
func NewPanel(ctl Controls, frameCap time.Duration, delivery input.Delivery) *Panel {
	return &Panel{ctl: ctl, frameCap: frameCap, delivery: delivery, status: "Up/Down: pick a row, Left/Right: change it"}
}

// setting is one row of the panel.
type setting struct {
	name string
	// active reports whether the setting matters under o.
	active func(o *timing.Options) bool
	value  func(p *Panel, o *timing.Options) string
	// change steps the setting dir places through its choices. It returns
	// the new timing options to put in force, or applies the change itself
	// and returns false.
	change func(p *Panel, o *timing.Options, dir int) (bool, error)
}

func always(*timing.Options) bool         { return true }
func fixed(o *timing.Options) bool        { return o.Mode == timing.FixedMode }
func catchUp(o *timing.Options) bool      { return fixed(o) && o.Recovery == timing.VariableCatchUp }
func debt(o *timing.Options) bool         { return fixed(o) && o.Recovery == timing.RepayDebt }
func pacing(o *timing.Options) bool       { return debt(o) && o.Debt.Pacing }
func coarse(o *timing.Options) bool       { return debt(o) && o.Debt.CoarseCosmetic }
func variableStep(o *timing.Options) bool { return debt(o) && o.Debt.VariableStep }
func variable(o *timing.Options) bool     { return o.Mode == timing.VariableMode }

// timingRow builds a row whose value is a field of the timing options.
func timingRow[T comparable](name string, active func(*timing.Options) bool, field func(o *timing.Options) *T, choices []T, wrap bool, format func(T) string) setting {
	return setting{
		name:   name,
		active: active,
		value:  func(_ *Panel, o *timing.Options) string { return format(*field(o)) },
		change: func(_ *Panel, o *timing.Options, dir int) (bool, error) {
			f := field(o)
			*f = step(choices, *f, dir, wrap)
			return true, nil
		},
	}
}

// step moves dir places from cur through choices: enumerations wrap around,
// numbers stop at the ends. A value that is not a choice moves to the first
// (or, backwards, the last) one.
func step[T comparable](choices []T, cur T, dir int, wrap bool) T {
	i := slices.Index(choices, cur)
	if i < 0 {
		if dir < 0 {
			return choices[len(choices)-1]
		}
		return choices[0]
	}
	i += dir
	n := len(choices)
	if wrap {
		i = ((i % n) + n) % n
	} else {
		i = min(max(i, 0), n-1)
	}
	return choices[i]
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func durText(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	case d%time.Millisecond == 0:
		return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
	}
	return strconv.FormatFloat(float64(d)/1e6, 'f', 3, 64) + "ms"
}

func capText(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	return durText(d) + " (" + strconv.FormatFloat(float64(time.Second)/float64(d), 'f', 0, 64) + " fps)"
}

func floatText(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// followChoice stands for "follow the presentation" among the intervals.
const followChoice time.Duration = -1

var (
	intervals   = []time.Duration{0, 8_333_333, 16_666_667, 33_333_333, 50 * time.Millisecond}
	steps       = []time.Duration{8_333_333, 10 * time.Millisecond, 16_666_667, 20 * time.Millisecond, 30 * time.Millisecond, 33_333_333, 50 * time.Millisecond, 100 * time.Millisecond}
	limits      = []int{1, 2, 3, 4, 5, 6, 8, 12, 16, 32, 64}
	prefixes    = []int{0, 1, 2, 3, 4, 5, 6, 8, 12, 16, 32, 64}
	caps        = []time.Duration{0, 50 * time.Millisecond, 100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second}
	speedUps    = []float64{1, 1.05, 1.1, 1.25, 1.5, 2, 3, 4}
	slowDowns   = []float64{0.25, 0.5, 0.75, 0.9, 0.95, 1}
	gains       = []float64{0.1, 0.25, 0.5, 1, 2, 5, 10}
	everies     = []int{2, 3, 4, 6, 8, 16, 30, 60}
	scales      = []int{2, 4, 8, 16, 32, 64}
	cutoffs     = []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second}
	suspensions = []time.Duration{0, time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second}
	frameCaps   = []time.Duration{0, time.Second / 30, time.Second / 60, time.Second / 120, time.Second / 144, time.Second / 240}
)

// settings are the panel's rows, in display order: the timing rows,
// then the sound rows.
var settings = slices.Concat(timingRows, soundRows)

// timingRows change the runtime: timing, input delivery, interpolation
// and the frame cap.
var timingRows = []setting{
	timingRow("timing mode", always, func(o *timing.Options) *timing.Mode { return &o.Mode },
		[]timing.Mode{timing.VariableMode, timing.FixedMode}, true, timing.Mode.String),
	{
		// The first choice follows the presentation cadence (when the
		// controls can), the others are intervals as set.
		name:   "variable interval",
		active: variable,
		value: func(p *Panel, o *timing.Options) string {
			if pf, ok := p.ctl.(PresentationFollower); ok && pf.FollowPresentation() {
				return "per present (" + durText(pf.VariableInterval()) + ")"
			}
			if o.Interval == 0 {
				return "0 (unpaced)"
			}
			return durText(o.Interval)
		},
		change: func(p *Panel, o *timing.Options, dir int) (bool, error) {
			pf, ok := p.ctl.(PresentationFollower)
			if !ok {
				o.Interval = step(intervals, o.Interval, dir, false)
				return true, nil
			}
			choices := append([]time.Duration{followChoice}, intervals...)
			cur := o.Interval
			if pf.FollowPresentation() {
				cur = followChoice
			}
			next := step(choices, cur, dir, false)
			pf.SetFollowPresentation(next == followChoice)
			if next == followChoice {
				return false, nil
			}
			o.Interval = next
			return true, nil
		},
	},
	{
		name:   "fixed step",
		active: fixed,
		value: func(_ *Panel, o *timing.Options) string {
			if r := o.Rate; !r.IsZero() {
				if r.Den == 1 {
					return strconv.FormatInt(r.Num, 10) + " Hz"
				}
				return strconv.FormatInt(r.Num, 10) + "/" + strconv.FormatInt(r.Den, 10) + " Hz"
			}
			return durText(o.FixedStep)
		},
		change: func(_ *Panel, o *timing.Options, dir int) (bool, error) {
			cur := o.FixedStep
			if !o.Rate.IsZero() {
				cur = o.Rate.Step()
			}
			o.Rate, o.FixedStep = timing.Rate{}, step(steps, cur, dir, false)
			return true, nil
		},
	},
	{
		name:   "update limit",
		active: fixed,
		value:  func(_ *Panel, o *timing.Options) string { return strconv.Itoa(o.MaxFixedUpdates) },
		change: func(_ *Panel, o *timing.Options, dir int) (bool, error) {
			o.MaxFixedUpdates = step(limits, o.MaxFixedUpdates, dir, false)
			o.RecoveryPrefix = min(o.RecoveryPrefix, o.MaxFixedUpdates) // keep the pair valid
			return true, nil
		},
	},
	timingRow("recovery policy", fixed, func(o *timing.Options) *timing.Recovery { return &o.Recovery },
		[]timing.Recovery{timing.DropExcessLag, timing.VariableCatchUp, timing.RepayDebt}, true, timing.Recovery.String),
	{
		name:   "catch-up prefix",
		active: catchUp,
		value:  func(_ *Panel, o *timing.Options) string { return strconv.Itoa(o.RecoveryPrefix) },
		change: func(_ *Panel, o *timing.Options, dir int) (bool, error) {
			o.RecoveryPrefix = min(step(prefixes, o.RecoveryPrefix, dir, false), o.MaxFixedUpdates)
			return true, nil
		},
	},
	timingRow("catch-up cap", catchUp, func(o *timing.Options) *time.Duration { return &o.RecoveryCap },
		caps, false, func(d time.Duration) string {
			if d == 0 {
				return "0 (no cap)"
			}
			return durText(d)
		}),
	timingRow("pacing", debt, func(o *timing.Options) *bool { return &o.Debt.Pacing }, []bool{false, true}, true, onOff),
	timingRow("  max speed-up", pacing, func(o *timing.Options) *float64 { return &o.Debt.MaxSpeedUp }, speedUps, false, floatText),
	timingRow("  max slow-down", pacing, func(o *timing.Options) *float64 { return &o.Debt.MaxSlowDown }, slowDowns, false, floatText),
	timingRow("  gain (per s)", pacing, func(o *timing.Options) *float64 { return &o.Debt.Gain }, gains, false, floatText),
	timingRow("quiet ticks", debt, func(o *timing.Options) *bool { return &o.Debt.QuietTicks }, []bool{false, true}, true, onOff),
	timingRow("coarse cosmetic", debt, func(o *timing.Options) *bool { return &o.Debt.CoarseCosmetic }, []bool{false, true}, true, onOff),
	timingRow("  every k ticks", coarse, func(o *timing.Options) *int { return &o.Debt.CosmeticEvery }, everies, false, strconv.Itoa),
	{
		name:   "variable step",
		active: debt,
		value:  func(_ *Panel, o *timing.Options) string { return onOff(o.Debt.VariableStep) },
		change: func(_ *Panel, o *timing.Options, dir int) (bool, error) {
			if o.Rollback {
				return false, errors.New("variable step is refused for a rollback game")
			}
			o.Debt.VariableStep = !o.Debt.VariableStep
			return true, nil
		},
	},
	timingRow("  max step scale", variableStep, func(o *timing.Options) *int { return &o.Debt.MaxStepScale }, scales, false, strconv.Itoa),
	timingRow("cutoff", debt, func(o *timing.Options) *time.Duration { return &o.Debt.Cutoff }, cutoffs, false, durText),
	timingRow("suspend after", debt, func(o *timing.Options) *time.Duration { return &o.Debt.SuspendAfter }, suspensions, false, func(d time.Duration) string {
		if d == 0 {
			return "never"
		}
		return durText(d)
	}),
	timingRow("past cutoff", debt, func(o *timing.Options) *timing.PastCutoff { return &o.Debt.PastCutoff },
		[]timing.PastCutoff{timing.SlowDown, timing.DropTime}, true, timing.PastCutoff.String),
	{
		name:   "input delivery",
		active: always,
		value:  func(p *Panel, _ *timing.Options) string { return p.delivery.String() },
		change: func(p *Panel, o *timing.Options, dir int) (bool, error) {
			next := step([]input.Delivery{input.Backlog, input.Timestamped}, p.delivery, dir, true)
			if err := input.ValidateDelivery(next, o.Mode == timing.FixedMode); err != nil {
				return false, err
			}
			ds, ok := p.ctl.(DeliverySetter)
			if !ok {
				return false, fmt.Errorf("this runtime cannot switch delivery while running; restart with --set polling.delivery=%s", next)
			}
			if err := ds.SetDelivery(next); err != nil {
				return false, err
			}
			p.delivery = next
			return false, nil
		},
	},
	{
		// Variable updates each end at their present: nothing to
		// interpolate, so the row matters in fixed mode only.
		name:   "interpolation",
		active: fixed,
		value: func(p *Panel, _ *timing.Options) string {
			if in, ok := p.ctl.(Interpolator); ok {
				return onOff(in.Interpolation())
			}
			return "as configured"
		},
		change: func(p *Panel, _ *timing.Options, dir int) (bool, error) {
			in, ok := p.ctl.(Interpolator)
			if !ok {
				return false, errors.New("this runtime cannot switch interpolation while running; restart with --set render.interpolation=true or false")
			}
			return false, in.SetInterpolation(!in.Interpolation())
		},
	},
	{
		name:   "frame cap",
		active: always,
		value:  func(p *Panel, _ *timing.Options) string { return capText(p.frameCap) },
		change: func(p *Panel, _ *timing.Options, dir int) (bool, error) {
			next := step(frameCaps, p.frameCap, dir, false)
			if err := p.ctl.SetFrameCap(next); err != nil {
				return false, err
			}
			p.frameCap = next
			return false, nil
		},
	},
	{
		// What the session does while its window has no focus; the
		// runtime switches from its next poll.
		name:   "when unfocused",
		active: always,
		value: func(p *Panel, _ *timing.Options) string {
			if fs, ok := p.ctl.(FocusSetter); ok {
				return fs.FocusPolicy().String()
			}
			return "as configured"
		},
		change: func(p *Panel, _ *timing.Options, dir int) (bool, error) {
			fs, ok := p.ctl.(FocusSetter)
			if !ok {
				return false, errors.New("this runtime cannot switch the focus policy while running; restart with --set window.focus_policy=pause")
			}
			next := step([]runtime.FocusPolicy{runtime.FocusRun, runtime.FocusPause, runtime.FocusThrottle}, fs.FocusPolicy(), dir, true)
			return false, fs.SetFocusPolicy(next)
		},
	},
}

// Rows returns the number of rows.
func (p *Panel) Rows() int { return len(settings) }

// Selected returns the index of the selected row.
func (p *Panel) Selected() int { return p.sel }

// Select selects row i, clamped to the rows.
func (p *Panel) Select(i int) { p.sel = min(max(i, 0), len(settings)-1) }

// Move moves the selection by d rows, wrapping around.
func (p *Panel) Move(d int) {
	n := len(settings)
	p.sel = ((p.sel+d)%n + n) % n
}

// Status returns what the latest change did, or why it was refused.
func (p *Panel) Status() string { return p.status }

// Note puts s on the status line: what a key outside the panel did (the
// fullscreen switch).
func (p *Panel) Note(s string) { p.status = s }

// Changes counts the changes put in force.
func (p *Panel) Changes() int { return p.changes }

// Value returns the current value of row i as displayed.
func (p *Panel) Value(i int) string {
	o := p.ctl.TimingOptions()
	return settings[i].value(p, &o)
}

// Name returns the label of row i.
func (p *Panel) Name(i int) string { return strings.TrimSpace(settings[i].name) }

// Change steps the selected setting dir places through its choices and puts
// the result in force at once. A change the runtime refuses leaves every
// setting as it was; the status line says why, naming the setting.
func (p *Panel) Change(dir int) error {
	if dir == 0 {
		return nil
	}
	s := settings[p.sel]
	o := p.ctl.TimingOptions()
	before := s.value(p, &o)
	apply, err := s.change(p, &o, dir)
	if err == nil && apply {
		err = p.ctl.SetTimingOptions(o)
	}
	name := strings.TrimSpace(s.name)
	if err != nil {
		// Keep the first line: errors.Join puts one problem per line.
		msg, _, _ := strings.Cut(err.Error(), "\n")
		p.status = name + ": refused: " + msg
		return fmt.Errorf("demo: %s: %w", name, err)
	}
	after := p.Value(p.sel)
	if !apply {
		after = s.value(p, &o)
	}
	p.status = name + ": " + before + " -> " + after
	if before != after {
		p.changes++
	}
	return nil
}

// AppendText appends the panel's text: a title, one line per row with the
// selected one marked, settings that do not matter under the current mode
// and policy in brackets, and the status line.
func (p *Panel) AppendText(dst []byte) []byte {
	o := p.ctl.TimingOptions()
	dst = append(dst, "RESILIENCE PANEL  (Up/Down, Left/Right)\n"...)
	for i, s := range settings {
		mark := "  "
		if i == p.sel {
			mark = "> "
		}
		dst = append(dst, mark...)
		v := s.value(p, &o)
		if s.active(&o) {
			dst = append(dst, s.name...)
			dst = append(dst, ": "...)
			dst = append(dst, v...)
		} else {
			dst = append(dst, '(')
			dst = append(dst, strings.TrimSpace(s.name)...)
			dst = append(dst, ": "...)
			dst = append(dst, v...)
			dst = append(dst, ')')
		}
		dst = append(dst, '\n')
	}
	dst = append(dst, p.status...)
	return dst
}
