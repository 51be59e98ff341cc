package ecs

import (
	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// Transform places an entity in the world: Position, Rotation (radians,
// clockwise on screen because y points down) and Scale.
//
// Motion between ticks is smoothed when frames are drawn, not when ticks
// run: each draw packet carries the placement its entity had in the
// previous frame that was extracted, and the platform moves it from there
// to the current one at every present (see [App.SetInterpolation]). So a
// tick costs nothing extra for interpolation and Transform stays small for
// the loops that move it. An entity drawn for the first time is drawn where
// it is; call [Transform.Teleport] after a jump that must not be smeared
// across the screen, and [Transform.SetInterpolation] to turn smoothing off
// for an entity that should always be drawn exactly where it is (a HUD, a
// cursor). Writing a whole Transform with [Set] or [Add] counts as a
// teleport.
//
// A zero Scale draws nothing, as in render2d; [At] builds a Transform with a
// scale of one.
type Transform struct {
	Position geom.Vec2
	Rotation float32
	Scale    geom.Vec2

	// motion holds the teleport count in its low 31 bits and the opt-out
	// of interpolation in the top bit. Extraction remembers the value it
	// saw with the placement it drew; a different value means a jump. It is
	// game state (only game code changes it), so a replay sees the same.
	motion uint32
}

const (
	motionStill = 1 << 31 // the entity is never interpolated
	motionJumps = motionStill - 1
)

// At returns a Transform at (x, y) with no rotation and a scale of one.
func At(x, y float32) Transform {
	return Transform{Position: geom.Vec2{X: x, Y: y}, Scale: geom.Vec2{X: 1, Y: 1}}
}

// Teleport marks the current value as a jump: the next frame draws the
// entity at its new place instead of sliding it there from where the
// previous frame drew it.
func (t *Transform) Teleport() { t.motion = t.motion&motionStill | (t.motion+1)&motionJumps }

// SetInterpolation turns the smoothing of this entity's motion between
// frames on (the default) or off. Off, every frame draws it exactly at its
// current placement, as after a teleport.
func (t *Transform) SetInterpolation(on bool) {
	if on {
		t.motion &^= motionStill
	} else {
		t.motion |= motionStill
	}
}

// Interpolates reports whether the entity's motion is smoothed between
// frames (see [Transform.SetInterpolation]).
func (t *Transform) Interpolates() bool { return t.motion&motionStill == 0 }

// placement returns the transform as a render2d placement with the given
// tint, marked set.
func (t *Transform) placement(tint render2d.Color) render2d.Placement {
	return render2d.Placement{Position: t.Position, Rotation: t.Rotation, Scale: t.Scale, Tint: tint, Set: true}
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
	Source geom.Rect
	// Size is the quad's unscaled size in world units. Zero takes the size of
	// Source.
	Size geom.Vec2
	// Origin is the pivot in the quad's own units from its top-left corner:
	// it sits at the Transform's Position, and rotation and scale turn about
	// it.
	Origin geom.Vec2
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
// position and rotation. Cameras with a lower Order draw first. Sprites
// entirely outside a camera's view are culled from its pass. A camera
// moves between frames the way sprites do (see [Transform]), zoom
// included.
//
// Without any camera entity, extraction draws one pass with the default
// render2d camera: world units are framebuffer pixels (logical units under
// a logical screen, see [App.SetScreen]), (0, 0) at the top-left corner.
//
// Under a logical screen, a camera drawing into the window is measured in
// logical units: its Viewport is a rectangle of the logical screen and its
// Zoom counts logical units per world unit; extraction turns them into
// framebuffer pixels for the window of each frame. [Sys.ScreenToWorld]
// finds the world point under the cursor through a camera.
type Camera struct {
	// Anchor is where the camera's position appears, as a fraction of the
	// viewport ({0.5, 0.5} is the centre).
	Anchor geom.Vec2
	// Zoom is view units (framebuffer pixels, or logical units under a
	// logical screen) per world unit; zero means 1.
	Zoom float32
	// Viewport is the region of the target drawn into, in its pixels
	// (logical units for the window under a logical screen); zero is all
	// of it.
	Viewport geom.Rect
	// Target is where the pass draws; zero is the window.
	Target render2d.TargetHandle
	// Clear and ClearColor clear the viewport before drawing. The whole
	// window, bars included, is cleared to the screen's colour before any
	// camera draws (render2d.Screen.ClearColor).
	Clear      bool
	ClearColor render2d.Color
	// Order sorts the passes; equal orders keep their query order.
	Order int16
	// Disabled cameras produce no pass.
	Disabled bool
	// Follow, when it names a live entity with a Transform, places the
	// camera at that entity's position plus the camera's own Position (an
	// offset: [At](0, 0) follows exactly). Both placements are taken from
	// the same frames and move alike between them, so a followed sprite
	// holds still on screen however the presents fall between ticks, and
	// the view jumps when the followed entity teleports. The camera's
	// Rotation stays its own.
	Follow Entity
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
