package ui_test

import (
	"cmp"
	"slices"
	"testing"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
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

// TestSliderShowsItsNumber: a slider draws its number on its bar, the
// glyphs of Value, or for a slider Showing a setting's range the
// setting's value, and draws the new number once a step moves it.
func TestSliderShowsItsNumber(t *testing.T) {
	g := newGameWith(t, nil, func(g *game, b *ui.Builder) {
		root := b.Add(ecs.Entity{}, ui.VStack().At(0.5, 0.5))
		b.Add(root, ui.Slider("Volume", 5, 0, 10, 1, g.volume))
		b.Add(root, ui.Slider("Speed", 4, 0, 20, 1, g.volume).Showing(30, 30))
		b.Add(root, ui.Slider("Fade", 7, 0, 20, 1, g.volume).Showing(0, 0.05))
	})
	gpu := nullrender.New()
	check := func(name, want string) {
		t.Helper()
		_, w := g.widget(t, name)
		if got := w.Number(); got != want {
			t.Errorf("%s: Number() = %q, want %q", name, got, want)
		}
		got := glyphsIn(t, g, gpu, geom.Rect{X: w.Rect.X + w.Rect.W/2, Y: w.Rect.Y, W: w.Rect.W / 2, H: w.Rect.H})
		if exp := glyphsOf(t, g, want); !slices.Equal(got, exp) {
			t.Errorf("%s: the bar shows glyphs %v, want those of %q: %v", name, got, want, exp)
		}
	}
	check("Volume", "5")
	check("Speed", "150")
	check("Fade", "0.35")
	g.tap(t, input.KeyDown) // to Speed
	g.tap(t, input.KeyRight)
	check("Speed", "180")
	check("Volume", "5")
}

// glyphsIn prepares a frame (twice: the first rasterises new glyphs) and
// returns the atlas rectangles of the glyphs drawn in r, left to right.
func glyphsIn(t *testing.T, g *game, gpu assets.Uploader, r geom.Rect) []geom.Rect {
	t.Helper()
	frame := &render2d.Frame{}
	for range 2 {
		frame.Reset()
		if err := g.app.PrepareFrame(render2d.NewFrameWriter(frame)); err != nil {
			t.Fatal(err)
		}
		if err := g.lib.Upload(gpu); err != nil {
			t.Fatal(err)
		}
	}
	pass := frame.Passes[len(frame.Passes)-1]
	var ps []render2d.DrawPacket2D
	for _, p := range pass.Packets {
		at := p.Transform.Position
		if !p.Texture.IsZero() && at.X >= r.X && at.X < r.X+r.W && at.Y >= r.Y && at.Y < r.Y+r.H {
			ps = append(ps, p)
		}
	}
	slices.SortStableFunc(ps, func(a, b render2d.DrawPacket2D) int {
		return cmp.Compare(a.Transform.Position.X, b.Transform.Position.X)
	})
	var out []geom.Rect
	for _, p := range ps {
		out = append(out, p.Source)
	}
	return out
}

// glyphsOf returns the atlas rectangles of the glyphs of s in the UI's
// font.
func glyphsOf(t *testing.T, g *game, s string) []geom.Rect {
	t.Helper()
	var f render2d.Frame
	pw := render2d.NewFrameWriter(&f).BeginPass(render2d.PassDesc{})
	if _, err := g.lib.DrawText(pw, g.font, s, assets.TextOptions{Width: 100}); err != nil {
		t.Fatal(err)
	}
	var out []geom.Rect
	for _, p := range f.Passes[0].Packets {
		if !p.Texture.IsZero() {
			out = append(out, p.Source)
		}
	}
	return out
}
