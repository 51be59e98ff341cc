package glfwinput_test

import (
	"testing"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/glfwinput"
	"github.com/metronome-go/metronome/timing"
)

// BenchmarkPollIdle measures a poll of a window with no pending events:
// the full poll (glfw.PollEvents, gamepad check, flush), without the
// gamepad check, the gamepad check without pumping events (with no
// joystick attached, the search of GLFW's 16 joystick slots), and the
// flush alone (ManualPump, NoGamepad) as the baseline. The loops run on
// the main thread.
func BenchmarkPollIdle(b *testing.B) {
	cases := []struct {
		name string
		opts glfwinput.Options
	}{
		{"Full", glfwinput.Options{}},
		{"NoGamepad", glfwinput.Options{NoGamepad: true}},
		{"GamepadOnly", glfwinput.Options{ManualPump: true}},
		{"FlushOnly", glfwinput.Options{NoGamepad: true, ManualPump: true}},
	}
	w := newWindow(b)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var snap input.Snapshot
			onMain(func() {
				src := glfwinput.Attach(w.win, c.opts)
				defer src.Detach()
				src.Poll(timing.Now(), &snap)
				b.ResetTimer()
				for range b.N {
					src.Poll(timing.Now(), &snap)
				}
				b.StopTimer()
			})
		})
	}
}

// TestPollIdleAllocations: an idle poll allocates nothing once the
// snapshot has its capacity.
func TestPollIdleAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	w := newWindow(t)
	var snap input.Snapshot
	var allocs float64
	onMain(func() {
		src := glfwinput.Attach(w.win, glfwinput.Options{})
		defer src.Detach()
		src.Poll(timing.Now(), &snap)
		allocs = testing.AllocsPerRun(100, func() { src.Poll(timing.Now(), &snap) })
	})
	if allocs != 0 {
		t.Errorf("an idle poll allocates %v times, want 0", allocs)
	}
}
