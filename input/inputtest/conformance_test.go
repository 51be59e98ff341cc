package inputtest_test

import (
	"time"

	"testing"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/timing"
)

// scriptDriver drives a Script on a manual clock: each operation is scripted
// at the current instant and each wait advances the clock by a millisecond.
type scriptDriver struct {
	s     *inputtest.Script
	clock *timing.ManualClock
}

func (d *scriptDriver) Source() input.Source  { return d.s }
func (d *scriptDriver) Now() timing.Instant   { return d.clock.Now() }
func (d *scriptDriver) at() timing.Instant    { return d.clock.Now() }
func (d *scriptDriver) Wait(attempt int) bool { d.clock.Advance(time.Millisecond); return attempt < 3 }

func (d *scriptDriver) Press(b input.Button) error   { d.s.Press(d.at(), b); return nil }
func (d *scriptDriver) Release(b input.Button) error { d.s.Release(d.at(), b); return nil }
func (d *scriptDriver) MoveCursor(x, y float64) error {
	d.s.Cursor(d.at(), x, y)
	return nil
}
func (d *scriptDriver) Scroll(dx, dy int) error {
	d.s.Scroll(d.at(), float64(dx), float64(dy))
	return nil
}
func (d *scriptDriver) Type(c rune) error { d.s.Text(d.at(), string(c)); return nil }
func (d *scriptDriver) Resize(w, h int) error {
	d.s.WindowSize(d.at(), w, h).FramebufferSize(d.at(), 2*w, 2*h)
	return nil
}
func (d *scriptDriver) Focus(f bool) error   { d.s.Focus(d.at(), f); return nil }
func (d *scriptDriver) Gamepad(c bool) error { d.s.Gamepad(d.at(), c); return nil }
func (d *scriptDriver) MoveAxis(a input.Axis, v float32) error {
	d.s.Axis(d.at(), a, v)
	return nil
}

func TestScriptConformance(t *testing.T) {
	inputtest.TestSource(t, func(t *testing.T) inputtest.Driver {
		d := &scriptDriver{s: inputtest.NewScript(), clock: timing.NewManualClock(timing.Instant(time.Second))}
		d.s.Init(d.at(), input.State{Window: input.Window{Size: input.Size{Width: 640, Height: 480}, Framebuffer: input.Size{Width: 1280, Height: 960}}})
		return d
	})
}
