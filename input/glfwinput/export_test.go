package glfwinput

import "github.com/go-gl/glfw/v3.3/glfw"

// FakeJoysticks stands in for GLFW's joystick API: a machine without a
// gamepad (CI, Xvfb) has nothing for the real one to read. A slot is a
// gamepad when Present and Mapped.
type FakeJoysticks struct {
	Slots [glfw.JoystickLast + 1]FakeJoystick
	// Reads counts GamepadState calls.
	Reads int
}

// FakeJoystick is one joystick slot.
type FakeJoystick struct {
	Present, Mapped bool
	Name            string
	State           glfw.GamepadState
}

// RestingState is a gamepad untouched: buttons released, sticks centred,
// triggers at GLFW's -1.
func RestingState() glfw.GamepadState {
	var gs glfw.GamepadState
	gs.Axes[glfw.AxisLeftTrigger], gs.Axes[glfw.AxisRightTrigger] = -1, -1
	return gs
}

// Plug connects a gamepad at rest in slot j.
func (f *FakeJoysticks) Plug(j glfw.Joystick, name string) {
	f.Slots[j] = FakeJoystick{Present: true, Mapped: true, Name: name, State: RestingState()}
}

func (f *FakeJoysticks) IsGamepad(j glfw.Joystick) bool {
	return f.Slots[j].Present && f.Slots[j].Mapped
}

func (f *FakeJoysticks) GamepadState(j glfw.Joystick, dst *glfw.GamepadState) bool {
	f.Reads++
	if !f.IsGamepad(j) {
		return false
	}
	*dst = f.Slots[j].State
	return true
}

func (f *FakeJoysticks) GamepadName(j glfw.Joystick) string {
	if !f.IsGamepad(j) {
		return ""
	}
	return f.Slots[j].Name
}

// UseJoysticks makes s read f instead of GLFW; call it before Init.
func UseJoysticks(s *Source, f *FakeJoysticks) { s.pad.api = f }

// Joysticks is the joystick interface, for tests outside the package.
type Joysticks = joysticks

// RealJoysticks is the GLFW implementation.
var RealJoysticks Joysticks = glfwJoysticks{}
