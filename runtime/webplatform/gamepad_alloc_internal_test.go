//go:build js && wasm && !race

package webplatform

import (
	"syscall/js"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// TestGamepadPollAllocs: a poll that reads a pad with new data (a button
// toggled, the timestamp moved) and one with nothing new allocate
// nothing on the Go side.
func TestGamepadPollAllocs(t *testing.T) {
	pad, _ := fakePads(t)
	step := js.Global().Get("Function").New("pad", `pad.timestamp += 1; pad.buttons[0].pressed = !pad.buttons[0].pressed; pad.axes[0] = -pad.axes[0] || 0.5;`)
	args := []any{pad}
	var rec input.Recorder
	var snap input.Snapshot
	now := timing.Instant(time.Second)
	rec.Init(now, input.State{})
	p := newGamepad()
	for range 4 {
		step.Invoke(args...)
		p.poll(&rec, now, 1e6, true)
		rec.Flush(now, &snap)
	}
	if n := testing.AllocsPerRun(100, func() {
		step.Invoke(args...)
		p.poll(&rec, now, 1e6, true)
		p.poll(&rec, now, 1e6, true) // nothing new
		rec.Flush(now, &snap)
	}); n != 0 {
		t.Errorf("a gamepad poll allocates %v times, want 0", n)
	}
}
