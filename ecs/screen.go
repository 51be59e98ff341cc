package ecs

import (
	"fmt"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
)

// SetScreen sets the App's screen: the colour the whole window is cleared
// to before the passes of every frame (the bars around a letterboxed view
// included), and an optional logical resolution with its scaling mode
// (see [render2d.Screen]).
//
// Under a logical resolution every frame lays the screen out in the
// framebuffer of the latest tick's window, so the view follows resizes,
// and each camera drawing into the window works in logical units: its
// [Camera.Viewport] is a rectangle of the logical screen (zero: all of
// it), its Zoom counts logical units per world unit, and its Anchor is a
// fraction of that viewport. Without any camera entity the default view is
// the whole logical screen with world units as logical units. Cameras
// drawing into an offscreen target keep their target's pixels. While the
// framebuffer has no area (a minimised window) no window pass is drawn.
//
// It fails, changing nothing, when s is invalid
// ([render2d.Screen.Validate]). The zero Screen, the default, has no
// logical resolution and clears to transparent black. The App's screen is
// not part of the world's hash: it changes what is drawn, and through
// [Sys.ScreenToWorld] how the cursor is read, not the world. Call it
// from the simulation goroutine, or before the session starts.
func (a *App) SetScreen(s render2d.Screen) error {
	if err := s.Validate(); err != nil {
		return fmt.Errorf("ecs: SetScreen: %w", err)
	}
	a.extract.screen = s
	return nil
}

// Screen returns the App's screen (see [App.SetScreen]).
func (a *App) Screen() render2d.Screen { return a.extract.screen }

// SetScreen changes the App's screen from a system (a settings menu that
// switches to integer scaling, say); see [App.SetScreen]. The next frame
// prepared draws with it.
func (c *Sys) SetScreen(s render2d.Screen) error { return c.app.SetScreen(s) }

// Screen returns the App's screen.
func (c *Sys) Screen() render2d.Screen { return c.app.extract.screen }

// Layout returns where the App's screen lies in the framebuffer of this
// tick's window ([render2d.Screen.Layout]): the logical size, the
// viewport with the bars around it, and the scale.
func (c *Sys) Layout() render2d.Layout {
	w := c.app.window
	return c.app.extract.screen.Layout(w.Framebuffer.Width, w.Framebuffer.Height, w.Size.Width, w.Size.Height)
}

// ScreenToWorld returns the world point under p, a point of the window in
// window coordinates (the units of the cursor, [input.Tick.Cursor]: logical
// window units from the top-left corner), as camera cam shows it in this
// tick's window: through the window's framebuffer scale, the screen's
// layout, the camera's viewport, anchor, zoom and rotation, and the entity
// it follows. The zero Entity stands for the default view (world units are
// logical units, or framebuffer pixels without a logical resolution, from
// the top-left corner of the screen): the coordinates of a HUD.
//
// It reads the camera's placement as this tick leaves it, not as a frame
// interpolated between ticks draws it. A point in a bar or outside the
// camera's viewport maps to a world point outside the view; use
// [Sys.WorldToScreen] or [Sys.Layout] to tell. It reports false
// when cam is not a live camera entity with a Transform, draws into an
// offscreen target, or the window has no area. It allocates nothing.
func (c *Sys) ScreenToWorld(cam Entity, p geom.Vec2) (geom.Vec2, bool) {
	v, fbW, fbH, sx, sy, ok := c.app.extract.windowView(cam, &c.app.window)
	if !ok {
		return geom.Vec2{}, false
	}
	return v.TargetToWorld(geom.Vec2{X: p.X * sx, Y: p.Y * sy}, fbW, fbH), true
}

// WorldToScreen is the inverse of [Sys.ScreenToWorld]: where the world
// point p appears in the window, in window coordinates, through camera
// cam (zero: the default view).
func (c *Sys) WorldToScreen(cam Entity, p geom.Vec2) (geom.Vec2, bool) {
	v, fbW, fbH, sx, sy, ok := c.app.extract.windowView(cam, &c.app.window)
	if !ok {
		return geom.Vec2{}, false
	}
	q := v.WorldToTarget(p, fbW, fbH)
	return geom.Vec2{X: q.X / sx, Y: q.Y / sy}, true
}

// windowView returns the view through which camera cam (zero: the default
// view) draws window win, laid out on the App's screen, with the
// framebuffer's size and its pixels per window unit along each axis.
func (x *extractor) windowView(cam Entity, win *input.Window) (v render2d.Camera, fbW, fbH int, sx, sy float32, ok bool) {
	fb := win.Framebuffer
	if fb.Width <= 0 || fb.Height <= 0 {
		return v, 0, 0, 0, 0, false
	}
	if !cam.IsZero() {
		e := cam.e
		if cam.Pending() || !x.w.w.Alive(e) || !x.camMap.Has(e) || !x.transforms.Has(e) {
			return v, 0, 0, 0, 0, false
		}
		c := x.camMap.Get(e)
		if !c.Target.IsZero() {
			return v, 0, 0, 0, 0, false
		}
		v, _ = x.cameraOf(x.transforms.Get(e), c)
	}
	l := x.screen.Layout(fb.Width, fb.Height, win.Size.Width, win.Size.Height)
	if !placeView(&v, render2d.TargetHandle{}, &l, x.screen.Logical()) {
		return v, 0, 0, 0, 0, false
	}
	sx, sy = 1, 1
	if win.Size.Width > 0 && win.Size.Height > 0 {
		sx, sy = float32(fb.Width)/float32(win.Size.Width), float32(fb.Height)/float32(win.Size.Height)
	}
	return v, fb.Width, fb.Height, sx, sy, true
}
