package glfwinput

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// joysticks is the part of GLFW's joystick API the source reads. The real
// one is glfwJoysticks; tests substitute a fake joystick, since a machine
// without a gamepad (a CI runner, Xvfb) has nothing to read. All methods
// run on the platform thread.
type joysticks interface {
	// IsGamepad reports whether joystick j is present and has a gamepad
	// mapping.
	IsGamepad(j glfw.Joystick) bool
	// GamepadState fills dst with j's state through its mapping; it
	// reports false, leaving dst alone, when j is absent or unmapped.
	GamepadState(j glfw.Joystick, dst *glfw.GamepadState) bool
	// GamepadName returns the name of j's mapping.
	GamepadName(j glfw.Joystick) string
}

// glfwJoysticks is GLFW itself.
type glfwJoysticks struct{}

func (glfwJoysticks) IsGamepad(j glfw.Joystick) bool     { return j.IsGamepad() }
func (glfwJoysticks) GamepadName(j glfw.Joystick) string { return j.GetGamepadName() }

// GamepadState copies go-gl's result, which it allocates on every call
// (two small objects); there is no allocation-free form in go-gl v3.3.
func (glfwJoysticks) GamepadState(j glfw.Joystick, dst *glfw.GamepadState) bool {
	gs := j.GetGamepadState()
	if gs == nil {
		return false
	}
	*dst = *gs
	return true
}

// gamepadButtons maps GLFW's gamepad buttons, by index, to input's.
var gamepadButtons = [glfw.ButtonLast + 1]input.Button{
	glfw.ButtonA:           input.GamepadA,
	glfw.ButtonB:           input.GamepadB,
	glfw.ButtonX:           input.GamepadX,
	glfw.ButtonY:           input.GamepadY,
	glfw.ButtonLeftBumper:  input.GamepadLeftBumper,
	glfw.ButtonRightBumper: input.GamepadRightBumper,
	glfw.ButtonBack:        input.GamepadBack,
	glfw.ButtonStart:       input.GamepadStart,
	glfw.ButtonGuide:       input.GamepadGuide,
	glfw.ButtonLeftThumb:   input.GamepadLeftThumb,
	glfw.ButtonRightThumb:  input.GamepadRightThumb,
	glfw.ButtonDpadUp:      input.GamepadDpadUp,
	glfw.ButtonDpadRight:   input.GamepadDpadRight,
	glfw.ButtonDpadDown:    input.GamepadDpadDown,
	glfw.ButtonDpadLeft:    input.GamepadDpadLeft,
}

// gamepadAxes maps GLFW's gamepad axes, by index, to input's.
var gamepadAxes = [glfw.AxisLast + 1]input.Axis{
	glfw.AxisLeftX:        input.GamepadLeftX,
	glfw.AxisLeftY:        input.GamepadLeftY,
	glfw.AxisRightX:       input.GamepadRightX,
	glfw.AxisRightY:       input.GamepadRightY,
	glfw.AxisLeftTrigger:  input.GamepadLeftTrigger,
	glfw.AxisRightTrigger: input.GamepadRightTrigger,
}

// gamepad follows one gamepad through GLFW's mappings: the first joystick
// that has one, until it goes away, then the next one found. GLFW has no
// gamepad callbacks, so its state is read at every poll and changes are
// stamped then; a joystick callback would only shorten the search, and
// GLFW allows one per process, which the game may want for itself.
type gamepad struct {
	api       joysticks
	connected bool
	joy       glfw.Joystick
	name      string
	// live marks a trigger seen away from exactly 0. GLFW reports a
	// trigger from -1 (released) to 1, and 0 for a trigger the mapping
	// lacks; a real trigger rests at -1, so until a trigger reads
	// something else than 0 it is taken as missing (released), not
	// half pressed.
	live [2]bool
	gs   glfw.GamepadState
}

// find looks for a joystick with a gamepad mapping, lowest number first.
func (p *gamepad) find() bool {
	for j := glfw.Joystick1; j <= glfw.JoystickLast; j++ {
		if p.api.IsGamepad(j) {
			p.joy, p.connected, p.name, p.live = j, true, p.api.GamepadName(j), [2]bool{}
			return true
		}
	}
	return false
}

// read refreshes p.gs, finding a gamepad if none is followed. It reports
// whether a gamepad is connected; lost reports that the followed one went
// away (and found, that a new one was found) during this read.
func (p *gamepad) read() (lost, found bool) {
	if p.connected && !p.api.GamepadState(p.joy, &p.gs) {
		p.connected, p.name, lost = false, "", true
	}
	if !p.connected {
		if !p.find() {
			return lost, false
		}
		found = true
		if !p.api.GamepadState(p.joy, &p.gs) {
			p.gs = glfw.GamepadState{} // unplugged between the two calls; seen next poll
		}
	}
	return lost, found
}

// value returns axis i of the last read in input's range.
func (p *gamepad) value(i int) float32 {
	v := p.gs.Axes[i]
	if i == int(glfw.AxisLeftTrigger) || i == int(glfw.AxisRightTrigger) {
		k := i - int(glfw.AxisLeftTrigger)
		if !p.live[k] {
			if v == 0 {
				return 0
			}
			p.live[k] = true
		}
		return (v + 1) / 2
	}
	return v
}

// sample reads the gamepad into st, for a source describing what it finds
// at attach time. With use false only the connection is recorded.
func (p *gamepad) sample(st *input.State, use bool) {
	p.read()
	st.Gamepad.Connected = p.connected
	if !p.connected || !use {
		return
	}
	for i, a := range p.gs.Buttons {
		if a == glfw.Press {
			st.Down.Add(gamepadButtons[i])
		}
	}
	for i := range p.gs.Axes {
		st.Gamepad.Axes[gamepadAxes[i]] = p.value(i)
	}
}

// poll reads the gamepad and records what changed at t: a disconnect (the
// recorder releases the gamepad's buttons and centres its axes), a
// connect, and, when use is set, button edges and axis motion against the
// recorder's state. With use false (an unfocused window) buttons and axes
// are left as the recorder has them: released and centred by the focus
// loss, and read again when focus returns.
func (p *gamepad) poll(rec *input.Recorder, t timing.Instant, use bool) {
	lost, found := p.read()
	if lost {
		rec.Gamepad(t, false)
	}
	if found {
		rec.Gamepad(t, true)
	}
	if !p.connected || !use {
		return
	}
	st := rec.State()
	for i, a := range p.gs.Buttons {
		b := gamepadButtons[i]
		switch down := a == glfw.Press; {
		case down && !st.Down.Has(b):
			rec.Press(t, b)
		case !down && st.Down.Has(b):
			rec.Release(t, b)
		}
	}
	for i := range p.gs.Axes {
		rec.Axis(t, gamepadAxes[i], p.value(i)) // unchanged values record nothing
	}
}

// updateMappings hands SDL-format gamepad mappings to GLFW one line at a
// time, so that each rejected line can be named. GLFW reports a bad line
// through its error callback, which go-gl keeps and turns into a panic at
// the next call that checks for errors; checking here, right after each
// line, turns it into an error instead of a crash somewhere later.
func updateMappings(mappings string) error {
	var errs []error
	for n, line := range strings.Split(mappings, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ok := glfw.UpdateGamepadMappings(line)
		if err := pendingError(); err != nil || !ok {
			if err == nil {
				err = errors.New("rejected")
			}
			errs = append(errs, fmt.Errorf("glfwinput: Options.GamepadMappings line %d: %v", n+1, err))
		}
	}
	return errors.Join(errs...)
}

// pendingError returns the error GLFW reported since the last go-gl call
// that checked, by making such a call and catching its panic.
func pendingError() (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	glfw.GetTime()
	return nil
}
