//go:build js && wasm

package webplatform

import (
	"encoding/binary"
	"math"
	"syscall/js"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// The Gamepad API has no events for buttons and axes: a page reads
// navigator.getGamepads() when it wants, and each pad says with its own
// timestamp when its data last changed. The source reads it at every poll
// (once per animation frame) through padReader, a small JavaScript
// function that copies the first pad with the standard mapping into a
// Float64Array, so that a poll makes one call into the page and builds no
// JavaScript objects of its own.

// Layout of the array padReader fills.
const (
	padIndex   = 0 // the pad's index in getGamepads()
	padStamp   = 1 // Gamepad.timestamp (performance.now() time)
	padButtons = 2 // 17 buttons, 1 pressed or 0
	padAxes    = padButtons + len(standardButtons)
	padLen     = padAxes + len(standardAxes)
)

// padReaderSource is padReader's body: it returns 1 and fills out when a
// connected pad with the standard mapping is there (the lowest index
// first, as glfwinput takes the lowest joystick), 0 otherwise. Triggers
// are buttons 6 and 7 of the standard mapping, whose value (0 to 1) is
// input's trigger axis.
const padReaderSource = `
const pads = navigator.getGamepads ? navigator.getGamepads() : [];
for (const p of pads) {
	if (!p || !p.connected || p.mapping !== "standard") { continue; }
	out[0] = p.index;
	out[1] = p.timestamp;
	for (let i = 0; i < 17; i++) { out[2 + i] = i < p.buttons.length && p.buttons[i].pressed ? 1 : 0; }
	for (let i = 0; i < 4; i++) { out[19 + i] = i < p.axes.length ? p.axes[i] : 0; }
	out[23] = p.buttons.length > 6 ? p.buttons[6].value : 0;
	out[24] = p.buttons.length > 7 ? p.buttons[7].value : 0;
	return 1;
}
return 0;`

// standardButtons maps the standard mapping's buttons, by index, to
// input's (the same layout glfwinput maps GLFW's gamepad buttons to).
// Buttons 6 and 7 are the triggers, read as axes.
var standardButtons = [17]input.Button{
	0: input.GamepadA, 1: input.GamepadB, 2: input.GamepadX, 3: input.GamepadY,
	4: input.GamepadLeftBumper, 5: input.GamepadRightBumper,
	6: input.ButtonNone, 7: input.ButtonNone,
	8: input.GamepadBack, 9: input.GamepadStart,
	10: input.GamepadLeftThumb, 11: input.GamepadRightThumb,
	12: input.GamepadDpadUp, 13: input.GamepadDpadDown, 14: input.GamepadDpadLeft, 15: input.GamepadDpadRight,
	16: input.GamepadGuide,
}

// standardAxes maps the array's axes: the standard mapping's four stick
// axes (+Y down, as input's), then the two triggers.
var standardAxes = [6]input.Axis{
	input.GamepadLeftX, input.GamepadLeftY, input.GamepadRightX, input.GamepadRightY,
	input.GamepadLeftTrigger, input.GamepadRightTrigger,
}

// gamepad follows the first standard-mapped pad the page offers.
type gamepad struct {
	read  js.Value // padReader
	out   js.Value // its Float64Array
	args  []any    // out, as padReader's argument (made once)
	bytes js.Value // the same memory as a Uint8Array, to copy out
	buf   [padLen * 8]byte
	v     [padLen]float64
	// connected, index and stamp describe the pad followed: a pad whose
	// index and timestamp are those of the last read has nothing new.
	connected bool
	index     float64
	stamp     float64
}

func newGamepad() *gamepad {
	p := &gamepad{}
	p.read = js.Global().Get("Function").New("out", padReaderSource)
	p.out = js.Global().Get("Float64Array").New(padLen)
	p.bytes = js.Global().Get("Uint8Array").New(p.out.Get("buffer"))
	p.args = []any{p.out}
	return p
}

// poll reads the pad and records what changed: a disconnect (the recorder
// releases the pad's buttons and centres its axes), a connect, and, when
// use is set (the page has focus), button edges and axis motion, stamped
// with the pad's own timestamp. now bounds the stamps; perfNow is
// performance.now() read with it.
func (p *gamepad) poll(rec *input.Recorder, now timing.Instant, perfNow float64, use bool) {
	if p.read.Invoke(p.args...).Int() == 0 {
		if p.connected {
			p.connected = false
			rec.Gamepad(now, false)
		}
		return
	}
	js.CopyBytesToGo(p.buf[:], p.bytes)
	for i := range p.v {
		p.v[i] = math.Float64frombits(binary.LittleEndian.Uint64(p.buf[i*8:]))
	}
	at := padInstant(now, perfNow, p.v[padStamp])
	fresh := !p.connected || p.v[padIndex] != p.index
	if fresh {
		if p.connected {
			rec.Gamepad(at, false) // another pad took the first place
		}
		p.connected = true
		rec.Gamepad(at, true)
	} else if p.v[padStamp] == p.stamp && p.stamp != 0 {
		return // no new data since the last read
	}
	p.index, p.stamp = p.v[padIndex], p.v[padStamp]
	if !use {
		return
	}
	st := rec.State()
	for i, b := range standardButtons {
		if b == input.ButtonNone {
			continue
		}
		switch down := p.v[padButtons+i] != 0; {
		case down && !st.Down.Has(b):
			rec.Press(at, b)
		case !down && st.Down.Has(b):
			rec.Release(at, b)
		}
	}
	for i, a := range standardAxes {
		rec.Axis(at, a, float32(p.v[padAxes+i])) // unchanged values record nothing
	}
}

// padInstant is the instant on timing's clock of a pad's timestamp, read
// when timing.Now was now and performance.now() perfNow: never after now,
// and now for a pad without a timestamp.
func padInstant(now timing.Instant, perfNow, stamp float64) timing.Instant {
	ago := perfNow - stamp
	if !(stamp > 0) || !(ago > 0) {
		return now
	}
	return now.AddSaturating(-time.Duration(ago * float64(time.Millisecond)))
}
