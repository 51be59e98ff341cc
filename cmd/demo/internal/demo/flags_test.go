package demo_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// options parses args and returns the runtime options they configure.
func options(t *testing.T, args ...string) (demo.Settings, runtime.Options) {
	t.Helper()
	s, err := demo.ParseArgs(args, io.Discard)
	if err != nil {
		t.Fatalf("ParseArgs(%q): %v", args, err)
	}
	o, err := s.Config.RuntimeOptions("test")
	if err != nil {
		t.Fatalf("RuntimeOptions after %q: %v", args, err)
	}
	return s, o
}

// TestSeedFlags maps each of seed 000's timing switches onto the option it
// sets, alone and all together.
func TestSeedFlags(t *testing.T) {
	def := runtime.DefaultOptions()
	tests := []struct {
		args  []string
		check func(o runtime.Options) (got, want any)
	}{
		{[]string{"--concurrent"}, func(o runtime.Options) (any, any) { return o.Mode, runtime.Concurrent }},
		{[]string{"--concurrent=false"}, func(o runtime.Options) (any, any) { return o.Mode, runtime.Sequential }},
		{[]string{"--fixed-step-ms=20"}, func(o runtime.Options) (any, any) {
			return [2]any{o.Timing.Mode, o.Timing.FixedStep}, [2]any{timing.FixedMode, 20 * time.Millisecond}
		}},
		{[]string{"--fixed-step-ms=16.667"}, func(o runtime.Options) (any, any) { return o.Timing.FixedStep, 16667 * time.Microsecond }},
		{[]string{"--variable-catch-up"}, func(o runtime.Options) (any, any) { return o.Timing.Recovery, timing.VariableCatchUp }},
		{[]string{"--max-fixed-updates=2"}, func(o runtime.Options) (any, any) { return o.Timing.MaxFixedUpdates, 2 }},
		{[]string{"--max-fixed-updates=2", "--recovery-prefix=2"}, func(o runtime.Options) (any, any) { return o.Timing.RecoveryPrefix, 2 }},
		{[]string{"--recovery-cap-ms=100"}, func(o runtime.Options) (any, any) { return o.Timing.RecoveryCap, 100 * time.Millisecond }},
		{[]string{"--recovery-cap-ms=0"}, func(o runtime.Options) (any, any) { return o.Timing.RecoveryCap, time.Duration(0) }},
		{[]string{"--fixed", "--repay-debt"}, func(o runtime.Options) (any, any) {
			return [2]any{o.Timing.Mode, o.Timing.Recovery}, [2]any{timing.FixedMode, timing.RepayDebt}
		}},
		{[]string{"--fixed", "--timestamped-input"}, func(o runtime.Options) (any, any) { return o.Polling.Delivery, input.Timestamped }},
		{[]string{"--frame-cap=60"}, func(o runtime.Options) (any, any) { return o.FrameCap, time.Second / 60 }},
		{[]string{"--set", "timing.debt.gain=2"}, func(o runtime.Options) (any, any) { return o.Timing.Debt.Gain, 2.0 }},
		// Later overrides win, in command-line order.
		{[]string{"--set", "runtime.mode=concurrent", "--concurrent=false"}, func(o runtime.Options) (any, any) { return o.Mode, runtime.Sequential }},
		{[]string{}, func(o runtime.Options) (any, any) {
			return [3]any{o.Mode, o.Timing.Mode, o.Timing.Recovery}, [3]any{def.Mode, def.Timing.Mode, def.Timing.Recovery}
		}},
		// The whole seed line.
		{strings.Fields("--concurrent --fixed-step-ms=20 --variable-catch-up --max-fixed-updates=2 --recovery-prefix=2 --recovery-cap-ms=100"),
			func(o runtime.Options) (any, any) {
				return [7]any{o.Mode, o.Timing.Mode, o.Timing.FixedStep, o.Timing.Recovery, o.Timing.MaxFixedUpdates, o.Timing.RecoveryPrefix, o.Timing.RecoveryCap},
					[7]any{runtime.Concurrent, timing.FixedMode, 20 * time.Millisecond, timing.VariableCatchUp, 2, 2, 100 * time.Millisecond}
			}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, o := options(t, tt.args...)
			if got, want := tt.check(o); got != want {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

func TestRunFlags(t *testing.T) {
	tests := []struct {
		args  []string
		check func(s demo.Settings) (got, want any)
	}{
		{[]string{"--headless"}, func(s demo.Settings) (any, any) {
			return [2]any{s.Headless(), s.RunFor}, [2]any{true, demo.DefaultHeadlessRun}
		}},
		{[]string{"--headless", "--frames=300"}, func(s demo.Settings) (any, any) { return [2]any{s.Frames, s.RunFor}, [2]any{300, time.Duration(0)} }},
		{[]string{"--run-for=2s"}, func(s demo.Settings) (any, any) { return s.RunFor, 2 * time.Second }},
		{[]string{"--screenshot=a.png", "--timing-report=r.json", "--timing-chart=r.svg"}, func(s demo.Settings) (any, any) {
			return [3]string{s.Screenshot, s.TimingReport, s.TimingChart}, [3]string{"a.png", "r.json", "r.svg"}
		}},
		{[]string{"--bench=5000"}, func(s demo.Settings) (any, any) {
			return [5]any{s.Bench, s.Sprites, s.SpriteSize, s.Config.Window.VSync, s.RunFor}, [5]any{5000, 5000, 2, false, demo.DefaultBenchRun}
		}},
		{[]string{"--bench=10", "--sprite-size=8"}, func(s demo.Settings) (any, any) { return s.SpriteSize, 8 }},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			s, _ := options(t, tt.args...)
			if got, want := tt.check(s); got != want {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

// TestFlagErrors checks that an invalid value is refused with a message
// naming the flag (or key) and what is allowed, and that every problem on a
// line is reported at once.
func TestFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want []string // substrings of the error
	}{
		{[]string{"--fixed-step-ms=abc"}, []string{"--fixed-step-ms=abc", "milliseconds"}},
		{[]string{"--fixed-step-ms=-5"}, []string{"--fixed-step-ms=-5", "at least 0"}},
		{[]string{"--fixed-step-ms=0"}, []string{"--fixed-step-ms", "timing.step"}},
		{[]string{"--max-fixed-updates=0"}, []string{"--max-fixed-updates", "timing.max_fixed_updates", "allowed"}},
		{[]string{"--max-fixed-updates=two"}, []string{"--max-fixed-updates=two", "whole number"}},
		{[]string{"--recovery-prefix=3", "--max-fixed-updates=2"}, []string{"timing.recovery_prefix"}},
		{[]string{"--recovery-cap-ms=x"}, []string{"--recovery-cap-ms=x"}},
		{[]string{"--concurrent=maybe"}, []string{"--concurrent=maybe", "true or false"}},
		{[]string{"--set", "timing.mode"}, []string{"--set=timing.mode", "key=value"}},
		{[]string{"--set", "timing.recovry=repay-debt"}, []string{"timing.recovry", "did you mean timing.recovery"}},
		{[]string{"--timestamped-input"}, []string{"timestamped"}},
		{[]string{"--frames=-1"}, []string{"--frames=-1"}},
		{[]string{"--bench=-3"}, []string{"--bench=-3"}},
		{[]string{"--config=does-not-exist.toml"}, []string{"does-not-exist.toml"}},
		{[]string{"stray"}, []string{`unexpected argument "stray"`}},
		{[]string{"--no-such-flag"}, []string{"no-such-flag"}},
		// Every problem at once.
		{[]string{"--fixed-step-ms=abc", "--max-fixed-updates=x", "--frames=-2"}, []string{"--fixed-step-ms=abc", "--max-fixed-updates=x", "--frames=-2"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, err := demo.ParseArgs(tt.args, io.Discard)
			if err == nil {
				t.Fatal("got no error, want one")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestHelp(t *testing.T) {
	var out strings.Builder
	_, err := demo.ParseArgs([]string{"--help"}, &out)
	if !errors.Is(err, demo.ErrHelp) {
		t.Fatalf("got %v, want ErrHelp", err)
	}
	for _, w := range []string{"--fixed-step-ms", "--variable-catch-up", "--bench", "Space dash"} {
		if !strings.Contains(out.String(), strings.TrimLeft(w, "-")) {
			t.Errorf("usage lacks %q:\n%s", w, out.String())
		}
	}
}

func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.toml")
	if err := os.WriteFile(path, []byte("[timing]\nmode = \"fixed\"\nmax_fixed_updates = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, o := options(t, "--config", path, "--max-fixed-updates=4")
	if s.ConfigPath != path {
		t.Errorf("config path: got %q, want %q", s.ConfigPath, path)
	}
	if o.Timing.Mode != timing.FixedMode || o.Timing.MaxFixedUpdates != 4 {
		t.Errorf("got mode %v and limit %d, want fixed from the file and 4 from the flag", o.Timing.Mode, o.Timing.MaxFixedUpdates)
	}
}

// TestRepositoryConfig checks that the repository's config.toml, the demo's
// configuration, loads and is valid.
func TestRepositoryConfig(t *testing.T) {
	path := filepath.Join("..", "..", "..", "..", "config.toml")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no repository config.toml: %v", err)
	}
	options(t, "--config", path)
}
