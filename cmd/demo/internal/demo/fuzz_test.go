package demo_test

import (
	"io"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
)

// FuzzParseArgs feeds command lines to ParseArgs: it never panics, and a
// command line it accepts yields a configuration the runtime accepts.
func FuzzParseArgs(f *testing.F) {
	for _, seed := range []string{
		"--concurrent --fixed-step-ms=20 --variable-catch-up --max-fixed-updates=2 --recovery-prefix=2 --recovery-cap-ms=100",
		"--fixed-step-ms=abc --max-fixed-updates=-1",
		"--set timing.mode=fixed --set timing.recovery=repay-debt --timestamped-input",
		"--bench=100 --sprite-size=300",
		"--headless --frames=3 --run-for=1s",
		"--bench=50000 --interp=compare --set render.interpolation=false",
		"--interp=on --print-config",
		"--recovery-cap-ms=1e300 --fixed-step-ms=NaN",
		"-- stray",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		for _, a := range args {
			// Files are not the fuzzer's business: --config could name a
			// device that never ends.
			if strings.Contains(a, "config") {
				return
			}
		}
		s, err := demo.ParseArgs(args, io.Discard)
		if err != nil {
			return
		}
		if _, err := s.Config.RuntimeOptions("fuzz"); err != nil {
			t.Fatalf("accepted %q but the runtime refuses the configuration: %v", args, err)
		}
		if s.Sprites < 0 || s.Sprites > demo.MaxSprites || s.SpriteSize < 1 || s.Flags.Frames < 0 || s.Flags.RunFor < 0 {
			t.Fatalf("accepted %q with out-of-range settings %+v", args, s)
		}
	})
}
