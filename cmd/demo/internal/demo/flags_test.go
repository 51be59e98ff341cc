package demo_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/framework/config"
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
		// No flags: the demo's embedded config.toml.
		{[]string{}, func(o runtime.Options) (any, any) {
			return [3]any{o.Mode, o.Timing.Mode, o.Timing.Recovery}, [3]any{def.Mode, timing.FixedMode, timing.RepayDebt}
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
			return [2]any{s.Headless(), s.Flags.RunFor}, [2]any{true, demo.DefaultHeadlessRun}
		}},
		{[]string{"--headless", "--frames=300"}, func(s demo.Settings) (any, any) {
			return [2]any{s.Flags.Frames, s.Flags.RunFor}, [2]any{300, time.Duration(0)}
		}},
		{[]string{"--run-for=2s"}, func(s demo.Settings) (any, any) { return s.Flags.RunFor, 2 * time.Second }},
		{[]string{"--screenshot=a.png", "--timing-report=r.json", "--timing-chart=r.svg"}, func(s demo.Settings) (any, any) {
			return [3]string{s.Flags.Screenshot, s.TimingReport, s.TimingChart}, [3]string{"a.png", "r.json", "r.svg"}
		}},
		{[]string{"--bench=5000"}, func(s demo.Settings) (any, any) {
			return [5]any{s.Bench, s.Sprites, s.SpriteSize, s.Config.Window.VSync, s.Flags.RunFor}, [5]any{5000, 5000, 2, false, demo.DefaultBenchRun}
		}},
		// A benchmark runs one fixed 1 kHz update per frame, uncapped.
		{[]string{"--bench=10"}, func(s demo.Settings) (any, any) {
			return [4]any{s.Config.Timing.Mode, s.Config.Timing.Rate, s.Config.Timing.MaxFixedUpdates, s.Config.Runtime.FrameCap},
				[4]any{timing.FixedMode, timing.Hz(1000), 1, 0}
		}},
		// Flags after --bench still win.
		{[]string{"--bench=10", "--frame-cap=30"}, func(s demo.Settings) (any, any) { return s.Config.Runtime.FrameCap, 30 }},
		{[]string{"--interp=off"}, func(s demo.Settings) (any, any) {
			return [2]any{s.Interp, s.Config.Render.Interpolation}, [2]any{demo.InterpOff, false}
		}},
		{[]string{}, func(s demo.Settings) (any, any) { return s.Config.Render.Interpolation, true }},
		{[]string{"--bench=10", "--interp=compare"}, func(s demo.Settings) (any, any) {
			return [2]any{s.Interp, s.Config.Render.Interpolation}, [2]any{demo.InterpCompare, true}
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
		{[]string{"--set", "timing.mode=variable", "--timestamped-input"}, []string{"timestamped"}},
		{[]string{"--frames=-1"}, []string{"--frames -1"}},
		{[]string{"--bench=-3"}, []string{"--bench=-3"}},
		{[]string{"--config=does-not-exist.toml"}, []string{"does-not-exist.toml"}},
		{[]string{"stray"}, []string{`unexpected argument "stray"`}},
		{[]string{"--no-such-flag"}, []string{"no-such-flag"}},
		// Every problem at once.
		{[]string{"--fixed-step-ms=abc", "--max-fixed-updates=x", "--frames=-2"}, []string{"--fixed-step-ms=abc", "--max-fixed-updates=x", "--frames -2"}},
		{[]string{"--interp=maybe"}, []string{"--interp=maybe", "on, off or compare"}},
		{[]string{"--interp=compare"}, []string{"--interp=compare", "--bench"}},
		{[]string{"--set", "render.interpolation=sometimes"}, []string{"--set=render.interpolation=sometimes", "render.interpolation"}},
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
	// The demo's own flags and the framework's, and no panic from the
	// flag package's look at their zero values.
	for _, w := range []string{"--fixed-step-ms", "--variable-catch-up", "--concurrent", "--bench", "--interp",
		"--set", "--config", "--run-for", "--frames", "--headless", "--screenshot", "--print-config", "Space dash"} {
		if !strings.Contains(out.String(), strings.TrimLeft(w, "-")) {
			t.Errorf("usage lacks %q:\n%s", w, out.String())
		}
	}
	if strings.Contains(out.String(), "panic") {
		t.Errorf("usage reports a panic:\n%s", out.String())
	}
}

func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.toml")
	if err := os.WriteFile(path, []byte("[timing]\nmode = \"fixed\"\nmax_fixed_updates = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, o := options(t, "--config", path, "--max-fixed-updates=4")
	if got := s.Config.Source("timing.mode").Name; got != path {
		t.Errorf("timing.mode came from %q, want the file %q", got, path)
	}
	if !strings.Contains(s.Source, path) {
		t.Errorf("source %q does not name the file %q", s.Source, path)
	}
	if o.Timing.Mode != timing.FixedMode || o.Timing.MaxFixedUpdates != 4 {
		t.Errorf("got mode %v and limit %d, want fixed from the file and 4 from the flag", o.Timing.Mode, o.Timing.MaxFixedUpdates)
	}
}

// TestRepositoryConfig checks that the repository's config.toml, the demo's
// configuration, loads and is valid, and that every range its comments
// state is the one framework/config/defaults.toml states for the key (a
// test there checks those against the owning packages), so the demo's file
// cannot drift from what the packages enforce.
func TestRepositoryConfig(t *testing.T) {
	path := "config.toml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the repository's config.toml: %v", err)
	}
	options(t, "--config", path)

	ours, theirs := keyComments(data), keyComments(config.DefaultsTOML())
	known := map[string]bool{}
	for _, key := range config.Keys() {
		known[key] = true
		comment, ok := ours[key]
		if !ok {
			continue // every key is optional
		}
		got, want := rangePhrases(comment), rangePhrases(theirs[key])
		if !slices.Equal(got, want) {
			t.Errorf("%s: config.toml states the range %q, defaults.toml %q", key, got, want)
		}
	}
	for key := range ours {
		if !known[key] && !strings.HasPrefix(key, "input.bindings.") {
			t.Errorf("config.toml documents %s, which is not a framework key", key)
		}
	}
	if len(ours) < len(config.Keys())/2 {
		t.Errorf("read comments of %d keys from config.toml, want most of the %d keys", len(ours), len(config.Keys()))
	}
}

// keyComments returns, for every key assigned in a TOML document, its
// comment with the indented comment lines below it.
func keyComments(doc []byte) map[string]string {
	out := map[string]string{}
	table, last := "", ""
	for _, line := range strings.Split(string(doc), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "["):
			table, last = strings.Trim(strings.Fields(trimmed)[0], "[]"), ""
		case strings.HasPrefix(trimmed, "#"):
			if last != "" && strings.HasPrefix(line, " ") {
				out[last] += " " + strings.TrimPrefix(trimmed, "#")
			}
		case trimmed != "":
			name, _, _ := strings.Cut(trimmed, "=")
			last = table + "." + strings.TrimSpace(name)
			_, comment, _ := strings.Cut(trimmed, "#")
			out[last] = comment
		}
	}
	return out
}

// rangePattern finds the ways defaults.toml states a range: "1 to 64",
// "0 to max_fixed_updates", "one step to 1h", "above 0 up to 10",
// "0s or more", "at most 256 bytes", "N and D at most 1000000000".
var rangePattern = regexp.MustCompile(`above [0-9][^\s,;)]* up to [0-9][^\s,;)]*|(?:[0-9][^\s,;)]*|one step) to (?:[0-9][^\s,;)]*|max_fixed_updates)|[0-9][^\s,;)]* or more|at most [0-9]+( bytes)?`)

// rangePhrases returns the ranges a comment states, sorted.
func rangePhrases(comment string) []string {
	return slices.Sorted(slices.Values(rangePattern.FindAllString(comment, -1)))
}

// TestRangePhrases: the range finder sees every form defaults.toml uses,
// and nothing in ordinary words.
func TestRangePhrases(t *testing.T) {
	tests := []struct {
		comment string
		want    []string
	}{
		{"fixed updates allowed in one cycle, 1 to 64 (--max-fixed-updates)", []string{"1 to 64"}},
		{"fixed updates before the larger one, 0 to max_fixed_updates", []string{"0 to max_fixed_updates"}},
		{"share of the debt repaid per second, above 0 up to 10", []string{"above 0 up to 10"}},
		{"largest catch-up update, 0s or more; \"0s\" = no cap", []string{"0s or more"}},
		{"debt beyond this is handled by past_cutoff, one step to 1h", []string{"one step to 1h"}},
		{"window title, at most 256 bytes", []string{"at most 256 bytes"}},
		{"1/3600 to 1000000000, N and D at most 1000000000; 0 = use step", []string{"1/3600 to 1000000000", "at most 1000000000"}},
		{"run faster or slower than real time to repay debt", nil},
		{"most frames per second, 1 to 1000, paced", []string{"1 to 1000"}},
	}
	for _, tt := range tests {
		if got := rangePhrases(tt.comment); !slices.Equal(got, tt.want) {
			t.Errorf("rangePhrases(%q) = %q, want %q", tt.comment, got, tt.want)
		}
	}
}

// TestConfigTravels runs the demo from a directory with no config.toml, as
// a page does (a browser build has no working directory) and as a player
// does who runs the binary from elsewhere: the demo's configuration
// (60 Hz fixed ticks repaying debt) still applies, so the page simulates
// the world the native demo shows. Under the framework's defaults
// (variable updates of the real elapsed time) the page's 2 s start-up
// stall became one update that sent every bunny to the ceiling or the
// floor, where they moved on as one strip.
func TestConfigTravels(t *testing.T) {
	file, err := filepath.Abs("config.toml")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	_, o := options(t)
	_, wantOpts := options(t, "--config", file)
	if o.Timing.Mode != timing.FixedMode || !reflect.DeepEqual(o, wantOpts) {
		t.Errorf("the demo's options away from its config.toml:\n%+v\nwant the file's:\n%+v", o, wantOpts)
	}
	if o.Timing.Mode != timing.FixedMode || o.Timing.Recovery != wantOpts.Timing.Recovery {
		t.Errorf("timing away from config.toml: mode %v, recovery %v; want fixed ticks and %v", o.Timing.Mode, o.Timing.Recovery, wantOpts.Timing.Recovery)
	}
}
