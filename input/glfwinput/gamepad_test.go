package glfwinput_test

import (
	"strings"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/glfwinput"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/timing"
)

// mapping is a made-up gamepad in SDL's format, with a GUID no real device
// has.
const mapping = "03000000feca0000efbe000000000000,Metronome Test Pad,a:b0,b:b1,x:b2,y:b3,back:b6,start:b7,leftshoulder:b4,rightshoulder:b5,leftx:a0,lefty:a1,rightx:a3,righty:a4,lefttrigger:a2,righttrigger:a5,platform:Linux,"

// TestGamepadMappings hands mappings to the real GLFW: a good one is
// accepted, comments are skipped, and a line GLFW rejects fails Init with
// its line number instead of a panic at some later GLFW call.
func TestGamepadMappings(t *testing.T) {
	w := newWindow(t)
	var good, bad error
	var name string
	onMain(func() {
		src := glfwinput.New(w.win, glfwinput.Options{ManualPump: true, GamepadMappings: "# extra pads\n\n" + mapping + "\n"})
		good = src.Init()
		src.Detach()
		src = glfwinput.New(w.win, glfwinput.Options{ManualPump: true, GamepadMappings: mapping + "\n0300zz,Broken Pad,a:b0\n"})
		bad = src.Init()
		src.Detach()
		glfw.GetTime() // would panic if the rejected line's error were still pending
		name = glfw.Joystick1.GetGamepadName()
	})
	if good != nil {
		t.Errorf("Init with a good mapping: %v", good)
	}
	if bad == nil || !strings.Contains(bad.Error(), "Options.GamepadMappings line 2") {
		t.Errorf("Init with a bad second line: %v, want an error naming line 2", bad)
	}
	if name != "" {
		t.Errorf("Joystick1 has gamepad name %q without a joystick", name)
	}
}

// TestRealJoysticksWithoutHardware runs the GLFW side of the joystick
// interface where there is no joystick: every slot is absent, and reading
// one reports so. It also measures what go-gl's GetGamepadState allocates,
// which a poll pays with a gamepad connected.
func TestRealJoysticksWithoutHardware(t *testing.T) {
	if displayErr != nil {
		testdisplay.Unavailable(t, displayErr)
	}
	var present []glfw.Joystick
	var read bool
	var allocs float64
	onMain(func() {
		for j := glfw.Joystick1; j <= glfw.JoystickLast; j++ {
			if glfwinput.RealJoysticks.IsGamepad(j) || glfwinput.RealJoysticks.GamepadName(j) != "" {
				present = append(present, j)
			}
		}
		var gs glfw.GamepadState
		read = glfwinput.RealJoysticks.GamepadState(glfw.Joystick1, &gs)
		allocs = testing.AllocsPerRun(50, func() { glfwinput.RealJoysticks.GamepadState(glfw.Joystick1, &gs) })
	})
	if len(present) > 0 {
		t.Skipf("this machine has gamepads (%v); the test is about one without", present)
	}
	if read {
		t.Errorf("GamepadState of an absent joystick reported a state")
	}
	t.Logf("go-gl GetGamepadState allocates %v times per call (absent joystick)", allocs)
}

// TestSourceFollowsFakeGamepad: the whole source, attached to a real
// window, with a fake joystick: a gamepad connected before Init is
// described by synthetic records, and an analog action follows it through
// a queue.
func TestSourceFollowsFakeGamepad(t *testing.T) {
	w := newWindow(t)
	d := &driver{window: w}
	if err := d.Focus(true); err != nil {
		t.Fatal(err)
	}
	fake := &glfwinput.FakeJoysticks{}
	fake.Plug(glfw.Joystick2, "Early Pad")
	fake.Slots[glfw.Joystick2].State.Axes[glfw.AxisLeftX] = 0.75

	actions := input.NewActions()
	moveX := actions.MustRegisterAxis("move_x", input.GamepadLeftX.Bind().WithDeadZone(0.5))
	q, err := input.NewQueue(actions, input.DefaultPollingOptions())
	if err != nil {
		t.Fatal(err)
	}
	var src *glfwinput.Source
	var focused bool
	onMain(func() {
		for attempt := 0; !focused && attempt < 500; attempt++ {
			glfw.WaitEventsTimeout(0.01)
			focused = w.win.GetAttrib(glfw.Focused) == glfw.True
		}
		src = glfwinput.New(w.win, glfwinput.Options{})
		glfwinput.UseJoysticks(src, fake)
		err = src.Init()
		q.Start(timing.Now())
	})
	if err != nil || !focused {
		t.Fatalf("Init: %v; focused %v", err, focused)
	}
	t.Cleanup(func() { onMain(src.Detach) })
	var tick input.Tick
	var snap input.Snapshot
	onMain(func() { poll(q, src, &snap) })
	q.TakeAll(timing.Now(), &tick)
	if !tick.Gamepad().Connected || tick.Axis(input.GamepadLeftX) != 0.75 {
		t.Fatalf("first tick: gamepad %+v; want connected with the stick at 0.75", tick.Gamepad())
	}
	if got := tick.Value(moveX); got != 0.5 {
		t.Errorf("move_x = %v, want 0.5 (0.75 past a 0.5 dead zone)", got)
	}
	var synthetic bool
	for _, r := range tick.Records() {
		if r.Kind == input.RecordGamepad {
			synthetic = r.Synthetic
		}
	}
	if !synthetic {
		t.Errorf("the gamepad found at Init is not described by a synthetic record: %v", tick.Records())
	}
	var joy glfw.Joystick
	var name string
	onMain(func() {
		joy, name, _ = src.Gamepad()
		fake.Slots[glfw.Joystick2] = glfwinput.FakeJoystick{}
		now := timing.Now().AddSaturating(5_000_000)
		src.Poll(now, &snap)
		q.PushPoll(now, &snap)
	})
	if joy != glfw.Joystick2 || name != "Early Pad" {
		t.Errorf("Gamepad() = %v %q, want joystick 2, Early Pad", joy, name)
	}
	q.TakeAll(timing.Now().AddSaturating(6_000_000), &tick)
	if tick.Gamepad().Connected || tick.Value(moveX) != 0 || !tick.Released(moveX) {
		t.Errorf("after unplugging: gamepad %+v, move_x %v, released %v", tick.Gamepad(), tick.Value(moveX), tick.Released(moveX))
	}
}
