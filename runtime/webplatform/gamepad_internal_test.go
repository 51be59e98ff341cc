//go:build js && wasm

package webplatform

import (
	"syscall/js"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// These tests run under Node.js (go_js_wasm_exec, as scripts/cross.sh
// runs them): a page's navigator.getGamepads is replaced by a fake pad
// that the test moves through the returned object.

// fakePads installs navigator.getGamepads returning one standard pad and
// returns that pad and a function that plugs it in (true) or out.
func fakePads(t *testing.T) (pad js.Value, plug func(bool)) {
	t.Helper()
	obj := js.Global().Get("Function").New(`
		const pad = { index: 0, connected: true, mapping: "standard", timestamp: 0,
			buttons: Array.from({ length: 17 }, () => ({ pressed: false, value: 0 })), axes: [0, 0, 0, 0] };
		const state = { pad, plugged: true };
		Object.defineProperty(globalThis, "navigator", { configurable: true, value: { getGamepads: () => state.plugged ? [null, pad] : [null, null] } });
		return state;`).Invoke()
	t.Cleanup(func() { js.Global().Get("Reflect").Call("deleteProperty", js.Global(), "navigator") })
	return obj.Get("pad"), func(on bool) { obj.Set("plugged", on) }
}

func TestGamepadRecords(t *testing.T) {
	pad, plug := fakePads(t)
	pad.Set("index", 1)
	var rec input.Recorder
	var snap input.Snapshot
	now := timing.Instant(time.Second)
	rec.Init(now, input.State{})
	rec.Flush(now, &snap)
	p := newGamepad()
	perf := 5000.0 // performance.now() at the poll, in ms

	p.poll(&rec, now, perf, true)
	if !rec.State().Gamepad.Connected {
		t.Fatal("after the first poll the gamepad is not connected")
	}
	rec.Flush(now, &snap)

	// A frame later: A, the left stick half right, the right trigger a
	// quarter pressed, 2 ms before the poll.
	now += timing.Instant(16 * time.Millisecond)
	perf += 16
	pad.Get("buttons").Index(0).Set("pressed", true)
	pad.Get("axes").SetIndex(0, 0.5)
	pad.Get("buttons").Index(7).Set("value", 0.25)
	pad.Set("timestamp", perf-2)
	p.poll(&rec, now, perf, true)
	rec.Flush(now, &snap)
	st := rec.State()
	if !st.Down.Has(input.GamepadA) {
		t.Errorf("A pressed on the pad, not down in the records")
	}
	if got := st.Gamepad.Axes[input.GamepadLeftX]; got != 0.5 {
		t.Errorf("left x = %v, want 0.5", got)
	}
	if got := st.Gamepad.Axes[input.GamepadRightTrigger]; got != 0.25 {
		t.Errorf("right trigger = %v, want 0.25 (button 7's value)", got)
	}
	want := now - timing.Instant(2*time.Millisecond)
	for _, r := range snap.Records {
		if r.Time != want {
			t.Errorf("%v record at %v, want the pad's timestamp, %v", r.Kind, r.Time, want)
		}
	}
	if len(snap.Records) != 3 {
		t.Errorf("%d records for A, the stick and the trigger, want 3: %+v", len(snap.Records), snap.Records)
	}

	// A change with the same timestamp is not new data.
	pad.Get("buttons").Index(1).Set("pressed", true)
	p.poll(&rec, now, perf, true)
	if rec.State().Down.Has(input.GamepadB) {
		t.Errorf("B read though the pad's timestamp did not move")
	}

	// Without focus the pad is not read.
	pad.Set("timestamp", perf-1)
	p.poll(&rec, now, perf, false)
	if rec.State().Down.Has(input.GamepadB) {
		t.Errorf("B read without focus")
	}

	// Unplugged: its buttons go up and its axes to rest.
	plug(false)
	p.poll(&rec, now, perf, true)
	st = rec.State()
	if st.Gamepad.Connected || st.Down.Has(input.GamepadA) || st.Gamepad.Axes[input.GamepadLeftX] != 0 {
		t.Errorf("after unplugging: connected %v, A down %v, left x %v; want false, false, 0", st.Gamepad.Connected, st.Down.Has(input.GamepadA), st.Gamepad.Axes[input.GamepadLeftX])
	}
}

func TestPadInstant(t *testing.T) {
	now := timing.Instant(10 * time.Second)
	for _, c := range []struct {
		perf, stamp float64
		want        timing.Instant
	}{
		{1000, 990, now - timing.Instant(10*time.Millisecond)},
		{1000, 0, now},    // no timestamp
		{1000, 1005, now}, // never after now
	} {
		if got := padInstant(now, c.perf, c.stamp); got != c.want {
			t.Errorf("padInstant(now, %v, %v) = %v, want %v", c.perf, c.stamp, got, c.want)
		}
	}
}
