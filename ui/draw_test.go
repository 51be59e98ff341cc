package ui_test

import (
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/nullrender"
	"github.com/metronome-go/metronome/ui"
)

// TestDrawsInLogicalUnits prepares a frame: the UI draws in a pass of its
// own laid over the window's logical screen, a quad per widget where it
// was laid out, the focused one in the theme's focus colour, the slider's
// fill as wide as its value, and text.
func TestDrawsInLogicalUnits(t *testing.T) {
	g := newGame(t)
	g.tap(t, input.KeyDown)
	frame := &render2d.Frame{}
	// The first frame rasterises the glyphs; once uploaded, the second
	// draws them.
	for range 2 {
		frame.Reset()
		if err := g.app.PrepareFrame(render2d.NewFrameWriter(frame)); err != nil {
			t.Fatal(err)
		}
		if err := g.lib.Upload(nullrender.New()); err != nil {
			t.Fatal(err)
		}
	}
	if len(frame.Passes) == 0 {
		t.Fatal("no pass")
	}
	pass := frame.Passes[len(frame.Passes)-1]
	if got, want := pass.Camera.Size, (geom.Vec2{X: 320, Y: 180}); got != want {
		t.Errorf("pass view size %v, want the logical %v", got, want)
	}
	if got, want := pass.Camera.Viewport, (geom.Rect{W: 640, H: 360}); got != want {
		t.Errorf("pass viewport %v, want the window's %v", got, want)
	}
	th := ui.DefaultTheme()
	quadAt := func(r geom.Rect, c render2d.Color) bool {
		for _, p := range pass.Packets {
			if p.Texture.IsZero() && p.Transform.Position == (geom.Vec2{X: r.X, Y: r.Y}) && p.Size == (geom.Vec2{X: r.W, Y: r.H}) && p.Tint == c {
				return true
			}
		}
		return false
	}
	_, music := g.widget(t, "Music")
	if !quadAt(music.Rect, th.Focus) {
		t.Errorf("no focus-coloured quad at the focused toggle's %v", music.Rect)
	}
	_, start := g.widget(t, "Start")
	if !quadAt(start.Rect, th.Widget) {
		t.Errorf("no quad at the button's %v", start.Rect)
	}
	glyphs := 0
	var fill bool
	_, vol := g.widget(t, "Volume")
	for _, p := range pass.Packets {
		if !p.Texture.IsZero() {
			glyphs++
		}
		if p.Tint == th.Accent && p.Transform.Position.Y > vol.Rect.Y && p.Transform.Position.Y < vol.Rect.Y+vol.Rect.H {
			inner := vol.Rect.W/2 - 4
			if want := inner * 5 / 10; p.Size.X != want {
				t.Errorf("slider fill %v wide, want %v (5 of 10)", p.Size.X, want)
			}
			fill = true
		}
	}
	if !fill {
		t.Error("no slider fill drawn")
	}
	if glyphs < len("StartMusicVolumeModeNameBackQuitJump") {
		t.Errorf("%d glyphs drawn, want the captions'", glyphs)
	}
}
