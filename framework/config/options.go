package config

import (
	"errors"

	"github.com/metronome-go/metronome/runtime"
)

// RuntimeOptions turns the [runtime], [timing], [timing.debt] and [polling]
// tables into runtime options, starting from [runtime.DefaultOptions]. The
// timing and polling options are c's own; the [runtime] table's rates
// become intervals. It validates c first ([Config.Validate] with source),
// so the runtime's Validate accepts what it returns.
func (c *Config) RuntimeOptions(source string) (runtime.Options, error) {
	if err := c.Validate(source); err != nil {
		return runtime.Options{}, err
	}
	o := c.runtimeOptions()
	if err := o.Validate(); err != nil {
		return runtime.Options{}, errors.Join(errors.New("config: options the configuration accepted fail the runtime's check"), err)
	}
	return o, nil
}
