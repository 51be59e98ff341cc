package config

import (
	"errors"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// RuntimeOptions turns the [runtime], [timing], [timing.debt] and [polling]
// tables into runtime options, starting from [runtime.DefaultOptions] and
// validated by the runtime itself. source names the configuration's origin
// in errors.
func (c *Config) RuntimeOptions(source string) (runtime.Options, error) {
	o := runtime.DefaultOptions()
	var errs []error
	bad := func(key, value string, err error) {
		errs = append(errs, &Error{File: source, Key: key, Value: value, Problem: err.Error()})
	}
	var err error
	if o.Mode, err = runtime.ParseMode(c.Runtime.Mode); err != nil {
		bad("runtime.mode", c.Runtime.Mode, err)
	}
	if c.Runtime.FrameCap > 0 {
		o.FrameCap = time.Second / time.Duration(c.Runtime.FrameCap)
	} else {
		o.FrameCap = 0
	}
	if c.Runtime.HiddenRate > 0 {
		o.HiddenInterval = time.Second / time.Duration(c.Runtime.HiddenRate)
	}

	t := &o.Timing
	if t.Mode, err = timing.ParseMode(c.Timing.Mode); err != nil {
		bad("timing.mode", c.Timing.Mode, err)
	}
	t.Interval = c.Timing.Interval
	t.FixedStep = c.Timing.Step
	t.Rate = c.Timing.Rate
	t.MaxFixedUpdates = c.Timing.MaxFixedUpdates
	if t.Recovery, err = timing.ParseRecovery(c.Timing.Recovery); err != nil {
		bad("timing.recovery", c.Timing.Recovery, err)
	}
	t.RecoveryPrefix = c.Timing.RecoveryPrefix
	t.RecoveryCap = c.Timing.RecoveryCap
	t.Rollback = c.Timing.Debt.Rollback

	d := &t.Debt
	cd := c.Timing.Debt
	d.Pacing = cd.Pacing
	d.MaxSpeedUp = cd.MaxSpeedUp
	d.MaxSlowDown = cd.MaxSlowDown
	d.Gain = cd.Gain
	d.QuietTicks = cd.QuietTicks
	d.CoarseCosmetic = cd.CoarseCosmetic
	d.CosmeticEvery = cd.CoarseCosmeticEvery
	d.VariableStep = cd.VariableStep
	d.MaxStepScale = cd.MaxStepScale
	d.Cutoff = cd.Cutoff
	d.SuspendAfter = cd.SuspendAfter
	if d.PastCutoff, err = timing.ParsePastCutoff(cd.PastCutoff); err != nil {
		bad("timing.debt.past_cutoff", cd.PastCutoff, err)
	}

	p := &o.Polling
	p.Spacing = c.Polling.Spacing
	p.Capacity = c.Polling.Capacity
	if p.Delivery, err = input.ParseDelivery(c.Polling.Delivery); err != nil {
		bad("polling.delivery", c.Polling.Delivery, err)
	}
	if len(errs) == 0 {
		if err := o.Validate(); err != nil {
			errs = append(errs, &Error{File: source, Problem: err.Error()})
		}
	}
	if len(errs) > 0 {
		return runtime.Options{}, errors.Join(errs...)
	}
	return o, nil
}
