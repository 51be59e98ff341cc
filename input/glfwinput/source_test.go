package glfwinput_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/glfwinput"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/timing"
)

// window is a real GLFW window with a second one to take focus away to.
type window struct {
	t        testing.TB
	win      *glfw.Window
	other    *glfw.Window
	wid      string
	otherWID string
}

// newWindow opens the windows (no GL context is needed) or ends the test
// through testdisplay.Unavailable when there is no display. A test that
// sends events with xdo first calls requireEventSender.
func newWindow(t testing.TB) *window {
	t.Helper()
	if displayErr != nil {
		testdisplay.Unavailable(t, displayErr)
	}
	w := &window{t: t}
	var err error
	onMain(func() {
		glfw.DefaultWindowHints()
		glfw.WindowHint(glfw.ClientAPI, glfw.NoAPI)
		glfw.WindowHint(glfw.Focused, glfw.False)
		glfw.WindowHint(glfw.FocusOnShow, glfw.False)
		w.other, err = glfw.CreateWindow(64, 64, "glfwinput other", nil, nil)
		if err != nil {
			return
		}
		glfw.DefaultWindowHints()
		glfw.WindowHint(glfw.ClientAPI, glfw.NoAPI)
		w.win, err = glfw.CreateWindow(200, 150, "glfwinput test", nil, nil)
		if err != nil {
			w.other.Destroy()
			return
		}
		w.wid, w.otherWID = windowID(w.win), windowID(w.other)
	})
	if err != nil {
		testdisplay.Unavailable(t, err)
	}
	t.Cleanup(func() {
		onMain(func() {
			w.win.Destroy()
			w.other.Destroy()
			glfw.PollEvents()
		})
	})
	return w
}

// driver runs the conformance suite against a glfwinput.Source with real X
// events and, since the X server has no gamepad, a fake joystick behind the
// source's real GLFW gamepad code.
type driver struct {
	*window
	src      *glfwinput.Source
	pad      *glfwinput.FakeJoysticks // touched on the main thread only
	deadline time.Time
}

func newDriver(t *testing.T) inputtest.Driver {
	requireEventSender(t)
	w := newWindow(t)
	d := &driver{window: w, pad: &glfwinput.FakeJoysticks{}}
	var err error
	onMain(func() {
		d.src = glfwinput.New(w.win, glfwinput.Options{})
		glfwinput.UseJoysticks(d.src, d.pad)
		err = d.src.Init()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { onMain(d.src.Detach) }) // runs before the window's cleanup
	return d
}

// padButtons and padAxes are GLFW's indices for input's gamepad controls,
// written out again here so that the source's own tables are checked.
var padButtons = map[input.Button]glfw.GamepadButton{
	input.GamepadA: glfw.ButtonA, input.GamepadB: glfw.ButtonB, input.GamepadX: glfw.ButtonX, input.GamepadY: glfw.ButtonY,
	input.GamepadLeftBumper: glfw.ButtonLeftBumper, input.GamepadRightBumper: glfw.ButtonRightBumper,
	input.GamepadBack: glfw.ButtonBack, input.GamepadStart: glfw.ButtonStart, input.GamepadGuide: glfw.ButtonGuide,
	input.GamepadLeftThumb: glfw.ButtonLeftThumb, input.GamepadRightThumb: glfw.ButtonRightThumb,
	input.GamepadDpadUp: glfw.ButtonDpadUp, input.GamepadDpadRight: glfw.ButtonDpadRight,
	input.GamepadDpadDown: glfw.ButtonDpadDown, input.GamepadDpadLeft: glfw.ButtonDpadLeft,
}

var padAxes = map[input.Axis]glfw.GamepadAxis{
	input.GamepadLeftX: glfw.AxisLeftX, input.GamepadLeftY: glfw.AxisLeftY,
	input.GamepadRightX: glfw.AxisRightX, input.GamepadRightY: glfw.AxisRightY,
	input.GamepadLeftTrigger: glfw.AxisLeftTrigger, input.GamepadRightTrigger: glfw.AxisRightTrigger,
}

// mainSource polls on the main thread.
type mainSource struct{ src *glfwinput.Source }

func (m mainSource) Poll(now timing.Instant, dst *input.Snapshot) {
	onMain(func() { m.src.Poll(now, dst) })
}

var keysyms = map[input.Button]string{
	input.KeyA: "a", input.KeyB: "b", input.KeyC: "c", input.KeyD: "d", input.KeySpace: "space",
}

func (d *driver) Source() input.Source { return mainSource{d.src} }
func (d *driver) Now() timing.Instant  { return timing.Now() }

func (d *driver) button(b input.Button, down bool) error {
	if i, ok := padButtons[b]; ok {
		action := glfw.Release
		if down {
			action = glfw.Press
		}
		onMain(func() { d.pad.Slots[glfw.Joystick1].State.Buttons[i] = action })
		return nil
	}
	if b.Device() == input.Mouse {
		verb := "mouseup"
		if down {
			verb = "mousedown"
		}
		return d.xdo(verb, fmt.Sprint(int(b-input.MouseLeft)+1))
	}
	sym, ok := keysyms[b]
	if !ok {
		return inputtest.ErrUnsupported
	}
	verb := "keyup"
	if down {
		verb = "keydown"
	}
	return d.xdo(verb, sym)
}

func (d *driver) Press(b input.Button) error   { return d.button(b, true) }
func (d *driver) Release(b input.Button) error { return d.button(b, false) }
func (d *driver) MoveCursor(x, y float64) error {
	return d.xdo("mousemove", "--window", d.wid, fmt.Sprint(int(x)), fmt.Sprint(int(y)))
}

func (d *driver) Scroll(dx, dy int) error {
	for ; dy > 0; dy-- {
		if err := d.xdo("click", "4"); err != nil {
			return err
		}
	}
	for ; dy < 0; dy++ {
		if err := d.xdo("click", "5"); err != nil {
			return err
		}
	}
	if dx != 0 {
		return inputtest.ErrUnsupported
	}
	return nil
}

func (d *driver) Type(c rune) error { return d.xdo("type", string(c)) }
func (d *driver) Resize(w, h int) error {
	return d.xdo("windowsize", d.wid, fmt.Sprint(w), fmt.Sprint(h))
}
func (d *driver) Focus(f bool) error {
	if f {
		return d.xdo("windowfocus", d.wid)
	}
	return d.xdo("windowfocus", d.otherWID)
}

// Gamepad plugs the fake gamepad into the first joystick slot, or pulls it.
func (d *driver) Gamepad(connected bool) error {
	onMain(func() {
		if connected {
			d.pad.Plug(glfw.Joystick1, "Conformance Pad")
		} else {
			d.pad.Slots[glfw.Joystick1] = glfwinput.FakeJoystick{}
		}
	})
	return nil
}

// MoveAxis sets the fake gamepad's axis in GLFW's terms: triggers run from
// -1 (released) to 1.
func (d *driver) MoveAxis(a input.Axis, v float32) error {
	if a.Trigger() {
		v = 2*v - 1
	}
	onMain(func() { d.pad.Slots[glfw.Joystick1].State.Axes[padAxes[a]] = v })
	return nil
}

// Wait gives the X server up to ten seconds per expectation: generous, so a
// slow machine does not fail, and only reached when events never arrive.
func (d *driver) Wait(attempt int) bool {
	if attempt == 0 {
		d.deadline = time.Now().Add(10 * time.Second)
	}
	if time.Now().After(d.deadline) {
		return false
	}
	onMain(func() { glfw.WaitEventsTimeout(0.01) })
	return true
}

func TestConformance(t *testing.T) {
	inputtest.TestSource(t, newDriver)
}
