package demo_test

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// The seed's timing switches become configuration overrides, applied in
// command-line order after the configuration file.
func ExampleParseArgs() {
	s, err := demo.ParseArgs(strings.Fields("--concurrent --fixed-step-ms=20 --variable-catch-up --max-fixed-updates=2 --recovery-prefix=2 --recovery-cap-ms=100"), io.Discard)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range s.Flags.Sets {
		fmt.Println(o)
	}
	// Output:
	// runtime.mode=concurrent
	// timing.mode=fixed
	// timing.rate=0
	// timing.step=20ms
	// timing.recovery=variable-catch-up
	// timing.max_fixed_updates=2
	// timing.recovery_prefix=2
	// timing.recovery_cap=100ms
}

// The panel puts a change in force at once; a change the runtime refuses
// leaves everything as it was and says why.
func ExamplePanel() {
	o := timing.DefaultOptions()
	o.Mode = timing.FixedMode
	c := &controls{o: o}
	p := demo.NewPanel(c, 0, input.Backlog)
	p.Select(4) // recovery policy
	p.Change(+1)
	fmt.Println(p.Status())
	fmt.Println(c.o.Recovery)
	// Output:
	// recovery policy: drop-excess-lag -> variable-catch-up
	// variable-catch-up
}

// A headless run on a manual clock: a 500 ms stall under the default
// drop-excess-lag policy with 20 ms steps shows up as dropped time, and the
// ledger still accounts for every nanosecond.
func ExampleGame_Inject() {
	cfg := mustConfig("timing.mode=fixed", "timing.step=20ms", "timing.max_fixed_updates=2")
	var sim *frameworktest.Sim
	g, _ := demo.New(demo.Options{Sprites: 10, Sleep: func(d time.Duration) { sim.Clock.Advance(d) }})
	sim, _ = frameworktest.New(g.Framework(), frameworktest.Options{Config: &cfg})
	sim.Input.Tap(sim.At(time.Second), input.Key2, 20*time.Millisecond) // key 2: a 500 ms stall
	if err := sim.RunTicks(100); err != nil {
		fmt.Println(err)
		return
	}
	r := g.Report()
	fmt.Println("dropped at least 400 ms:", r.Ledger.DroppedNS >= int64(400*time.Millisecond))
	fmt.Println("ledger balanced:", r.Ledger.Balanced)
	// Output:
	// dropped at least 400 ms: true
	// ledger balanced: true
}
