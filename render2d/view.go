package render2d

import (
	"math"

	"github.com/metronome-go/metronome/geom"
)

// ViewportIn returns the camera's viewport in a target of tw x th pixels:
// Viewport, or the whole target when Viewport is zero.
func (c Camera) ViewportIn(tw, th int) geom.Rect {
	if c.Viewport.IsZero() {
		return geom.Rect{W: float32(tw), H: float32(th)}
	}
	return c.Viewport
}

// ViewSize returns the size of the camera's view in view units in a target
// of tw x th pixels: Size when set, otherwise the viewport's size in
// pixels.
func (c Camera) ViewSize(tw, th int) geom.Vec2 {
	if c.Size != (geom.Vec2{}) {
		return c.Size
	}
	v := c.ViewportIn(tw, th)
	return geom.Vec2{X: v.W, Y: v.H}
}

// WorldToTarget returns where the world point p is drawn through c in a
// target of tw x th pixels, in pixels from the target's top-left corner
// (offscreen targets as they are sampled and read back: row 0 at the top).
// It is the mapping every renderer draws with: offset from Position, turned
// by -Rotation, scaled by the zoom, placed at the anchor of the view, and
// the view stretched over the viewport.
func (c Camera) WorldToTarget(p geom.Vec2, tw, th int) geom.Vec2 {
	vp, size := c.ViewportIn(tw, th), c.ViewSize(tw, th)
	z := float64(c.EffectiveZoom())
	s, co := math.Sincos(float64(c.Rotation))
	dx, dy := float64(p.X-c.Position.X)*z, float64(p.Y-c.Position.Y)*z
	// y points down: turning the world counter-clockwise on screen is a
	// turn by -Rotation in these coordinates.
	vx := float64(c.Anchor.X*size.X) + co*dx + s*dy
	vy := float64(c.Anchor.Y*size.Y) - s*dx + co*dy
	return geom.Vec2{
		X: float32(float64(vp.X) + vx*float64(vp.W)/float64(size.X)),
		Y: float32(float64(vp.Y) + vy*float64(vp.H)/float64(size.Y)),
	}
}

// TargetToWorld is the inverse of [Camera.WorldToTarget]: the world point
// drawn at pixel position p of a tw x th target. Points outside the
// viewport map to world points outside the view. A view or viewport of no
// area shows no world, and every point maps to Position.
func (c Camera) TargetToWorld(p geom.Vec2, tw, th int) geom.Vec2 {
	vp, size := c.ViewportIn(tw, th), c.ViewSize(tw, th)
	if vp.W == 0 || vp.H == 0 || size.X == 0 || size.Y == 0 {
		return c.Position
	}
	vx := float64(p.X-vp.X)*float64(size.X)/float64(vp.W) - float64(c.Anchor.X*size.X)
	vy := float64(p.Y-vp.Y)*float64(size.Y)/float64(vp.H) - float64(c.Anchor.Y*size.Y)
	z := float64(c.EffectiveZoom())
	s, co := math.Sincos(float64(c.Rotation))
	return geom.Vec2{
		X: c.Position.X + float32((co*vx-s*vy)/z),
		Y: c.Position.Y + float32((s*vx+co*vy)/z),
	}
}
