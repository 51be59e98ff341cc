package timing_test

import (
	"time"

	"github.com/metronome-go/metronome/timing"
)

// repayOpts is 60 Hz fixed mode under RepayDebt with the seed defaults and
// room for two updates per cycle, so pacing can run above one step per frame.
func repayOpts() timing.Options {
	o := schFixed(timing.DefaultInterval, 2, timing.RepayDebt)
	o.Debt = timing.DefaultDebtOptions()
	return o
}

var _ = time.Second
