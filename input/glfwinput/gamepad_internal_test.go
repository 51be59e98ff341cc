package glfwinput

import (
	"strings"
	"testing"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// These tests drive the gamepad code with a fake joystick and a recorder;
// they need neither a display nor GLFW.

const ms = timing.Instant(time.Millisecond)

type padRig struct {
	t    *testing.T
	fake *FakeJoysticks
	pad  gamepad
	rec  input.Recorder
	snap input.Snapshot
	now  timing.Instant
}

func newPadRig(t *testing.T) *padRig {
	r := &padRig{t: t, fake: &FakeJoysticks{}}
	r.pad.api = r.fake
	r.rec.Focus(0, true)
	return r
}

// poll reads the pad (use: focused) and returns the records as text.
func (r *padRig) poll(use bool) string {
	r.now += 4 * ms
	r.pad.poll(&r.rec, r.now, use)
	r.rec.Flush(r.now, &r.snap)
	var s []string
	for _, rec := range r.snap.Records {
		_, rest, _ := strings.Cut(rec.String(), " ")
		s = append(s, rest)
	}
	return strings.Join(s, "; ")
}

func (r *padRig) expect(what, got, want string) {
	r.t.Helper()
	if got != want {
		r.t.Errorf("%s: records %q, want %q", what, got, want)
	}
}

func TestGamepadButtonsAndAxes(t *testing.T) {
	r := newPadRig(t)
	r.poll(true) // the focus record
	r.expect("no joystick", r.poll(true), "")
	r.fake.Plug(glfw.Joystick1, "Test Pad")
	r.expect("plugged in at rest", r.poll(true), "gamepad connected")
	if j, name, ok := (&Source{pad: r.pad}).Gamepad(); !ok || j != glfw.Joystick1 || name != "Test Pad" {
		t.Errorf("Gamepad() = %v, %q, %v", j, name, ok)
	}
	gs := &r.fake.Slots[glfw.Joystick1].State
	for i := range gs.Buttons {
		gs.Buttons[i] = glfw.Press
		r.expect("press", r.poll(true), "press "+gamepadButtons[i].String())
		gs.Buttons[i] = glfw.Release
		r.expect("release", r.poll(true), "release "+gamepadButtons[i].String())
	}
	gs.Axes = [6]float32{0.5, -1, 0.25, 1, 0, 1}
	r.expect("axes", r.poll(true), "axis GamepadLeftX 0.5; axis GamepadLeftY -1; axis GamepadRightX 0.25; axis GamepadRightY 1; axis GamepadLeftTrigger 0.5; axis GamepadRightTrigger 1")
	r.expect("unchanged", r.poll(true), "")
	if st := r.snap.State.Gamepad; st.Axes[input.GamepadLeftTrigger] != 0.5 || !st.Connected {
		t.Errorf("state %+v", st)
	}
}

// TestGamepadTriggerWithoutMapping: GLFW reports 0 for a trigger the
// mapping lacks; that reads as released, not half pressed, until the
// trigger shows it is real.
func TestGamepadTriggerWithoutMapping(t *testing.T) {
	r := newPadRig(t)
	r.fake.Plug(glfw.Joystick1, "No Triggers")
	gs := &r.fake.Slots[glfw.Joystick1].State
	gs.Axes[glfw.AxisLeftTrigger], gs.Axes[glfw.AxisRightTrigger] = 0, -1
	r.expect("connected", r.poll(true), "focus true; gamepad connected")
	r.expect("still 0", r.poll(true), "")
	gs.Axes[glfw.AxisLeftTrigger] = 0.5
	r.expect("moves: real after all", r.poll(true), "axis GamepadLeftTrigger 0.75")
	gs.Axes[glfw.AxisLeftTrigger] = 0
	r.expect("now 0 is half", r.poll(true), "axis GamepadLeftTrigger 0.5")
}

func TestGamepadHotPlug(t *testing.T) {
	r := newPadRig(t)
	r.poll(true)
	r.fake.Slots[glfw.Joystick2] = FakeJoystick{Present: true, Name: "no mapping"} // a joystick GLFW has no mapping for
	r.expect("unmapped joystick", r.poll(true), "")
	r.fake.Plug(glfw.Joystick3, "Pad Three")
	r.expect("connect", r.poll(true), "gamepad connected")
	gs := &r.fake.Slots[glfw.Joystick3].State
	gs.Buttons[glfw.ButtonA] = glfw.Press
	gs.Axes[glfw.AxisRightX] = -0.75
	r.expect("held", r.poll(true), "press GamepadA; axis GamepadRightX -0.75")
	r.fake.Plug(glfw.Joystick5, "Pad Five")
	r.fake.Slots[glfw.Joystick3] = FakeJoystick{}
	r.expect("unplugged, another found", r.poll(true),
		"release GamepadA (synthetic); axis GamepadRightX 0 (synthetic); gamepad disconnected; gamepad connected")
	if _, name, ok := (&Source{pad: r.pad}).Gamepad(); !ok || name != "Pad Five" {
		t.Errorf("following %q, %v; want Pad Five", name, ok)
	}
	r.fake.Slots[glfw.Joystick5] = FakeJoystick{}
	r.expect("unplugged", r.poll(true), "gamepad disconnected")
	if _, _, ok := (&Source{pad: r.pad}).Gamepad(); ok {
		t.Errorf("still following a gamepad")
	}
}

// TestGamepadUnfocused: without focus the pad is not read; its connection
// still is.
func TestGamepadUnfocused(t *testing.T) {
	r := newPadRig(t)
	r.fake.Plug(glfw.Joystick1, "Pad")
	gs := &r.fake.Slots[glfw.Joystick1].State
	gs.Buttons[glfw.ButtonB] = glfw.Press
	gs.Axes[glfw.AxisLeftY] = 1
	r.expect("connected and read", r.poll(true), "focus true; gamepad connected; press GamepadB; axis GamepadLeftY 1")
	r.rec.Focus(r.now, false)
	r.expect("focus lost", r.poll(false), "release GamepadB (synthetic); axis GamepadLeftY 0 (synthetic); focus false")
	gs.Buttons[glfw.ButtonX] = glfw.Press
	r.expect("unfocused: not read", r.poll(false), "")
	r.rec.Focus(r.now, true)
	r.expect("focus back: read again", r.poll(true), "focus true; press GamepadB; press GamepadX; axis GamepadLeftY 1")
	r.fake.Slots[glfw.Joystick1] = FakeJoystick{}
	r.rec.Focus(r.now, false)
	r.expect("disconnect while unfocused", r.poll(false),
		"release GamepadB (synthetic); release GamepadX (synthetic); axis GamepadLeftY 0 (synthetic); focus false; gamepad disconnected")
}

func TestGamepadSample(t *testing.T) {
	fake := &FakeJoysticks{}
	fake.Plug(glfw.Joystick2, "Pad")
	fake.Slots[glfw.Joystick2].State.Buttons[glfw.ButtonStart] = glfw.Press
	fake.Slots[glfw.Joystick2].State.Axes[glfw.AxisLeftX] = -0.5
	for _, use := range []bool{true, false} {
		p := gamepad{api: fake}
		var st input.State
		p.sample(&st, use)
		if !st.Gamepad.Connected {
			t.Errorf("use %v: not connected", use)
		}
		if got := st.Down.Has(input.GamepadStart) && st.Gamepad.Axes[input.GamepadLeftX] == -0.5; got != use {
			t.Errorf("use %v: Start down and stick at -0.5 is %v", use, got)
		}
	}
}

// TestGamepadTables: every GLFW gamepad button and axis has its own input
// counterpart.
func TestGamepadTables(t *testing.T) {
	seen := map[input.Button]bool{}
	for i, b := range gamepadButtons {
		if b.Device() != input.Gamepad || seen[b] {
			t.Errorf("GLFW gamepad button %d maps to %v", i, b)
		}
		seen[b] = true
	}
	seenAxis := map[input.Axis]bool{}
	for i, a := range gamepadAxes {
		if !a.Valid() || seenAxis[a] {
			t.Errorf("GLFW gamepad axis %d maps to %v", i, a)
		}
		seenAxis[a] = true
	}
	if len(seenAxis) != input.AxisCount {
		t.Errorf("%d axes mapped, want %d", len(seenAxis), input.AxisCount)
	}
	if gamepadAxes[glfw.AxisLeftTrigger] != input.GamepadLeftTrigger || gamepadButtons[glfw.ButtonDpadLeft] != input.GamepadDpadLeft {
		t.Errorf("spot checks failed")
	}
}
