package ecs

import (
	"math"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/render2d"
)

// Vec2 is a 2D vector in world units (render2d's type, so values cross into
// draw packets without conversion).
type Vec2 = render2d.Vec2

// Transform places an entity in the world: Position, Rotation (radians,
// clockwise on screen because y points down) and Scale.
//
// The App copies every Transform to its previous value at the start of each
// fixed step that may end a batch (unless [Options.NoInterpolation] is set),
// so extraction can draw the entity between where it was and where it is by
// the frame's interpolation alpha. A Transform that
// has never been through a tick has no previous value and is drawn where it
// is. Call [Transform.Teleport] after a jump that must not be smeared;
// replacing a whole Transform with [Set] or [Add] has the same effect.
//
// A zero Scale draws nothing, as in render2d; [At] builds a Transform with a
// scale of one.
type Transform struct {
	Position Vec2
	Rotation float32
	Scale    Vec2

	prev    pose
	hasPrev bool
}

type pose struct {
	position Vec2
	rotation float32
	scale    Vec2
}

// At returns a Transform at (x, y) with no rotation and a scale of one.
func At(x, y float32) Transform {
	return Transform{Position: Vec2{X: x, Y: y}, Scale: Vec2{X: 1, Y: 1}}
}

// Teleport makes the current value also the previous one, so the next frame
// draws the entity at its new place instead of sliding it there.
func (t *Transform) Teleport() { t.hasPrev = false }

// Previous returns the value the transform had at the start of the latest
// tick, and false when it has none yet.
func (t *Transform) Previous() (position Vec2, rotation float32, scale Vec2, ok bool) {
	if !t.hasPrev {
		return t.Position, t.Rotation, t.Scale, false
	}
	return t.prev.position, t.prev.rotation, t.prev.scale, true
}

// Interpolated returns the transform between its previous value (alpha 0)
// and its current one (alpha 1). Rotation turns the short way round.
func (t *Transform) Interpolated(alpha float32) (position Vec2, rotation float32, scale Vec2) {
	if !t.hasPrev || alpha >= 1 {
		return t.Position, t.Rotation, t.Scale
	}
	p := &t.prev
	position = Vec2{X: p.position.X + (t.Position.X-p.position.X)*alpha, Y: p.position.Y + (t.Position.Y-p.position.Y)*alpha}
	scale = Vec2{X: p.scale.X + (t.Scale.X-p.scale.X)*alpha, Y: p.scale.Y + (t.Scale.Y-p.scale.Y)*alpha}
	rotation = t.Rotation
	if p.rotation != t.Rotation {
		rotation = lerpAngle(p.rotation, t.Rotation, alpha)
	}
	return position, rotation, scale
}

// lerpAngle turns from a towards b the short way round.
func lerpAngle(a, b, alpha float32) float32 {
	d := float32(math.Remainder(float64(b-a), 2*math.Pi))
	return b - d*(1-alpha)
}

// Sprite draws a textured quad at the entity's [Transform].
//
// A zero Texture draws a solid quad of the Tint colour. A zero Source uses
// the whole texture; set it to an atlas region's rectangle to draw part of a
// sheet. A zero Tint means white (an invisible sprite is better expressed
// with Hidden).
type Sprite struct {
	Texture render2d.TextureHandle
	// Source is the texture region in texels; zero is the whole texture.
	Source render2d.Rect
	// Size is the quad's unscaled size in world units. Zero takes the size of
	// Source.
	Size Vec2
	// Origin is the pivot in the quad's own units from its top-left corner:
	// it sits at the Transform's Position, and rotation and scale turn about
	// it.
	Origin Vec2
	Tint   render2d.Color
	// Layer orders drawing: lower layers first. Inside a layer, sprites
	// keep the world's query order, which holds from frame to frame but
	// changes for an entity that gains or loses a component, or that a
	// despawn in its archetype moves; give sprites whose overlap matters
	// layers of their own.
	Layer    int16
	Blend    render2d.BlendMode
	Material render2d.MaterialHandle
	Hidden   bool
}

// Camera turns an entity with a [Transform] into a view: each camera
// produces one pass in the frame, showing the world around its transform's
// (interpolated) position and rotation. Cameras with a lower Order draw
// first. Sprites entirely outside a camera's view are culled from its pass.
//
// Without any camera entity, extraction draws one pass with the default
// render2d camera: world units are framebuffer pixels, (0, 0) at the
// top-left corner.
type Camera struct {
	// Anchor is where the camera's position appears, as a fraction of the
	// viewport ({0.5, 0.5} is the centre).
	Anchor Vec2
	// Zoom is framebuffer pixels per world unit; zero means 1.
	Zoom float32
	// Viewport is the region of the target drawn into; zero is all of it.
	Viewport render2d.Rect
	// Target is where the pass draws; zero is the window.
	Target render2d.TargetHandle
	// Clear and ClearColor clear the viewport before drawing.
	Clear      bool
	ClearColor render2d.Color
	// Order sorts the passes; equal orders keep their query order.
	Order int16
	// Disabled cameras produce no pass.
	Disabled bool
}

// SpriteOf returns a Sprite drawing an atlas region (an image, a sheet
// frame) at its natural size, pivoting about its top-left corner.
func SpriteOf(r assets.Region) Sprite {
	return Sprite{Texture: r.Texture, Source: r.Source, Size: r.Size()}
}

// SetRegion points the sprite at another atlas region (the next frame of an
// animation, say), keeping its size unless it had none.
func (s *Sprite) SetRegion(r assets.Region) {
	s.Texture, s.Source = r.Texture, r.Source
}

// Text draws a string at the entity's [Transform]: its Position is the
// top-left corner of the text box, its Rotation turns the text about that
// corner and Scale.X scales it (zero means 1). The glyphs are laid out by
// the App's [assets.Library] ([Options.Assets]) when each frame is prepared,
// into one packet per glyph on the text's Layer.
type Text struct {
	Font    assets.Font
	Content string
	// Width wraps lines longer than it and aligns them within it; zero
	// means no wrapping (see [assets.TextOptions]).
	Width       float32
	Align       assets.Align
	LineSpacing float32
	// Color tints the glyphs; zero means white.
	Color  render2d.Color
	Layer  int16
	Blend  render2d.BlendMode
	Hidden bool
}
