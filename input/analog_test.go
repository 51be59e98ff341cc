package input_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

func axis(at timing.Instant, a input.Axis, v float64) input.Record {
	return input.Record{Time: at, Kind: input.RecordAxis, Axis: a, X: v}
}

func TestAnalogAction(t *testing.T) {
	actions := input.NewActions()
	moveX := actions.MustRegisterAxis("move_x",
		input.GamepadLeftX.Bind().WithDeadZone(0.2),
		input.ButtonAxis(input.KeyA, input.KeyD))
	moveY := actions.MustRegisterAxis("move_y", input.GamepadLeftY.Bind().WithDeadZone(0).Inverted())
	throttle := actions.MustRegisterAxis("throttle", input.GamepadRightTrigger.Bind().WithDeadZone(0.5), input.ButtonAxis(input.ButtonNone, input.KeyW))
	deflected := input.State{}
	deflected.Gamepad.Axes[input.GamepadLeftX] = 0.6

	tests := []struct {
		name    string
		act     input.Action
		from    input.State
		records []input.Record
		want    input.Stats
	}{
		{"idle", moveX, input.State{}, nil, input.Stats{}},
		{"inside the dead zone", moveX, input.State{}, []input.Record{axis(10*ms, input.GamepadLeftX, 0.15)}, input.Stats{}},
		{"at the edge of the dead zone", moveX, input.State{}, []input.Record{axis(10*ms, input.GamepadLeftX, -0.2)}, input.Stats{}},
		{
			"pushed halfway through the interval", moveX, input.State{},
			[]input.Record{axis(50*ms, input.GamepadLeftX, 0.6)},
			input.Stats{Down: true, Presses: 1, Held: 50 * time.Millisecond, Value: 0.5, Mean: 0.25, Peak: 0.5},
		},
		{
			"held from before, released at 25 ms", moveX, deflected,
			[]input.Record{axis(25*ms, input.GamepadLeftX, 0.1)},
			input.Stats{WasDown: true, Releases: 1, Held: 25 * time.Millisecond, StartValue: 0.5, Mean: 0.125, Peak: 0.5},
		},
		{
			"a flick within the tick", moveX, input.State{},
			[]input.Record{axis(10*ms, input.GamepadLeftX, -0.6), axis(20*ms, input.GamepadLeftX, -1), axis(30*ms, input.GamepadLeftX, 0)},
			input.Stats{Presses: 1, Releases: 1, Held: 20 * time.Millisecond, Mean: -0.15, Peak: -1},
		},
		{
			"a key beats a weaker stick", moveX, deflected,
			[]input.Record{press(40*ms, input.KeyA), release(60*ms, input.KeyA)},
			input.Stats{Down: true, WasDown: true, Held: 100 * time.Millisecond, Value: 0.5, StartValue: 0.5, Mean: 0.2, Peak: -1},
		},
		{
			"both keys cancel", moveX, input.State{},
			[]input.Record{press(0, input.KeyA), press(50*ms, input.KeyD)},
			input.Stats{Presses: 1, Releases: 1, Held: 50 * time.Millisecond, Mean: -0.5, Peak: -1},
		},
		{
			"inverted stick", moveY, input.State{},
			[]input.Record{axis(0, input.GamepadLeftY, -0.25)},
			input.Stats{Down: true, Presses: 1, Held: 100 * time.Millisecond, Value: 0.25, Mean: 0.25, Peak: 0.25},
		},
		{
			"trigger past its dead zone", throttle, input.State{},
			[]input.Record{axis(0, input.GamepadRightTrigger, 0.75)},
			input.Stats{Down: true, Presses: 1, Held: 100 * time.Millisecond, Value: 0.5, Mean: 0.5, Peak: 0.5},
		},
		{
			"out-of-range and NaN values in a replayed record", throttle, input.State{},
			[]input.Record{axis(0, input.GamepadRightTrigger, 7), axis(50*ms, input.GamepadRightTrigger, math.NaN()), axis(60*ms, 99, 1)},
			input.Stats{Presses: 1, Releases: 1, Held: 50 * time.Millisecond, Mean: 0.5, Peak: 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tick input.Tick
			tick.Fill(actions, 0, 100*ms, tc.from, tc.records)
			got := tick.Action(tc.act)
			if !statsNear(got, tc.want) {
				t.Errorf("stats %+v\nwant  %+v", got, tc.want)
			}
			if got.Presses-got.Releases != b2i(got.Down)-b2i(got.WasDown) {
				t.Errorf("presses %d, releases %d do not account for down %v, was down %v", got.Presses, got.Releases, got.Down, got.WasDown)
			}
			if v := tick.Value(tc.act); v != got.Value {
				t.Errorf("Value = %v, Stats.Value = %v", v, got.Value)
			}
		})
	}
}

func statsNear(a, b input.Stats) bool {
	n := func(x, y float32) bool { return math.Abs(float64(x-y)) < 1e-6 }
	return a.Down == b.Down && a.WasDown == b.WasDown && a.Presses == b.Presses && a.Releases == b.Releases &&
		a.Held == b.Held && n(a.Value, b.Value) && n(a.StartValue, b.StartValue) && n(a.Mean, b.Mean) && n(a.Peak, b.Peak)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestAnalogSimulationTime: the integral of the value over the interval,
// scaled to the update's delta, signed.
func TestAnalogSimulationTime(t *testing.T) {
	actions := input.NewActions()
	moveX := actions.MustRegisterAxis("move_x", input.GamepadLeftX.Bind().WithDeadZone(0), input.ButtonAxis(input.KeyLeft, input.KeyRight))
	keysOnly := actions.MustRegisterAxis("keys", input.ButtonAxis(input.KeyLeft, input.KeyRight))
	right := actions.MustRegister("right", input.KeyRight)
	half := input.State{}
	half.Gamepad.Axes[input.GamepadLeftX] = -0.5
	tests := []struct {
		name       string
		act        input.Action
		start, end timing.Instant
		from       input.State
		records    []input.Record
		want       time.Duration
	}{
		{"half left for the whole interval", moveX, 0, 100 * ms, half, nil, -10 * time.Millisecond},
		{"full right for half the interval", moveX, 0, 100 * ms, input.State{}, []input.Record{axis(50*ms, input.GamepadLeftX, 1)}, 10 * time.Millisecond},
		{"a ramp: 0.25 then 0.75", moveX, 0, 100 * ms, input.State{}, []input.Record{axis(0, input.GamepadLeftX, 0.25), axis(50*ms, input.GamepadLeftX, 0.75)}, 10 * time.Millisecond},
		{"zero interval: the current value", moveX, 50 * ms, 50 * ms, half, nil, -10 * time.Millisecond},
		{"seed 000's tap, on an analog action", keysOnly, 1000 * ms, 1500 * ms, input.State{}, []input.Record{press(1200*ms, input.KeyRight), release(1250*ms, input.KeyRight)}, 2 * time.Millisecond},
		{"seed 000's tap, on a button action", right, 1000 * ms, 1500 * ms, input.State{}, []input.Record{press(1200*ms, input.KeyRight), release(1250*ms, input.KeyRight)}, 2 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tick input.Tick
			tick.Fill(actions, tc.start, tc.end, tc.from, tc.records)
			got := tick.SimulationTime(tc.act, 20*time.Millisecond)
			if d := got - tc.want; d < -time.Nanosecond || d > time.Nanosecond {
				t.Errorf("SimulationTime = %v, want %v", got, tc.want)
			}
			if s := tick.SimulationSeconds(tc.act, 20*time.Millisecond); math.Abs(s-tc.want.Seconds()) > 1e-9 {
				t.Errorf("SimulationSeconds = %v, want %v", s, tc.want.Seconds())
			}
		})
	}
}

func TestRegisterAxisErrors(t *testing.T) {
	a := input.NewActions()
	a.MustRegister("jump", input.KeySpace)
	_, err := a.RegisterAxis("jump", input.AxisBinding{}, input.GamepadLeftX.Bind().WithDeadZone(2))
	for _, w := range []string{`"jump" is already registered`, "binding 0", "neither an axis nor a button", "binding 1", "dead zone 2"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v does not contain %q", err, w)
		}
	}
	if _, err := a.RegisterAxisNames("move", "GamepadLeftX", "Aa/D"); err == nil || !strings.Contains(err.Error(), `"Aa"`) {
		t.Errorf("RegisterAxisNames with a bad name: %v", err)
	}
	move, err := a.RegisterAxisNames("move", "GamepadLeftX deadzone=0.3", "A/D", "A/D")
	if err != nil {
		t.Fatal(err)
	}
	if got := a.AxisBindings(move); len(got) != 2 || got[0] != input.GamepadLeftX.Bind().WithDeadZone(0.3) {
		t.Errorf("AxisBindings = %v, want the stick with dead zone 0.3 and A/D once", got)
	}
	jump, _ := a.Lookup("jump")
	if !a.Analog(move) || a.Analog(jump) || a.Bindings(move) != nil || a.AxisBindings(jump) != nil {
		t.Errorf("kinds: Analog(move) %v, Analog(jump) %v", a.Analog(move), a.Analog(jump))
	}
	if err := a.Rebind(move, input.KeyA); err == nil || !strings.Contains(err.Error(), "is analog") {
		t.Errorf("Rebind of an analog action: %v, want an error", err)
	}
	if err := a.RebindAxis(jump, input.GamepadLeftX.Bind()); err == nil || !strings.Contains(err.Error(), "button action") {
		t.Errorf("RebindAxis of a button action: %v, want an error", err)
	}
	if err := a.RebindAxisNames(move, "GamepadRightX"); err != nil || a.AxisBindings(move)[0].Axis != input.GamepadRightX {
		t.Errorf("RebindAxisNames: %v, bindings %v", err, a.AxisBindings(move))
	}
}

// TestConfigureAnalog: a config table rebinds both kinds, each in its own
// form, and reports every bad text at once.
func TestConfigureAnalog(t *testing.T) {
	a := input.NewActions()
	jump := a.MustRegister("jump", input.KeySpace)
	move := a.MustRegisterAxis("move_x", input.GamepadLeftX.Bind())
	err := a.Configure(map[string][]string{
		"jump":   {"W"},
		"move_x": {"GamepadRightX deadzone=0.3", "Left/Right"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.AxisBindings(move); len(got) != 2 || got[0] != input.GamepadRightX.Bind().WithDeadZone(0.3) || got[1] != input.ButtonAxis(input.KeyLeft, input.KeyRight) {
		t.Errorf("move_x bindings %v", got)
	}
	if got := a.Bindings(jump); len(got) != 1 || got[0] != input.KeyW {
		t.Errorf("jump bindings %v", got)
	}
	err = a.Configure(map[string][]string{
		"jump":   {"GamepadLeftX"},
		"move_x": {"GamepadLeftQ", "A/D deadzone=0.1"},
	})
	for _, w := range []string{`action "jump"`, `unknown button name "GamepadLeftX"`, `action "move_x"`, `"GamepadLeftQ"`, "not to buttons"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v does not contain %q", err, w)
		}
	}
	if got := a.AxisBindings(move); got[0].Axis != input.GamepadRightX {
		t.Errorf("a failed Configure changed move_x to %v", got)
	}
}

func TestRecorderGamepad(t *testing.T) {
	var rec input.Recorder
	var snap input.Snapshot
	rec.Focus(0, true)
	rec.Gamepad(1*ms, true)
	rec.Press(2*ms, input.GamepadA)
	rec.Press(2*ms, input.KeySpace)
	rec.Axis(3*ms, input.GamepadLeftX, 0.5)
	rec.Axis(3*ms, input.GamepadLeftX, 0.5) // unchanged: nothing
	rec.Axis(3*ms, input.GamepadLeftTrigger, -1)
	rec.Axis(3*ms, input.GamepadRightY, 9)
	rec.Axis(3*ms, input.GamepadRightX, float32(math.NaN()))
	rec.Axis(3*ms, input.NoAxis, 1)
	rec.Gamepad(4*ms, true) // already connected: nothing
	rec.Flush(5*ms, &snap)
	want := []string{
		"0s focus true", "1ms gamepad connected", "2ms press GamepadA", "2ms press Space",
		"3ms axis GamepadLeftX 0.5", "3ms axis GamepadRightY 1",
	}
	checkRecords(t, "connected", snap.Records, want)
	if rec.Ignored() != 2 {
		t.Errorf("Ignored = %d, want 2 (NaN, NoAxis)", rec.Ignored())
	}
	if st := snap.State.Gamepad; !st.Connected || st.Axes[input.GamepadLeftX] != 0.5 || st.Axes[input.GamepadLeftTrigger] != 0 {
		t.Errorf("gamepad state %+v", st)
	}

	rec.Gamepad(6*ms, false)
	rec.Flush(7*ms, &snap)
	checkRecords(t, "disconnect", snap.Records, []string{
		"6ms release GamepadA (synthetic)", "6ms axis GamepadLeftX 0 (synthetic)", "6ms axis GamepadRightY 0 (synthetic)", "6ms gamepad disconnected",
	})
	if !snap.State.Down.Has(input.KeySpace) {
		t.Errorf("a gamepad disconnect released a key")
	}

	rec.Gamepad(8*ms, true)
	rec.Axis(8*ms, input.GamepadRightTrigger, 0.5)
	rec.Focus(9*ms, false)
	rec.Flush(10*ms, &snap)
	checkRecords(t, "focus loss", snap.Records, []string{
		"8ms gamepad connected", "8ms axis GamepadRightTrigger 0.5",
		"9ms release Space (synthetic)", "9ms axis GamepadRightTrigger 0 (synthetic)", "9ms focus false",
	})
	if !snap.State.Gamepad.Connected {
		t.Errorf("focus loss disconnected the gamepad")
	}

	var fresh input.Recorder
	var init input.State
	init.Gamepad.Connected = true
	init.Gamepad.Axes[input.GamepadLeftY] = -0.25
	init.Down.Add(input.GamepadStart)
	fresh.Init(1*ms, init)
	fresh.Flush(1*ms, &snap)
	checkRecords(t, "init", snap.Records, []string{
		"1ms press GamepadStart (synthetic)", "1ms gamepad connected (synthetic)", "1ms axis GamepadLeftY -0.25 (synthetic)",
	})
	if snap.State != init {
		t.Errorf("state after Init %+v, want %+v", snap.State, init)
	}
}

func checkRecords(t *testing.T, what string, got []input.Record, want []string) {
	t.Helper()
	var s []string
	for _, r := range got {
		_, rest, _ := strings.Cut(r.String(), " ")
		s = append(s, time.Duration(r.Time).String()+" "+rest)
	}
	if strings.Join(s, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: records\n\t%s\nwant\n\t%s", what, strings.Join(s, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func TestValues(t *testing.T) {
	actions := input.NewActions()
	moveX := actions.MustRegisterAxis("move_x", input.GamepadLeftX.Bind().WithDeadZone(0.2), input.ButtonAxis(input.KeyA, input.KeyD))
	jump := actions.MustRegister("jump", input.KeySpace)
	var tick input.Tick
	tick.Fill(actions, 10*ms, 100*ms, input.State{}, []input.Record{
		axis(5*ms, input.GamepadLeftX, 0.1), // before the interval, in the dead zone: no change
		axis(20*ms, input.GamepadLeftX, 0.6),
		press(30*ms, input.KeySpace),
		press(40*ms, input.KeyD),
		axis(50*ms, input.GamepadLeftX, 1),
		release(60*ms, input.KeyD),
		axis(70*ms, input.GamepadLeftX, 0),
		release(80*ms, input.KeySpace),
	})
	type step struct {
		at timing.Instant
		v  float32
	}
	collect := func(a input.Action) []step {
		var got []step
		for at, v := range tick.Values(a) {
			got = append(got, step{at, v})
		}
		return got
	}
	want := []step{{10 * ms, 0}, {20 * ms, 0.5}, {40 * ms, 1}, {70 * ms, 0}}
	if got := collect(moveX); !stepsNear(got, want, func(s step) (timing.Instant, float32) { return s.at, s.v }) {
		t.Errorf("move_x values %v, want %v", got, want)
	}
	if got, want := collect(jump), []step{{10 * ms, 0}, {30 * ms, 1}, {80 * ms, 0}}; len(got) != len(want) || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("jump values %v, want %v", got, want)
	}
	if got := collect(input.Action(99)); got != nil {
		t.Errorf("unregistered action yields %v", got)
	}
	for range tick.Values(moveX) {
		break // stopping early must not panic
	}
}

func stepsNear[S any](got, want []S, f func(S) (timing.Instant, float32)) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		ga, gv := f(got[i])
		wa, wv := f(want[i])
		if ga != wa || math.Abs(float64(gv-wv)) > 1e-6 {
			return false
		}
	}
	return true
}
