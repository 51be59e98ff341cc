package demo_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// controls is a runtime stand-in that validates like the runtime does.
type controls struct {
	o        timing.Options
	cap      time.Duration
	delivery input.Delivery
	sets     int
}

func (c *controls) TimingOptions() timing.Options { return c.o }
func (c *controls) SetTimingOptions(o timing.Options) error {
	err := o.Validate()
	if derr := input.ValidateDelivery(c.delivery, o.Mode == timing.FixedMode); derr != nil {
		err = errors.Join(err, derr)
	}
	if err != nil {
		return err
	}
	c.o = o
	c.sets++
	return nil
}
func (c *controls) SetFrameCap(d time.Duration) error { c.cap = d; return nil }

// liveControls can also switch the delivery policy, interpolation and
// the sound.
type liveControls struct {
	controls
	noInterp bool
	volume   float32
	musicOff bool
	silent   string
	focus    runtime.FocusPolicy
}

func (c *liveControls) SoundVolume() float32 { return c.volume }
func (c *liveControls) SetSoundVolume(v float32) error {
	c.volume = v
	return nil
}
func (c *liveControls) Music() bool { return !c.musicOff }
func (c *liveControls) SetMusic(on bool) error {
	c.musicOff = !on
	return nil
}
func (c *liveControls) SoundOff() string { return c.silent }

func (c *liveControls) FocusPolicy() runtime.FocusPolicy { return c.focus }
func (c *liveControls) SetFocusPolicy(p runtime.FocusPolicy) error {
	c.focus = p
	return nil
}

func (c *liveControls) SetDelivery(d input.Delivery) error {
	if err := input.ValidateDelivery(d, c.o.Mode == timing.FixedMode); err != nil {
		return err
	}
	c.delivery = d
	return nil
}

// Interpolation switches interpolation, as the demo's game does.
func (c *liveControls) Interpolation() bool { return !c.noInterp }
func (c *liveControls) SetInterpolation(on bool) error {
	c.noInterp = !on
	return nil
}

func debtOptions() timing.Options {
	o := timing.DefaultOptions()
	o.Mode = timing.FixedMode
	o.Recovery = timing.RepayDebt
	o.MaxFixedUpdates = 4
	return o
}

// TestPanelEveryRowChanges steps every row once each way: each one changes
// its setting (in force in the controls) and comes back, with the status
// line naming it.
func TestPanelEveryRowChanges(t *testing.T) {
	c := &liveControls{controls: controls{o: debtOptions()}}
	p := demo.NewPanel(c, 0, input.Backlog)
	for i := range p.Rows() {
		p.Select(i)
		before := p.Value(i)
		if err := p.Change(+1); err != nil {
			t.Errorf("row %d %q: change refused: %v", i, p.Name(i), err)
			continue
		}
		after := p.Value(i)
		if after == before {
			// At the top of its range: go the other way.
			if err := p.Change(-1); err != nil {
				t.Errorf("row %d %q: change refused: %v", i, p.Name(i), err)
			}
			after = p.Value(i)
		}
		if after == before {
			t.Errorf("row %d %q: value stayed %q", i, p.Name(i), before)
		}
		if !strings.HasPrefix(p.Status(), p.Name(i)+": ") {
			t.Errorf("row %d: status %q does not name %q", i, p.Status(), p.Name(i))
		}
		if p.Name(i) == "timing mode" {
			p.Change(-1) // back to fixed, so the debt rows stay active
		}
	}
	if p.Changes() < p.Rows() {
		t.Errorf("changes: got %d, want at least %d", p.Changes(), p.Rows())
	}
}

func TestPanelRows(t *testing.T) {
	tests := []struct {
		name       string
		row        string
		dir        int
		start      func(o *timing.Options)
		wantValue  string
		wantStatus string
		check      func(c *controls) (got, want any)
	}{
		{"mode wraps", "timing mode", +1, nil, "variable", "timing mode: fixed -> variable",
			func(c *controls) (any, any) { return c.o.Mode, timing.VariableMode }},
		{"recovery cycles", "recovery policy", +1, nil, "drop-excess-lag", "recovery policy: repay-debt -> drop-excess-lag",
			func(c *controls) (any, any) { return c.o.Recovery, timing.DropExcessLag }},
		{"step leaves the exact rate", "fixed step", +1, func(o *timing.Options) { o.Rate = timing.Hz(60) }, "20ms", "fixed step: 60 Hz -> 20ms",
			func(c *controls) (any, any) {
				return [2]any{c.o.Rate.IsZero(), c.o.FixedStep}, [2]any{true, 20 * time.Millisecond}
			}},
		{"numbers stop at the end", "update limit", +1, func(o *timing.Options) { o.MaxFixedUpdates = 64 }, "64", "update limit: 64 -> 64",
			func(c *controls) (any, any) { return c.sets, 1 }},
		{"lower limit keeps the prefix valid", "update limit", -1,
			func(o *timing.Options) {
				o.Recovery, o.MaxFixedUpdates, o.RecoveryPrefix = timing.VariableCatchUp, 4, 4
			}, "3", "update limit: 4 -> 3",
			func(c *controls) (any, any) { return c.o.RecoveryPrefix, 3 }},
		{"prefix at most the limit", "catch-up prefix", +1,
			func(o *timing.Options) {
				o.Recovery, o.MaxFixedUpdates, o.RecoveryPrefix = timing.VariableCatchUp, 2, 2
			}, "2", "catch-up prefix: 2 -> 2",
			func(c *controls) (any, any) { return c.o.RecoveryPrefix, 2 }},
		{"cap off", "catch-up cap", -1, func(o *timing.Options) { o.Recovery, o.RecoveryCap = timing.VariableCatchUp, 50*time.Millisecond }, "0 (no cap)", "",
			func(c *controls) (any, any) { return c.o.RecoveryCap, time.Duration(0) }},
		{"pacing off", "pacing", +1, nil, "off", "pacing: on -> off",
			func(c *controls) (any, any) { return c.o.Debt.Pacing, false }},
		{"speed-up", "max speed-up", +1, nil, "1.5", "max speed-up: 1.25 -> 1.5",
			func(c *controls) (any, any) { return c.o.Debt.MaxSpeedUp, 1.5 }},
		{"slow-down", "max slow-down", -1, nil, "0.75", "",
			func(c *controls) (any, any) { return c.o.Debt.MaxSlowDown, 0.75 }},
		{"gain", "gain (per s)", +1, nil, "1", "", func(c *controls) (any, any) { return c.o.Debt.Gain, 1.0 }},
		{"quiet ticks", "quiet ticks", +1, nil, "off", "", func(c *controls) (any, any) { return c.o.Debt.QuietTicks, false }},
		{"coarse cosmetic", "coarse cosmetic", +1, nil, "on", "", func(c *controls) (any, any) { return c.o.Debt.CoarseCosmetic, true }},
		{"cosmetic every", "every k ticks", +1, nil, "6", "", func(c *controls) (any, any) { return c.o.Debt.CosmeticEvery, 6 }},
		{"variable step", "variable step", +1, nil, "on", "", func(c *controls) (any, any) { return c.o.Debt.VariableStep, true }},
		{"variable step refused with rollback", "variable step", +1, func(o *timing.Options) { o.Rollback = true }, "off", "variable step: refused",
			func(c *controls) (any, any) { return c.sets, 0 }},
		{"step scale", "max step scale", -1, nil, "4", "", func(c *controls) (any, any) { return c.o.Debt.MaxStepScale, 4 }},
		{"cutoff", "cutoff", -1, nil, "1s", "", func(c *controls) (any, any) { return c.o.Debt.Cutoff, time.Second }},
		{"suspend after", "suspend after", +1, nil, "10s", "", func(c *controls) (any, any) { return c.o.Debt.SuspendAfter, 10 * time.Second }},
		{"past cutoff", "past cutoff", +1, nil, "drop-time", "", func(c *controls) (any, any) { return c.o.Debt.PastCutoff, timing.DropTime }},
		{"frame cap", "frame cap", +1, nil, "33.333ms (30 fps)", "", func(c *controls) (any, any) { return c.cap, time.Second / 30 }},
		{"delivery needs a runtime that can switch it", "input delivery", +1, nil, "backlog", "input delivery: refused: this runtime cannot switch delivery",
			func(c *controls) (any, any) { return c.delivery, input.Backlog }},
		{"interval", "variable interval", -1, nil, "8.333ms", "", func(c *controls) (any, any) { return c.o.Interval, time.Duration(8_333_333) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := debtOptions()
			if tt.start != nil {
				tt.start(&o)
			}
			c := &controls{o: o}
			p := demo.NewPanel(c, 0, input.Backlog)
			row := -1
			for i := range p.Rows() {
				if p.Name(i) == tt.row {
					row = i
				}
			}
			if row < 0 {
				t.Fatalf("no row %q", tt.row)
			}
			p.Select(row)
			p.Change(tt.dir)
			if got := p.Value(row); got != tt.wantValue {
				t.Errorf("value: got %q, want %q", got, tt.wantValue)
			}
			if !strings.HasPrefix(p.Status(), tt.wantStatus) {
				t.Errorf("status: got %q, want it to start with %q", p.Status(), tt.wantStatus)
			}
			if got, want := tt.check(c); got != want {
				t.Errorf("in force: got %v, want %v", got, want)
			}
		})
	}
}

// TestPanelRefusalKeepsSettings: switching to variable mode while input is
// delivered by timestamp is refused by the runtime, and nothing changes.
func TestPanelRefusalKeepsSettings(t *testing.T) {
	c := &liveControls{controls: controls{o: debtOptions()}}
	p := demo.NewPanel(c, 0, input.Backlog)
	for i := range p.Rows() {
		if p.Name(i) == "input delivery" {
			p.Select(i)
		}
	}
	if err := p.Change(+1); err != nil || c.delivery != input.Timestamped {
		t.Fatalf("delivery: got %v (%v), want timestamped", c.delivery, err)
	}
	p.Select(0)
	err := p.Change(+1)
	if err == nil {
		t.Fatal("switching to variable mode with timestamped delivery: got no error")
	}
	if c.o.Mode != timing.FixedMode || c.sets != 0 {
		t.Errorf("got mode %v after %d sets, want fixed and no change", c.o.Mode, c.sets)
	}
	if !strings.Contains(p.Status(), "timing mode: refused") || !strings.Contains(p.Status(), "timestamped") {
		t.Errorf("status: got %q, want the refusal and its reason", p.Status())
	}
}

// TestPanelInterpolation: the interpolation row switches interpolation on
// controls that can, and says a restart is needed on controls that cannot.
func TestPanelInterpolation(t *testing.T) {
	row := func(p *demo.Panel) int {
		for i := range p.Rows() {
			if p.Name(i) == "interpolation" {
				return i
			}
		}
		t.Fatal("no interpolation row")
		return -1
	}
	live := &liveControls{controls: controls{o: debtOptions()}}
	p := demo.NewPanel(live, 0, input.Backlog)
	p.Select(row(p))
	for _, want := range []string{"off", "on", "off"} {
		if err := p.Change(+1); err != nil {
			t.Fatalf("change refused: %v", err)
		}
		if got := p.Value(row(p)); got != want {
			t.Errorf("value: got %q, want %q", got, want)
		}
		if got := onOff(live.Interpolation()); got != want {
			t.Errorf("in force: got %q, want %q", got, want)
		}
	}
	if got, want := p.Status(), "interpolation: on -> off"; got != want {
		t.Errorf("status: got %q, want %q", got, want)
	}

	fixed := &controls{o: debtOptions()}
	p = demo.NewPanel(fixed, 0, input.Backlog)
	p.Select(row(p))
	if err := p.Change(+1); err == nil {
		t.Error("controls without a switch: got no error")
	}
	if got := p.Status(); !strings.Contains(got, "interpolation: refused") || !strings.Contains(got, "render.interpolation") {
		t.Errorf("status: got %q, want the refusal naming render.interpolation", got)
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func TestPanelText(t *testing.T) {
	o := timing.DefaultOptions() // variable mode: the fixed-step rows do not apply
	p := demo.NewPanel(&controls{o: o}, time.Second/60, input.Backlog)
	p.Move(-1) // wraps to the last row
	text := string(p.AppendText(nil))
	lines := strings.Split(text, "\n")
	if got, want := len(lines), p.Rows()+2; got != want {
		t.Fatalf("lines: got %d, want %d (title, rows, status):\n%s", got, want, text)
	}
	for _, want := range []string{"  timing mode: variable", "  variable interval: 16.667ms", "  (fixed step: 16.667ms)", "  (recovery policy: drop-excess-lag)", "  frame cap: 16.667ms (60 fps)", "> music: as configured"} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("panel text lacks %q:\n%s", want, text)
		}
	}
}

// TestPanelSound: the sound rows step the master volume through its
// choices and mute the music on controls that can, say when the session
// is silent, and name the configuration key on controls that cannot.
func TestPanelSound(t *testing.T) {
	find := func(p *demo.Panel, name string) int {
		for i := range p.Rows() {
			if p.Name(i) == name {
				return i
			}
		}
		t.Fatalf("no row %q", name)
		return -1
	}
	tests := []struct {
		name       string
		row        string
		from       float32 // the configured volume
		dir        int
		silent     string
		wantValue  string
		wantStatus string
		check      func(c *liveControls) (got, want any)
	}{
		{"volume down", "sound volume", 1, -1, "", "75%", "sound volume: 100% -> 75%",
			func(c *liveControls) (any, any) { return c.volume, float32(0.75) }},
		{"volume up", "sound volume", 1, +1, "", "150%", "sound volume: 100% -> 150%",
			func(c *liveControls) (any, any) { return c.volume, float32(1.5) }},
		{"up from between steps", "sound volume", 0.8, +1, "", "100%", "sound volume: 80% -> 100%",
			func(c *liveControls) (any, any) { return c.volume, float32(1) }},
		{"down from between steps", "sound volume", 0.8, -1, "", "75%", "sound volume: 80% -> 75%",
			func(c *liveControls) (any, any) { return c.volume, float32(0.75) }},
		{"silent session", "sound volume", 1, -1, "no output device", "75% (silent)", "sound volume: 100% (silent) -> 75% (silent)",
			func(c *liveControls) (any, any) { return c.volume, float32(0.75) }},
		{"music off", "music", 1, +1, "", "off", "music: on -> off",
			func(c *liveControls) (any, any) { return c.musicOff, true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &liveControls{controls: controls{o: debtOptions()}, volume: tt.from, silent: tt.silent}
			p := demo.NewPanel(c, 0, input.Backlog)
			row := find(p, tt.row)
			p.Select(row)
			if err := p.Change(tt.dir); err != nil {
				t.Fatalf("change refused: %v", err)
			}
			if got := p.Value(row); got != tt.wantValue {
				t.Errorf("value: got %q, want %q", got, tt.wantValue)
			}
			if got := p.Status(); got != tt.wantStatus {
				t.Errorf("status: got %q, want %q", got, tt.wantStatus)
			}
			if got, want := tt.check(c); got != want {
				t.Errorf("in force: got %v, want %v", got, want)
			}
		})
	}
	// The volume stops at its ends.
	c := &liveControls{controls: controls{o: debtOptions()}, volume: 1}
	p := demo.NewPanel(c, 0, input.Backlog)
	p.Select(find(p, "sound volume"))
	for range 10 {
		p.Change(-1)
	}
	if c.volume != 0 || p.Value(find(p, "sound volume")) != "0%" {
		t.Errorf("volume after ten steps down: got %v (%q), want 0 (0%%)", c.volume, p.Value(find(p, "sound volume")))
	}
	// Controls without sound name the keys to restart with.
	for row, key := range map[string]string{"sound volume": "audio.master_volume=", "music": "audio.music_volume="} {
		p := demo.NewPanel(&controls{o: debtOptions()}, 0, input.Backlog)
		p.Select(find(p, row))
		if err := p.Change(+1); err == nil {
			t.Errorf("%s without a Sounder: got no error", row)
		}
		if got := p.Status(); !strings.Contains(got, row+": refused") || !strings.Contains(got, key) {
			t.Errorf("%s: status %q, want the refusal naming %s", row, got, key)
		}
	}
}

// TestPanelFocusPolicy: the focus row cycles run, pause and throttle on
// controls that switch live, and names the key to restart with on controls
// that cannot.
func TestPanelFocusPolicy(t *testing.T) {
	c := &liveControls{controls: controls{o: debtOptions()}}
	p := demo.NewPanel(c, 0, input.Backlog)
	row := -1
	for i := range p.Rows() {
		if p.Name(i) == "when unfocused" {
			row = i
		}
	}
	if row < 0 {
		t.Fatal("no focus row")
	}
	p.Select(row)
	for _, want := range []runtime.FocusPolicy{runtime.FocusPause, runtime.FocusThrottle, runtime.FocusRun} {
		if err := p.Change(+1); err != nil {
			t.Fatal(err)
		}
		if c.focus != want || p.Value(row) != want.String() {
			t.Errorf("focus policy: got %v (shown %q), want %v", c.focus, p.Value(row), want)
		}
	}
	if got, want := p.Status(), "when unfocused: throttle -> run"; got != want {
		t.Errorf("status: got %q, want %q", got, want)
	}
	p = demo.NewPanel(&controls{o: debtOptions()}, 0, input.Backlog)
	p.Select(row)
	if err := p.Change(+1); err == nil || !strings.Contains(p.Status(), "window.focus_policy") || p.Value(row) != "as configured" {
		t.Errorf("without a FocusSetter: got %v, status %q, value %q; want a refusal naming window.focus_policy", err, p.Status(), p.Value(row))
	}
}

// followControls can make variable timing follow the presentation.
type followControls struct {
	controls
	follow bool
}

func (c *followControls) FollowPresentation() bool        { return c.follow }
func (c *followControls) SetFollowPresentation(on bool)   { c.follow = on }
func (c *followControls) VariableInterval() time.Duration { return time.Second / 144 }

// TestPanelFollowPresentation: the interval row's first choice follows
// the presentation; stepping on sets an interval and stops following,
// stepping back follows again.
func TestPanelFollowPresentation(t *testing.T) {
	c := &followControls{controls: controls{o: timing.DefaultOptions()}, follow: true}
	p := demo.NewPanel(c, time.Second/144, input.Backlog)
	row := -1
	for i := range p.Rows() {
		if p.Name(i) == "variable interval" {
			row = i
		}
	}
	p.Select(row)
	if got := p.Value(row); got != "per present (6.944ms)" {
		t.Errorf("following: value %q, want the presentation's interval", got)
	}
	if err := p.Change(+1); err != nil || c.follow || c.o.Interval != 0 || p.Value(row) != "0 (unpaced)" {
		t.Errorf("one step on: follow %v, interval %v, value %q (%v); want the first interval as set", c.follow, c.o.Interval, p.Value(row), err)
	}
	if err := p.Change(-1); err != nil || !c.follow || p.Value(row) != "per present (6.944ms)" {
		t.Errorf("back: follow %v, value %q (%v); want following again", c.follow, p.Value(row), err)
	}
}
