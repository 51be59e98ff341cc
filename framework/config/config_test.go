package config_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/work"
	"github.com/metronome-go/metronome/timing"
	"github.com/metronome-go/metronome/window"
)

// asTOML writes key = value inside the key's table.
func asTOML(key, value string) string {
	i := strings.LastIndexByte(key, '.')
	return "[" + key[:i] + "]\n" + key[i+1:] + " = " + value + "\n"
}

// The embedded defaults are the owning packages' defaults.
func TestDefaultsAreTheOwnersDefaults(t *testing.T) {
	c := config.Default()
	if got, want := c.Timing, timing.DefaultOptions(); !reflect.DeepEqual(got, want) {
		t.Errorf("timing defaults:\ngot  %+v\nwant %+v", got, want)
	}
	if got, want := c.Polling, input.DefaultPollingOptions(); got != want {
		t.Errorf("polling defaults: got %+v, want %+v", got, want)
	}
	o, err := c.RuntimeOptions("defaults")
	if err != nil {
		t.Fatal(err)
	}
	want := runtime.DefaultOptions()
	if o.Mode != want.Mode || o.FrameCap != want.FrameCap || o.HiddenInterval != want.HiddenInterval || o.Maintenance != want.Maintenance || o.Execution != want.Execution {
		t.Errorf("runtime options = %+v, want %+v", o, want)
	}
	if c.Window.Width != 1280 || c.Window.Height != 720 || c.Window.Title != "Metronome" || !c.Window.VSync {
		t.Errorf("window defaults = %+v", c.Window)
	}
}

// Every key takes a valid value from a file, the value lands where it
// should, and the key remembers the file.
func TestEveryKeyParses(t *testing.T) {
	tests := map[string]struct {
		value string
		check func(c config.Config) bool
	}{
		"window.title":                      {`"Game"`, func(c config.Config) bool { return c.Window.Title == "Game" }},
		"window.width":                      {"800", func(c config.Config) bool { return c.Window.Width == 800 }},
		"window.height":                     {"600", func(c config.Config) bool { return c.Window.Height == 600 }},
		"window.resizable":                  {"false", func(c config.Config) bool { return !c.Window.Resizable }},
		"window.min_size":                   {`"640x0"`, func(c config.Config) bool { return c.Window.MinSize == input.Size{Width: 640} }},
		"window.max_size":                   {`"1920x1080"`, func(c config.Config) bool { return c.Window.MaxSize == input.Size{Width: 1920, Height: 1080} }},
		"window.aspect_ratio":               {`"16:9"`, func(c config.Config) bool { return c.Window.AspectRatio == window.Ratio{Width: 16, Height: 9} }},
		"window.fullscreen":                 {"true", func(c config.Config) bool { return c.Window.Fullscreen }},
		"window.focus_policy":               {`"pause"`, func(c config.Config) bool { return c.Window.FocusPolicy == runtime.FocusPause }},
		"window.vsync":                      {"false", func(c config.Config) bool { return !c.Window.VSync }},
		"window.headless":                   {"true", func(c config.Config) bool { return c.Window.Headless }},
		"window.clear_color":                {`"#202028"`, func(c config.Config) bool { return c.Window.Screen.ClearColor == render2d.RGBA8(32, 32, 40, 255) }},
		"window.logical_size":               {`"320x180"`, func(c config.Config) bool { return c.Window.Screen.Width == 320 && c.Window.Screen.Height == 180 }},
		"window.scaling":                    {`"integer"`, func(c config.Config) bool { return c.Window.Screen.Scaling == render2d.ScaleInteger }},
		"runtime.mode":                      {`"concurrent"`, func(c config.Config) bool { return c.Runtime.Mode == runtime.Concurrent }},
		"runtime.frame_cap":                 {"144", func(c config.Config) bool { return c.Runtime.FrameCap == 144 }},
		"runtime.hidden_rate":               {"5", func(c config.Config) bool { return c.Runtime.HiddenRate == 5 }},
		"runtime.workers":                   {"3", func(c config.Config) bool { return c.Runtime.Workers == 3 }},
		"runtime.settle_timeout":            {`"5s"`, func(c config.Config) bool { return c.Runtime.SettleTimeout == 5*time.Second }},
		"runtime.background_workers":        {"true", func(c config.Config) bool { return c.Runtime.Background }},
		"render.interpolation":              {"false", func(c config.Config) bool { return !c.Render.Interpolation }},
		"render.filter":                     {`"nearest"`, func(c config.Config) bool { return c.Render.Filter == render2d.FilterNearest }},
		"timing.mode":                       {`"fixed"`, func(c config.Config) bool { return c.Timing.Mode == timing.FixedMode }},
		"timing.interval":                   {`"0s"`, func(c config.Config) bool { return c.Timing.Interval == 0 }},
		"timing.step":                       {`"20ms"`, func(c config.Config) bool { return c.Timing.FixedStep == 20*time.Millisecond }},
		"timing.rate":                       {`"30000/1001"`, func(c config.Config) bool { return c.Timing.Rate == timing.Rate{Num: 30000, Den: 1001} }},
		"timing.max_fixed_updates":          {"2", func(c config.Config) bool { return c.Timing.MaxFixedUpdates == 2 }},
		"timing.recovery":                   {`"variable-catch-up"`, func(c config.Config) bool { return c.Timing.Recovery == timing.VariableCatchUp }},
		"timing.recovery_prefix":            {"1", func(c config.Config) bool { return c.Timing.RecoveryPrefix == 1 }},
		"timing.recovery_cap":               {`"0s"`, func(c config.Config) bool { return c.Timing.RecoveryCap == 0 }},
		"timing.debt.pacing":                {"false", func(c config.Config) bool { return !c.Timing.Debt.Pacing }},
		"timing.debt.max_speed_up":          {"1.5", func(c config.Config) bool { return c.Timing.Debt.MaxSpeedUp == 1.5 }},
		"timing.debt.max_slow_down":         {"0.8", func(c config.Config) bool { return c.Timing.Debt.MaxSlowDown == 0.8 }},
		"timing.debt.gain":                  {"1", func(c config.Config) bool { return c.Timing.Debt.Gain == 1 }},
		"timing.debt.quiet_ticks":           {"false", func(c config.Config) bool { return !c.Timing.Debt.QuietTicks }},
		"timing.debt.coarse_cosmetic":       {"true", func(c config.Config) bool { return c.Timing.Debt.CoarseCosmetic }},
		"timing.debt.coarse_cosmetic_every": {"3", func(c config.Config) bool { return c.Timing.Debt.CosmeticEvery == 3 }},
		"timing.debt.variable_step":         {"true", func(c config.Config) bool { return c.Timing.Debt.VariableStep }},
		"timing.debt.max_step_scale":        {"4", func(c config.Config) bool { return c.Timing.Debt.MaxStepScale == 4 }},
		"timing.debt.rollback":              {"true", func(c config.Config) bool { return c.Timing.Rollback }},
		"timing.debt.cutoff":                {`"1s"`, func(c config.Config) bool { return c.Timing.Debt.Cutoff == time.Second }},
		"timing.debt.suspend_after":         {`"10s"`, func(c config.Config) bool { return c.Timing.Debt.SuspendAfter == 10*time.Second }},
		"timing.debt.past_cutoff":           {`"drop-time"`, func(c config.Config) bool { return c.Timing.Debt.PastCutoff == timing.DropTime }},
		"polling.spacing":                   {`"1ms"`, func(c config.Config) bool { return c.Polling.Spacing == time.Millisecond }},
		"polling.capacity":                  {"128", func(c config.Config) bool { return c.Polling.Capacity == 128 }},
		"polling.delivery":                  {`"backlog"`, func(c config.Config) bool { return c.Polling.Delivery == input.Backlog }},
		"audio.enabled":                     {"false", func(c config.Config) bool { return !c.Audio.Enabled }},
		"audio.latency":                     {`"120ms"`, func(c config.Config) bool { return c.Audio.Latency == 120*time.Millisecond }},
		"audio.tolerance":                   {`"0s"`, func(c config.Config) bool { return c.Audio.Tolerance == 0 }},
		"audio.max_voices":                  {"32", func(c config.Config) bool { return c.Audio.MaxVoices == 32 }},
		"audio.master_volume":               {"0.5", func(c config.Config) bool { return c.Audio.Master == 0.5 }},
		"audio.music_volume":                {"0.25", func(c config.Config) bool { return c.Audio.Music == 0.25 }},
		"audio.effects_volume":              {"2.0", func(c config.Config) bool { return c.Audio.Effects == 2 }},
		"audio.ui_volume":                   {"0", func(c config.Config) bool { return c.Audio.UI == 0 }},
		"net.players":                       {"4", func(c config.Config) bool { return c.Net.Players == 4 }},
		"net.delay":                         {"3", func(c config.Config) bool { return c.Net.Delay == 3 }},
		"net.window":                        {"12", func(c config.Config) bool { return c.Net.Window == 12 }},
		"net.hash_every":                    {"1", func(c config.Config) bool { return c.Net.HashEvery == 1 }},
		"net.timeout":                       {`"10s"`, func(c config.Config) bool { return c.Net.Timeout == 10*time.Second }},
		"net.join_timeout":                  {`"2m"`, func(c config.Config) bool { return c.Net.JoinTimeout == 2*time.Minute }},
		"net.transport":                     {`"quic"`, func(c config.Config) bool { return c.Net.Transport == rollback.QUIC }},
		"net.spectator_delay":               {`30`, func(c config.Config) bool { return c.Net.SpectatorDelay == 30 }},
		"net.start_with":                    {`1`, func(c config.Config) bool { return c.Net.StartWith == 1 }},
		// A relay needs its login (the value's second line gives it).
		"net.stun": {`["stun:stun.example.org:3478"]`, func(c config.Config) bool {
			return slices.Equal(c.Net.ICE.STUN, []string{"stun:stun.example.org:3478"})
		}},
		"net.turn": {"[\"turn:a.example.org:3478\", \"turns:b.example.org:5349\"]\nturn_secret = \"s\"", func(c config.Config) bool {
			return slices.Equal(c.Net.ICE.TURN, []string{"turn:a.example.org:3478", "turns:b.example.org:5349"})
		}},
		"net.turn_secret":   {"\"s3cret\"\nturn = [\"turn:a.example.org:3478\"]", func(c config.Config) bool { return c.Net.ICE.TURNSecret == "s3cret" }},
		"net.turn_username": {"\"u\"\nturn_password = \"p\"\nturn = [\"turn:a.example.org:3478\"]", func(c config.Config) bool { return c.Net.ICE.TURNUsername == "u" }},
		"net.turn_password": {"\"p\"\nturn_username = \"u\"\nturn = [\"turn:a.example.org:3478\"]", func(c config.Config) bool { return c.Net.ICE.TURNPassword == "p" }},
		"net.ice_policy": {"\"relay\"\nturn = [\"turn:a.example.org:3478\"]\nturn_secret = \"s\"", func(c config.Config) bool {
			return c.Net.ICE.Policy == rollback.ICERelay
		}},
		"net.lobby":  {`"ws://127.0.0.1:7000"`, func(c config.Config) bool { return c.Net.Lobby == "ws://127.0.0.1:7000" }},
		"net.room":   {`"KXR-4TQ"`, func(c config.Config) bool { return c.Net.Room == "KXR-4TQ" }},
		"net.create": {"true", func(c config.Config) bool { return c.Net.Create }},
		"net.quick":  {"true", func(c config.Config) bool { return c.Net.Quick }},
	}
	for _, key := range config.Keys() {
		tt, ok := tests[key]
		if !ok {
			t.Errorf("key %s has no test value", key)
			continue
		}
		t.Run(key, func(t *testing.T) {
			c, err := config.Parse("test.toml", []byte(asTOML(key, tt.value)), config.Default())
			if err != nil {
				t.Fatalf("Parse(%s = %s) = %v", key, tt.value, err)
			}
			if !tt.check(c) {
				t.Errorf("%s = %s did not reach its field", key, tt.value)
			}
			if got, want := c.Source(key), (config.Source{Origin: config.FromFile, Name: "test.toml"}); got != want {
				t.Errorf("Source(%s) = %v, want %v", key, got, want)
			}
		})
	}
}

// Each message states the file, the key, the value as written, what is
// wrong and, once, what is allowed: the owner's own range for the keys of
// timing, input and runtime.
func TestInvalidValueMessages(t *testing.T) {
	tests := []struct {
		key, value string
		want       string
	}{
		{"window.width", "0", "config: test.toml: window.width = 0: out of range; allowed: 1 to 16384"},
		{"window.width", `"wide"`, `config: test.toml: window.width = "wide": incompatible types: TOML value has type string; destination has type integer`},
		{"window.title", `"` + strings.Repeat("t", 257) + `"`, "window.title = \"" + strings.Repeat("t", 24) + "…\" (257 bytes): too long (257 bytes); allowed: at most 256 bytes"},
		{"window.vsync", "1", "config: test.toml: window.vsync = 1: incompatible types: TOML value has type int64; destination has type boolean"},
		{"runtime.mode", `"paralel"`, `config: test.toml: runtime.mode = "paralel": unknown value; allowed: "sequential", "concurrent"`},
		{"runtime.hidden_rate", "1001", "config: test.toml: runtime.hidden_rate = 1001: out of range; allowed: 1 to 1000 frames per second"},
		{"runtime.hidden_rate", "0", "config: test.toml: runtime.hidden_rate = 0: out of range; allowed: 1 to 1000 frames per second"},
		{"runtime.frame_cap", "-1", "config: test.toml: runtime.frame_cap = -1: out of range; allowed: 0 (no cap) or 1 to 1000000000 frames per second"},
		{"runtime.frame_cap", "1000000001", "runtime.frame_cap = 1000000001: out of range; allowed: 0 (no cap) or 1 to 1000000000 frames per second"},
		{"runtime.workers", "1025", "config: test.toml: runtime.workers = 1025: out of range; allowed: 0 (GOMAXPROCS) to 1024"},
		{"runtime.workers", "-1", "config: test.toml: runtime.workers = -1: out of range; allowed: 0 (GOMAXPROCS) to 1024"},
		{"runtime.settle_timeout", `"61s"`, `config: test.toml: runtime.settle_timeout = "61s": out of range; allowed: 0 (no limit) to 1m0s`},
		// Enum words are listed once, with a suggestion when one is near.
		{"timing.mode", `"fixd"`, `config: test.toml: timing.mode = "fixd": unknown value (did you mean "fixed"?); allowed: "variable", "fixed"`},
		{"timing.mode", "3", `config: test.toml: timing.mode = 3: unknown value; allowed: "variable", "fixed"`},
		{"timing.step", `"0s"`, `config: test.toml: timing.step = "0s": out of range; allowed: 1ns to 1h0m0s`},
		{"timing.step", `"20"`, `config: test.toml: timing.step = "20": want a duration string such as "16ms" or "2s" (units ns, us, ms, s, m, h)`},
		{"timing.step", `20`, `config: test.toml: timing.step = 20: want a duration string such as "16ms" or "2s" (units ns, us, ms, s, m, h)`},
		{"timing.interval", `"-1ms"`, `config: test.toml: timing.interval = "-1ms": out of range; allowed: 0 (unpaced) to 1h0m0s`},
		{"timing.recovery_cap", `"-1ms"`, `config: test.toml: timing.recovery_cap = "-1ms": negative; allowed: 0 (no cap) or more`},
		{"timing.max_fixed_updates", "0", "config: test.toml: timing.max_fixed_updates = 0: out of range; allowed: 1 to 64"},
		// A rate says what a rate is, and why a decimal is not one.
		{"timing.rate", "120.5", `config: test.toml: timing.rate = 120.5: a rate is exact, so it is a whole number of Hz or a fraction string "N/D": write 120.5 Hz as "241/2"`},
		{"timing.rate", "0.1234567", `timing.rate = 0.1234567: a rate is exact, so it is a whole number of Hz or a fraction string "N/D" such as "30000/1001"`},
		{"timing.rate", `"60/0"`, `timing.rate = "60/0": the fraction's denominator is 0; want a rate in Hz: a whole number such as 60, or a fraction string "N/D" such as "30000/1001"`},
		{"timing.rate", "-3", `timing.rate = -3: a rate is not negative; want a rate in Hz`},
		{"timing.rate", "true", `config: test.toml: timing.rate = true: want a rate in Hz: a whole number such as 60, or a fraction string "N/D" such as "30000/1001"`},
		{"timing.rate", `"2000000000"`, `config: test.toml: timing.rate = "2000000000": out of range; allowed: 1 to 1e9`},
		{"timing.rate", `"1/7200"`, `config: test.toml: timing.rate = "1/7200": too slow; allowed: at least one tick per hour`},
		// The debt policy's values are checked whatever the policy.
		{"timing.debt.gain", "0", "config: test.toml: timing.debt.gain = 0: out of range; allowed: above 0 up to 10"},
		{"timing.debt.max_speed_up", "0.5", "config: test.toml: timing.debt.max_speed_up = 0.5: out of range; allowed: 1 to 4"},
		{"timing.debt.max_slow_down", "nan", "config: test.toml: timing.debt.max_slow_down = NaN: want a finite number"},
		{"timing.debt.coarse_cosmetic_every", "1", "timing.debt.coarse_cosmetic_every = 1: out of range; allowed: 2 to 60"},
		{"timing.debt.max_step_scale", "65", "timing.debt.max_step_scale = 65: out of range; allowed: 2 to 64"},
		{"timing.debt.cutoff", `"0s"`, `timing.debt.cutoff = "0s": out of range; allowed: one step (16.666667ms) to 1h0m0s`},
		{"timing.debt.suspend_after", `"-1s"`, `timing.debt.suspend_after = "-1s": negative; allowed: 0 (never) or more`},
		{"timing.debt.past_cutoff", `"resync"`, `timing.debt.past_cutoff = "resync": needs DebtOptions.Hook (a networked role); allowed: slow-down or drop-time for a solo game`},
		{"polling.capacity", "0", "config: test.toml: polling.capacity = 0: out of range; allowed: 1 to 65536"},
		{"polling.spacing", `"2s"`, `config: test.toml: polling.spacing = "2s": out of range; allowed: 0 to 1s`},
		{"polling.delivery", `"timestamp"`, `polling.delivery = "timestamp": unknown value (did you mean "timestamped"?); allowed: "backlog", "timestamped"`},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			c, err := config.Parse("test.toml", []byte(asTOML(tt.key, tt.value)), config.Default())
			if err == nil {
				t.Fatalf("Parse accepted %s = %s", tt.key, tt.value)
			}
			if !reflect.DeepEqual(c, config.Config{}) {
				t.Errorf("a failed Parse returned a configuration: %+v", c)
			}
			if got := err.Error(); !strings.Contains(got, tt.want) {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if strings.Count(err.Error(), "allowed") > 1 {
				t.Errorf("%q says what is allowed more than once", err)
			}
			var ce *config.Error
			if !errors.As(err, &ce) || ce.Key != tt.key {
				t.Errorf("error %v is not a *config.Error for %s", err, tt.key)
			}
		})
	}
}

func TestUnknownKeys(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"[timing]\nrecovry = \"repay-debt\"\n", "config: game.toml: timing.recovry: unknown key (did you mean timing.recovery?)"},
		{"[timming]\nmode = \"fixed\"\n", "timming: unknown key (did you mean timing?)"},
		{"[timing.debt]\ngian = 1.0\n", "timing.debt.gian: unknown key (did you mean timing.debt.gain?)"},
		{"volume = 3\n", "volume: unknown key; the tables are [window], [runtime], [render], [timing], [timing.debt], [polling], [audio], [net], [input], [input.bindings]"},
		{"[window]\nsize = 3\n", "window.size: unknown key"},
		{"[[window]]\nwidth = 3\n", "config: game.toml: window = [{...}]: want a table ([window])"},
		{"timing = 3\n", "config: game.toml: timing = 3: want a table ([timing])"},
		{"[game]\nlives = 3\n", "game: the game declares no settings, so there is no [game] table"},
	}
	for _, tt := range tests {
		_, err := config.Parse("game.toml", []byte(tt.doc), config.Default())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want it to contain %q", tt.doc, err, tt.want)
		}
	}
}

func TestEveryProblemAtOnce(t *testing.T) {
	doc := "[window]\nwidth = 0\n[timing]\nmode = \"fixd\"\nmax_fixed_updates = 0\nbogus = 1\n[timing.debt]\ngain = 0\n[input.bindings]\njump = [\"Spcae\"]\n"
	_, err := config.Parse("game.toml", []byte(doc), config.Default())
	if err == nil {
		t.Fatal("Parse accepted a bad file")
	}
	want := []string{"input.bindings.jump", "timing.bogus", "timing.debt.gain", "timing.max_fixed_updates", "timing.mode", "window.width"}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], "config: game.toml: "+w) {
			t.Errorf("problem %d = %q, want it about %s", i, lines[i], w)
		}
	}
}

// Relations between keys are checked once every value is in, so the order
// of overrides does not matter, and they name the current limit.
func TestRelations(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"[timing]\nmax_fixed_updates = 2\nrecovery_prefix = 3\n", "config: game.toml: timing.recovery_prefix = 3: out of range; allowed: 0 to timing.max_fixed_updates (2)"},
		{"[polling]\ndelivery = \"timestamped\"\n", `config: game.toml: polling.delivery = "timestamped": needs fixed steps, but timing.mode is "variable"; allowed: "timestamped" with timing.mode = "fixed", or "backlog"`},
		{"[timing]\nrecovery = \"repay-debt\"\n[timing.debt]\nvariable_step = true\nrollback = true\n",
			"config: game.toml: timing.debt.variable_step = true: refused because timing.debt.rollback is set: resimulation needs identical fixed steps"},
		{"[timing]\nmode = \"fixed\"\nrecovery = \"repay-debt\"\nstep = \"100ms\"\n[timing.debt]\ncutoff = \"50ms\"\n",
			`config: game.toml: timing.debt.cutoff = "50ms": out of range; allowed: one step (100ms) to 1h0m0s`},
		{"[timing]\nrecovery_prefix = 65\n", "config: game.toml: timing.recovery_prefix = 65: out of range; allowed: 0 to timing.max_fixed_updates (1)"},
	}
	for _, tt := range tests {
		_, err := config.Parse("game.toml", []byte(tt.doc), config.Default())
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q)\ngot  %v\nwant %s", tt.doc, err, tt.want)
		}
	}
	// The same relations are fine in either order of overrides.
	for _, order := range [][]string{
		{"timing.recovery_prefix=2", "timing.max_fixed_updates=2"},
		{"timing.max_fixed_updates=2", "timing.recovery_prefix=2"},
		{"polling.delivery=timestamped", "timing.mode=fixed"},
		// window and render2d mark their relations for the owner too.
		{"window.min_size=2000x1500", "window.width=2000", "window.height=1500"},
		{"window.logical_size=320x240", "window.scaling=resize", "window.logical_size=0x0"},
		{"timing.debt.cutoff=10ms", "timing.step=10ms", "timing.recovery=repay-debt"},
		{"timing.debt.variable_step=true", "timing.recovery=repay-debt"},
	} {
		c := config.Default()
		for _, a := range order {
			if err := c.Set(a); err != nil {
				t.Errorf("Set(%q) after %v = %v", a, order, err)
			}
		}
		if err := c.Validate(""); err != nil {
			t.Errorf("Validate after %v = %v", order, err)
		}
	}
	c := config.Default()
	if err := c.Set("timing.recovery_prefix=3"); err != nil {
		t.Fatal(err)
	}
	want := "config: command line: timing.recovery_prefix = 3: out of range; allowed: 0 to timing.max_fixed_updates (1)"
	if err := c.Validate(""); err == nil || err.Error() != want {
		t.Errorf("Validate = %v, want %s", err, want)
	}
}

func TestInvalidTOMLNamesThePosition(t *testing.T) {
	_, err := config.Parse("game.toml", []byte("[window]\nwidth = = 3\n"), config.Default())
	if err == nil || !strings.HasPrefix(err.Error(), "config: game.toml:2:") {
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
	if c.Timing.Mode != timing.FixedMode || c.Timing.FixedStep != 20*time.Millisecond || c.Timing.Rate != timing.Hz(60) ||
		c.Runtime.Mode != runtime.Concurrent || c.Timing.Debt.Gain != 0.25 || c.Window.VSync || len(c.Bindings["fire"]) != 2 {
		t.Errorf("after Set: %+v", c)
	}
	if got := c.Source("timing.rate"); got.Origin != config.FromCommandLine {
		t.Errorf("Source(timing.rate) = %v, want the command line", got)
	}
	for _, bad := range []struct{ a, want string }{
		{"timing.mode", "config: command line: timing.mode: want key=value, such as timing.mode=fixed"},
		{"timing.mod=fixed", "config: command line: timing.mod: unknown key (did you mean timing.mode?)"},
		{"timing.step=fast", `config: command line: timing.step = fast: want a duration string such as "16ms" or "2s" (units ns, us, ms, s, m, h)`},
		{"window.vsync=maybe", `config: command line: window.vsync = maybe: incompatible types: TOML value has type string; destination has type boolean`},
		{"timing.max_fixed_updates=0", "config: command line: timing.max_fixed_updates = 0: out of range; allowed: 1 to 64"},
		{"timing.rate=120.5", `config: command line: timing.rate = 120.5: a rate is exact, so it is a whole number of Hz or a fraction string "N/D": write 120.5 Hz as "241/2"`},
		{"timing.mode=fxed", `config: command line: timing.mode = fxed: unknown value (did you mean "fixed"?); allowed: "variable", "fixed"`},
		{"input.bindings.fire=Spcae", `config: command line: input.bindings.fire = Spcae: unknown button name "Spcae" (did you mean "Space"?)`},
	} {
		before := c
		if err := c.Set(bad.a); err == nil || err.Error() != bad.want {
			t.Errorf("Set(%q)\ngot  %v\nwant %s", bad.a, err, bad.want)
		}
		if !reflect.DeepEqual(c, before) {
			t.Errorf("a failed Set(%q) changed the configuration", bad.a)
		}
	}
}

func TestParseAndSetLeaveOthersAlone(t *testing.T) {
	base := config.Default()
	base.Bindings["jump"] = []string{"Space"}
	if _, err := config.Parse("a.toml", []byte("[input.bindings]\njump = [\"W\"]\n"), base); err != nil {
		t.Fatal(err)
	}
	if base.Bindings["jump"][0] != "Space" {
		t.Errorf("Parse changed its base: %v", base.Bindings)
	}
	copied := base
	if err := copied.Set("input.bindings.jump=W"); err != nil {
		t.Fatal(err)
	}
	if base.Bindings["jump"][0] != "Space" || base.Source("input.bindings.jump").Origin != config.FromDefaults {
		t.Errorf("Set on a copy changed the original: %v, %v", base.Bindings, base.Source("input.bindings.jump"))
	}
}

func TestRuntimeOptionsMapping(t *testing.T) {
	c := config.Default()
	for _, a := range []string{"runtime.mode=concurrent", "runtime.frame_cap=50", "runtime.hidden_rate=4", "runtime.workers=2", "runtime.settle_timeout=3s", "runtime.background_workers=true", "timing.mode=fixed", "timing.rate=30000/1001",
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
	if o.Mode != runtime.Concurrent || o.FrameCap != 20*time.Millisecond || o.HiddenInterval != 250*time.Millisecond {
		t.Errorf("runtime options = %+v", o)
	}
	if want := (work.Options{Workers: 2, SettleTimeout: 3 * time.Second, Background: true}); o.Execution != want {
		t.Errorf("execution options = %+v, want %+v", o.Execution, want)
	}
	if !reflect.DeepEqual(o.Timing, c.Timing) || o.Polling != c.Polling {
		t.Errorf("timing and polling options are not the configuration's own:\n%+v\n%+v", o.Timing, c.Timing)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("the runtime refuses what the configuration accepted: %v", err)
	}
	// A Config changed in code is checked as thoroughly as a file.
	c = config.Default()
	c.Timing.Debt.Gain = -1
	c.Window.Width = 0
	_, err = c.RuntimeOptions("code")
	for _, w := range []string{"config: code: timing.debt.gain = -1.0: out of range; allowed: above 0 up to 10", "config: code: window.width = 0: out of range"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("RuntimeOptions = %v, want it to contain %q", err, w)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(string(config.DefaultsTOML()))
	f.Add("[timing]\nmode = \"fixed\"\nrate = \"30000/1001\"\n")
	f.Add("[timing.debt]\ncutoff = \"-1s\"\n[input.bindings]\na = [\"A\"]\n")
	f.Add("x = [1, {a = 2}]\n[[window]]\n")
	f.Add("[game]\nlives = 3\ndifficulty = \"hard\"\n[game.audio]\nvolume = 0.5\n")
	f.Add("[timing]\nrate = 120.5\nrecovery_prefix = 2\nmax_fixed_updates = 2\n[polling]\ndelivery = \"timestamped\"\n")
	// Each limit: nesting at and past MaxDepth in each way, problems past
	// MaxProblems, strings and comments that look nested.
	f.Add("x = " + strings.Repeat("{a = ", 20) + "1" + strings.Repeat("}", 20) + "\n")
	f.Add("x = " + strings.Repeat("[", 20) + strings.Repeat("]", 20) + "\n")
	f.Add(strings.Repeat("a.", 20) + "a = 1\n")
	f.Add("[[" + strings.Repeat("a.", 20) + "a]]\n")
	var unknown strings.Builder
	for i := range config.MaxProblems + 5 {
		fmt.Fprintf(&unknown, "k%d = %d\n", i, i)
	}
	f.Add(unknown.String())
	f.Add(`a = """[[["""  # {{{` + "\nb = '''x.y.z'''\nc = \"\\\"[[\"\n")
	f.Fuzz(func(t *testing.T, doc string) {
		for _, base := range []config.Config{config.Default(), withGame(t)} {
			c, err := config.Parse("fuzz.toml", []byte(doc), base)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "config: fuzz.toml") {
					t.Fatalf("error does not name the file: %v", err)
				}
				continue
			}
			if verr := c.Validate(""); verr != nil {
				t.Fatalf("Parse accepted a configuration that Validate rejects: %v", verr)
			}
			if _, rerr := c.RuntimeOptions("fuzz.toml"); rerr != nil {
				t.Fatalf("Parse accepted a configuration the runtime rejects: %v", rerr)
			}
			// What is printed parses back to the same values.
			back, perr := config.Parse("printed.toml", c.EffectiveTOML(), base)
			if perr != nil {
				t.Fatalf("the printed configuration does not parse: %v\n%s", perr, c.EffectiveTOML())
			}
			if !sameValues(t, back, c) {
				t.Fatalf("the printed configuration reads back differently:\n%s", c.EffectiveTOML())
			}
		}
	})
}

// TestIntervalFollowsPresentation: variable timing follows the
// presentation unless a source sets timing.interval, and --print-config
// says which applies.
func TestIntervalFollowsPresentation(t *testing.T) {
	set := func(layers config.Layers) config.Config {
		t.Helper()
		c, err := config.Build(layers)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	tests := []struct {
		name   string
		cfg    config.Config
		follow bool
		note   string
	}{
		{"default", config.Default(), true, "# default; variable timing follows the presentation instead: the display's refresh (window.vsync)"},
		{"a frame cap", set(config.Layers{Sets: []string{"runtime.frame_cap=144"}}), true, "# default; variable timing follows the presentation instead: every 6.944444ms (runtime.frame_cap = 144)"},
		{"no cap, no vsync", set(config.Layers{Sets: []string{"window.vsync=false"}}), true, "# default; variable timing uses it: no runtime.frame_cap and no window.vsync to follow"},
		{"embedded", set(config.Layers{Embedded: []byte("[timing]\ninterval = \"10ms\"\n")}), false, "# embedded config.toml; variable timing uses it as set"},
		{"command line, the default value", set(config.Layers{Sets: []string{"timing.interval=16.666667ms"}}), false, "# command line; variable timing uses it as set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := tt.cfg.RuntimeOptions("test")
			if err != nil {
				t.Fatal(err)
			}
			if o.FollowPresentation != tt.follow || tt.cfg.IntervalSet() == tt.follow {
				t.Errorf("FollowPresentation %v, IntervalSet %v; want following: %v", o.FollowPresentation, tt.cfg.IntervalSet(), tt.follow)
			}
			var line string
			for _, l := range strings.Split(string(tt.cfg.EffectiveTOML()), "\n") {
				if strings.HasPrefix(l, "interval =") {
					line = l
				}
			}
			if !strings.Contains(line, tt.note) {
				t.Errorf("--print-config: %q, want it to contain %q", line, tt.note)
			}
		})
	}
}

// An enumeration's name is read in any case, from a file and from --set.
func TestEnumerationsIgnoreCase(t *testing.T) {
	c, err := config.Parse("test.toml", []byte(asTOML("timing.mode", `"Fixed"`)), config.Default())
	if err != nil || c.Timing.Mode != timing.FixedMode {
		t.Errorf("file: mode %v, err %v; want fixed", c.Timing.Mode, err)
	}
	c = config.Default()
	if err := c.Set("render.filter=NEAREST"); err != nil || c.Render.Filter != render2d.FilterNearest {
		t.Errorf("--set: filter %v, err %v; want nearest", c.Render.Filter, err)
	}
}

// A relay's shared secret and password never leave the machine in the
// printed configuration (--print-config, a recording's header): they show
// as set, and the text still loads.
func TestSecretsAreHidden(t *testing.T) {
	doc := "[net]\nturn = [\"turn:relay.example.org:3478\"]\nturn_secret = \"north-secret\"\n"
	c, err := config.Parse("test.toml", []byte(doc), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	out := string(c.EffectiveTOML())
	if strings.Contains(out, "north-secret") {
		t.Errorf("the printed configuration holds the secret:\n%s", out)
	}
	if !strings.Contains(out, `turn_secret = "(hidden)"`) {
		t.Errorf("the printed configuration does not show the secret as set:\n%s", out)
	}
	if !strings.Contains(out, `turn_password = ""`) {
		t.Errorf("an unset password is not shown as empty:\n%s", out)
	}
	back, err := config.Parse("printed.toml", []byte(out), config.Default())
	if err != nil {
		t.Fatalf("the printed configuration does not load: %v", err)
	}
	if back.Net.ICE.TURNSecret != "(hidden)" {
		t.Errorf("read back turn_secret %q", back.Net.ICE.TURNSecret)
	}
	login := "[net]\nturn = [\"turn:relay.example.org:3478\"]\nturn_username = \"u\"\nturn_password = \"south-password\"\n"
	if c, err = config.Parse("test.toml", []byte(login), config.Default()); err != nil {
		t.Fatal(err)
	}
	if out := string(c.EffectiveTOML()); strings.Contains(out, "south-password") || !strings.Contains(out, `turn_username = "u"`) {
		t.Errorf("the printed configuration holds the password, or hides the username:\n%s", out)
	}
}
