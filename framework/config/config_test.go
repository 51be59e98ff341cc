package config_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

func TestDefaults(t *testing.T) {
	c := config.Default()
	if c.Timing.Mode != "variable" || c.Timing.Step != 16666667*time.Nanosecond || c.Timing.MaxFixedUpdates != 1 ||
		c.Timing.Recovery != "drop-excess-lag" || c.Timing.RecoveryCap != 100*time.Millisecond {
		t.Errorf("timing defaults = %+v", c.Timing)
	}
	d := c.Timing.Debt
	if !d.Pacing || d.MaxSpeedUp != 1.25 || d.MaxSlowDown != 0.90 || d.Gain != 0.5 || !d.QuietTicks ||
		d.MaxStepScale != 8 || d.Cutoff != 2*time.Second || d.SuspendAfter != 5*time.Second || d.PastCutoff != "slow-down" {
		t.Errorf("debt defaults = %+v", d)
	}
	if c.Window.Width != 1280 || c.Window.Height != 720 || c.Runtime.HiddenRate != 10 {
		t.Errorf("window/runtime defaults = %+v %+v", c.Window, c.Runtime)
	}
}

// Every key takes a valid value from a file.
func TestEveryKeyParses(t *testing.T) {
	valid := map[string]string{
		"window.title": `"Game"`, "window.width": "800", "window.height": "600", "window.resizable": "false",
		"window.vsync": "false", "window.headless": "true",
		"runtime.mode": `"concurrent"`, "runtime.frame_cap": "144", "runtime.hidden_rate": "5",
		"timing.mode": `"fixed"`, "timing.interval": `"0s"`, "timing.step": `"20ms"`, "timing.rate": `"30000/1001"`,
		"timing.max_fixed_updates": "2", "timing.recovery": `"variable-catch-up"`, "timing.recovery_prefix": "1",
		"timing.recovery_cap": `"0s"`,
		"timing.debt.pacing":  "false", "timing.debt.max_speed_up": "1.5", "timing.debt.max_slow_down": "0.8",
		"timing.debt.gain": "1", "timing.debt.quiet_ticks": "false", "timing.debt.coarse_cosmetic": "true",
		"timing.debt.coarse_cosmetic_every": "3", "timing.debt.variable_step": "true", "timing.debt.max_step_scale": "4",
		"timing.debt.rollback": "false", "timing.debt.cutoff": `"1s"`, "timing.debt.suspend_after": `"10s"`,
		"timing.debt.past_cutoff": `"drop-time"`,
		"polling.spacing":         `"1ms"`, "polling.capacity": "128", "polling.delivery": `"backlog"`,
	}
	for _, key := range config.Keys() {
		v, ok := valid[key]
		if !ok {
			t.Errorf("key %s has no test value", key)
			continue
		}
		t.Run(key, func(t *testing.T) {
			c, err := config.Parse("test.toml", []byte(asTOML(key, v)), config.Default())
			if err != nil {
				t.Fatalf("Parse(%s = %s) = %v", key, v, err)
			}
			if reflect.DeepEqual(c, config.Default()) && key != "timing.debt.rollback" && key != "polling.delivery" {
				t.Errorf("%s = %s changed nothing", key, v)
			}
		})
	}
}

// asTOML writes key = value inside the key's table.
func asTOML(key, value string) string {
	i := strings.LastIndexByte(key, '.')
	return "[" + key[:i] + "]\n" + key[i+1:] + " = " + value + "\n"
}

func TestInvalidValues(t *testing.T) {
	tests := []struct {
		key, value string
		want       []string // substrings of the error
	}{
		{"window.width", "10", []string{"test.toml", "window.width = 10", "from 64 to 16384"}},
		{"window.width", `"wide"`, []string{"want an integer", `the string "wide"`}},
		{"window.vsync", "1", []string{"window.vsync", "want a boolean"}},
		{"runtime.mode", `"paralel"`, []string{`want one of "sequential", "concurrent"`}},
		{"timing.mode", `"fixd"`, []string{`did you mean "fixed"?`}},
		{"timing.step", `"0s"`, []string{"timing.step", "from 1µs to 1s"}},
		{"timing.step", `"-5ms"`, []string{"out of range"}},
		{"timing.step", `"20"`, []string{"duration string", "units"}},
		{"timing.step", `20`, []string{"want a duration string"}},
		{"timing.interval", `"-1ms"`, []string{"timing.interval", "from 0s to 1s"}},
		{"timing.recovery_cap", `"-1ms"`, []string{"timing.recovery_cap", "out of range"}},
		{"timing.max_fixed_updates", "0", []string{"from 1 to 64"}},
		{"timing.rate", `"60/0"`, []string{"fraction"}},
		{"timing.rate", "-3", []string{"at least 0"}},
		{"timing.rate", `"1000000"`, []string{"out of range"}},
		{"timing.debt.max_speed_up", "0.5", []string{"from 1 to 4"}},
		{"timing.debt.max_slow_down", "nan", []string{"finite"}},
		{"timing.debt.past_cutoff", `"resync"`, []string{`"slow-down", "drop-time"`}},
		{"polling.capacity", "0", []string{"polling.capacity = 0", "from 1 to 65536"}},
		{"polling.delivery", `"timestamp"`, []string{`did you mean "timestamped"?`}},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			c, err := config.Parse("test.toml", []byte(asTOML(tt.key, tt.value)), config.Default())
			if err == nil {
				t.Fatalf("Parse accepted %s = %s", tt.key, tt.value)
			}
			if c.Timing.Mode != "" {
				t.Errorf("a failed Parse returned a configuration: %+v", c)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Errorf("error %T is not a *config.Error", err)
			}
		})
	}
}

func TestUnknownKeys(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"[timing]\nrecovry = \"repay-debt\"\n", "timing.recovry: unknown key (did you mean timing.recovery?)"},
		{"[timming]\nmode = \"fixed\"\n", "timming: unknown key (did you mean timing"},
		{"[timing.debt]\ngian = 1.0\n", "did you mean timing.debt.gain"},
		{"volume = 3\n", "volume: unknown key"},
		{"[window]\nsize = 3\n", "window.size: unknown key"},
	}
	for _, tt := range tests {
		_, err := config.Parse("game.toml", []byte(tt.doc), config.Default())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want it to contain %q", tt.doc, err, tt.want)
		}
	}
}

func TestEveryProblemAtOnce(t *testing.T) {
	doc := "[window]\nwidth = 1\n[timing]\nmode = \"fixd\"\nmax_fixed_updates = 0\nbogus = 1\n"
	_, err := config.Parse("game.toml", []byte(doc), config.Default())
	for _, w := range []string{"window.width", "timing.mode", "timing.max_fixed_updates", "timing.bogus"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v does not report %s", err, w)
		}
	}
}

func TestCrossKeyRules(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"[timing]\nmax_fixed_updates = 2\nrecovery_prefix = 3\n", "timing.recovery_prefix = 3: exceeds timing.max_fixed_updates (2)"},
		{"[polling]\ndelivery = \"timestamped\"\n", `polling.delivery = "timestamped": needs fixed steps`},
		{"[timing.debt]\nvariable_step = true\nrollback = true\n", "declares rollback"},
		{"[input.bindings]\njump = []\n", "input.bindings.jump: no key or button names"},
		{"[input.bindings]\njump = [1]\n", "input.bindings.jump = [1]: want a list of strings"},
	}
	for _, tt := range tests {
		_, err := config.Parse("game.toml", []byte(tt.doc), config.Default())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want it to contain %q", tt.doc, err, tt.want)
		}
	}
	ok := "[timing]\nmode = \"fixed\"\n[polling]\ndelivery = \"timestamped\"\n[input.bindings]\njump = [\"Space\", \"GamepadA\"]\n"
	c, err := config.Parse("game.toml", []byte(ok), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Bindings["jump"]; len(got) != 2 || got[1] != "GamepadA" {
		t.Errorf("bindings = %v", c.Bindings)
	}
}

func TestInvalidTOMLNamesThePosition(t *testing.T) {
	_, err := config.Parse("game.toml", []byte("[window]\nwidth = = 3\n"), config.Default())
	if err == nil || !strings.Contains(err.Error(), "game.toml:2:") {
		t.Errorf("err = %v, want a game.toml:2: position", err)
	}
}

func TestSet(t *testing.T) {
	c := config.Default()
	for _, a := range []string{"timing.mode=fixed", "timing.step=20ms", "timing.rate=60", "runtime.mode=concurrent",
		"timing.debt.gain=0.25", "window.vsync=false", "input.bindings.fire=MouseLeft, Space"} {
		if err := c.Set(a); err != nil {
			t.Fatalf("Set(%q) = %v", a, err)
		}
	}
	if c.Timing.Mode != "fixed" || c.Timing.Step != 20*time.Millisecond || c.Timing.Rate != timing.Hz(60) ||
		c.Runtime.Mode != "concurrent" || c.Timing.Debt.Gain != 0.25 || c.Window.VSync || len(c.Bindings["fire"]) != 2 {
		t.Errorf("after Set: %+v", c)
	}
	for _, bad := range []struct{ a, want string }{
		{"timing.mode", "want key=value"},
		{"timing.mod=fixed", "did you mean timing.mode"},
		{"timing.step=fast", "command line: timing.step = fast: want a duration"},
		{"window.vsync=maybe", "want a boolean"},
		{"timing.max_fixed_updates=0", "from 1 to 64"},
	} {
		if err := c.Set(bad.a); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Set(%q) = %v, want %q", bad.a, err, bad.want)
		}
	}
}

func TestParseLeavesBaseAlone(t *testing.T) {
	base := config.Default()
	base.Bindings["jump"] = []string{"Space"}
	if _, err := config.Parse("a.toml", []byte("[input.bindings]\njump = [\"W\"]\n"), base); err != nil {
		t.Fatal(err)
	}
	if base.Bindings["jump"][0] != "Space" {
		t.Errorf("Parse changed its base: %v", base.Bindings)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(string(config.DefaultsTOML()))
	f.Add("[timing]\nmode = \"fixed\"\nrate = \"30000/1001\"\n")
	f.Add("[timing.debt]\ncutoff = \"-1s\"\n[input.bindings]\na = [\"A\"]\n")
	f.Add("x = [1, {a = 2}]\n[[window]]\n")
	f.Fuzz(func(t *testing.T, doc string) {
		c, err := config.Parse("fuzz.toml", []byte(doc), config.Default())
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config: fuzz.toml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if verr := c.Validate("fuzz.toml"); verr != nil {
			t.Fatalf("Parse accepted a configuration that Validate rejects: %v", verr)
		}
	})
}

func TestRuntimeOptionsFromDefaults(t *testing.T) {
	c := config.Default()
	o, err := c.RuntimeOptions("defaults")
	if err != nil {
		t.Fatal(err)
	}
	want := runtime.DefaultOptions()
	if o.Mode != want.Mode || o.FrameCap != want.FrameCap || o.HiddenInterval != want.HiddenInterval {
		t.Errorf("runtime options = %+v, want %+v", o, want)
	}
	if !reflect.DeepEqual(o.Timing, want.Timing) {
		t.Errorf("timing options from the embedded defaults = %+v, want timing.DefaultOptions() %+v", o.Timing, want.Timing)
	}
	if !reflect.DeepEqual(o.Polling, want.Polling) {
		t.Errorf("polling options = %+v, want %+v", o.Polling, want.Polling)
	}
}

func TestRuntimeOptionsMapping(t *testing.T) {
	c := config.Default()
	for _, a := range []string{"runtime.mode=concurrent", "runtime.frame_cap=50", "timing.mode=fixed", "timing.rate=30000/1001",
		"timing.max_fixed_updates=2", "timing.recovery=repay-debt", "timing.debt.past_cutoff=drop-time",
		"timing.debt.variable_step=true", "polling.delivery=timestamped", "polling.capacity=8"} {
		if err := c.Set(a); err != nil {
			t.Fatal(err)
		}
	}
	o, err := c.RuntimeOptions("command line")
	if err != nil {
		t.Fatal(err)
	}
	if o.Mode != runtime.Concurrent || o.FrameCap != 20*time.Millisecond || o.Timing.Mode != timing.FixedMode ||
		o.Timing.Rate != (timing.Rate{Num: 30000, Den: 1001}) || o.Timing.MaxFixedUpdates != 2 ||
		o.Timing.Recovery != timing.RepayDebt || o.Timing.Debt.PastCutoff != timing.DropTime || !o.Timing.Debt.VariableStep ||
		o.Polling.Delivery != input.Timestamped || o.Polling.Capacity != 8 {
		t.Errorf("options = %+v", o)
	}
}
