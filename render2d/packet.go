package render2d

import (
	"fmt"

	"github.com/metronome-go/metronome/geom"
)

// TextureHandle names a texture owned by a [Renderer]. It is a plain
// comparable value: an index plus the generation of that index, so a handle
// kept after [Renderer.ReleaseTexture] is recognised as stale instead of
// silently drawing whatever texture reused the slot.
//
// The zero TextureHandle is "no texture": a packet that uses it draws a
// solid quad in its tint colour (every renderer samples opaque white).
type TextureHandle struct {
	ID  uint32
	Gen uint32
}

// IsZero reports whether h is the zero handle (no texture, solid white).
func (h TextureHandle) IsZero() bool { return h == TextureHandle{} }

func (h TextureHandle) String() string { return fmt.Sprintf("texture %d gen %d", h.ID, h.Gen) }

// MaterialHandle names a custom shader material created with
// [Renderer.CreateMaterial]. The zero MaterialHandle is the built-in sprite
// material: the texel multiplied by the tint.
type MaterialHandle struct {
	ID  uint32
	Gen uint32
}

// IsZero reports whether h is the built-in sprite material.
func (h MaterialHandle) IsZero() bool { return h == MaterialHandle{} }

func (h MaterialHandle) String() string { return fmt.Sprintf("material %d gen %d", h.ID, h.Gen) }

// TargetHandle names an offscreen render target created with
// [Renderer.CreateRenderTarget]. The zero TargetHandle is the default
// framebuffer (the window).
type TargetHandle struct {
	ID  uint32
	Gen uint32
}

// IsZero reports whether h is the default framebuffer.
func (h TargetHandle) IsZero() bool { return h == TargetHandle{} }

func (h TargetHandle) String() string { return fmt.Sprintf("target %d gen %d", h.ID, h.Gen) }

// Color is a straight (not premultiplied) RGBA colour, each channel in
// [0, 1]. Renderers premultiply it themselves.
type Color struct{ R, G, B, A float32 }

// Common colours.
var (
	White       = Color{1, 1, 1, 1}
	Black       = Color{0, 0, 0, 1}
	Transparent = Color{}
)

// RGBA8 builds a Color from 8-bit straight channels.
func RGBA8(r, g, b, a uint8) Color {
	return Color{float32(r) / 255, float32(g) / 255, float32(b) / 255, float32(a) / 255}
}

// Transform places a quad in the world. The quad of [DrawPacket2D.Size] is
// shifted so that Origin (in the quad's own unscaled units, measured from
// its top-left corner) sits at Position, then scaled by Scale and rotated by
// Rotation (radians, clockwise on screen because y points down) about that
// point.
//
// Scale is a plain factor: a zero Scale draws nothing. [Sprite] fills in a
// scale of one.
type Transform struct {
	Position geom.Vec2
	Rotation float32
	Scale    geom.Vec2
	Origin   geom.Vec2
}

// BlendMode says how a packet's colour combines with what is already in the
// target. Every mode works on premultiplied colour: textures are
// [image.RGBA], which Go defines as premultiplied, and renderers premultiply
// the tint.
type BlendMode uint8

const (
	// BlendAlpha is ordinary "source over" compositing. It is the zero value.
	BlendAlpha BlendMode = iota
	// BlendAdditive adds the source colour, weighted by its alpha, to the
	// destination: lights, sparks, glows.
	BlendAdditive
	// BlendMultiply multiplies the destination by the source colour where the
	// source is opaque and leaves it alone where it is transparent: shadows,
	// tinting layers.
	BlendMultiply
	// BlendScreen brightens the destination by the inverse product:
	// result = src + dst*(1-src).
	BlendScreen
	// BlendOpaque replaces the destination, alpha included, ignoring what
	// was there.
	BlendOpaque

	// BlendModeCount is the number of blend modes; valid modes are below it.
	BlendModeCount
)

var blendNames = [...]string{"alpha", "additive", "multiply", "screen", "opaque"}

func (b BlendMode) String() string {
	if b < BlendModeCount {
		return blendNames[b]
	}
	return fmt.Sprintf("BlendMode(%d)", uint8(b))
}

// ParamCount is the number of per-packet material parameters.
const ParamCount = 4

// PassParamCount is the number of per-pass parameters every material can
// read.
const PassParamCount = 8

// DrawPacket2D is one textured quad, or one shape (see Mesh), described
// entirely by copied values:
// nothing in it points into game state, so the renderer can draw it while the
// simulation has moved on. It holds no Go pointers, so frames of packets
// cost the garbage collector nothing to scan.
type DrawPacket2D struct {
	// Texture to sample; zero draws solid white (times Tint).
	Texture TextureHandle
	// Source is the region of the texture in texels, from its top-left
	// corner. A zero Source means the whole texture.
	Source geom.Rect
	// Transform places the quad.
	Transform Transform
	// Size is the unscaled size of the quad in world units.
	Size geom.Vec2
	// Tint multiplies the texel colour (straight alpha). Use White to draw
	// the texture unchanged; the zero Tint draws nothing visible.
	Tint Color
	// Prev is where the quad was at the start of the update the frame
	// shows (position, rotation, scale and tint). Renderers draw the packet
	// at [Lerp] of Prev and the current values by the frame's
	// [Presentation.Alpha] (see [DrawPacket2D.Resolved]), so nothing has to
	// match packets between frames. The zero Prev is unset: the packet
	// draws at its current placement at every alpha.
	Prev Placement
	// Params are free values for a custom material; the built-in material
	// ignores them.
	Params [ParamCount]float32
	// Material shades the quad; zero is the built-in sprite material.
	Material MaterialHandle
	// Blend combines the result with the target.
	Blend BlendMode
	_     [1]uint8
	// Mesh, when its IndexCount is not zero, makes the packet a shape: it
	// draws the triangles of its pass's vertices ([Pass.Vertices]) that
	// the mesh names, in the packet's own units, placed by Transform
	// (Origin subtracted, then scaled, rotated and moved to Position) and
	// coloured by Tint times each vertex's coverage; Prev interpolates it
	// like a sprite. A shape samples no texture and uses the built-in
	// material; Source and Size are ignored. Package render2d/shape
	// tessellates lines, polygons, circles and the rest into meshes.
	Mesh Mesh
	// Layer orders packets within a pass when the writer asks for it with
	// [PassWriter.SortByLayer]; renderers draw packets in the order they
	// are stored and do not look at Layer.
	Layer int16
}

// Sprite returns a packet that draws the src region of tex (zero src: the
// whole texture) as a quad of the given size with its top-left corner at
// pos, untinted, unrotated, at scale one, alpha-blended.
func Sprite(tex TextureHandle, src geom.Rect, pos, size geom.Vec2) DrawPacket2D {
	return DrawPacket2D{
		Texture:   tex,
		Source:    src,
		Transform: Transform{Position: pos, Scale: geom.Vec2{X: 1, Y: 1}},
		Size:      size,
		Tint:      White,
	}
}

// IsShape reports whether p draws a mesh ([DrawPacket2D.Mesh]) rather
// than a quad.
func (p *DrawPacket2D) IsShape() bool { return p.Mesh.IndexCount != 0 }

// Vertex is one corner of a shape's triangles, in the shape's own units
// ([DrawPacket2D.Mesh]).
//
// Renderers move every vertex by Offset, measured in target pixels and
// turned by the packet's rotation but not scaled, and antialias a
// triangle's edges in one of two ways, so that coverage falls from 1 to 0
// across one pixel whatever the camera's zoom:
//
//   - by distance: a triangle whose vertices have an Edge (not NoEdge)
//     has one antialiased edge, and each vertex's Edge is its distance
//     from that edge's line in shape units, inside positive. Vertices on
//     the edge are pushed half a pixel out by their Offset. Each fragment
//     is covered by clamp(e + ½, 0, 1), where e, interpolated, is Edge
//     times the shape's scale in pixels, less ½ for a vertex with an
//     Offset. This costs no triangle beyond the shape's own.
//   - by a fringe: vertices with Edge NoEdge and Coverage 0 that sit on
//     the edge, pushed a pixel out by Offset, with triangles to the edge's
//     vertices at Coverage 1.
//
// A filled circle is a disc: a quad a pixel larger than the circle whose
// vertices have a Radius, covered where the interpolated Disc position
// lies inside the unit circle (antialiased over one pixel of the radius).
// A vertex's Disc includes its Offset: renderers add Offset divided by the
// radius in pixels.
type Vertex struct {
	Position geom.Vec2
	// Offset moves the vertex by this many target pixels.
	Offset geom.Vec2
	// Coverage, in [0, 1], multiplies the packet's tint.
	Coverage float32
	// Edge is the vertex's distance inside its triangle's antialiased
	// edge, in shape units, or NoEdge.
	Edge float32
	// Radius, when positive, makes the vertex a corner of a disc of that
	// radius (shape units); Disc is the vertex's position from the disc's
	// centre, in radii.
	Radius float32
	Disc   geom.Vec2
}

// NoEdge is the [Vertex.Edge] of a vertex whose triangles have no
// antialiased edge of their own (solid, or antialiased by a fringe).
const NoEdge float32 = 1e30

// Mesh names the triangles of a shape packet: IndexCount indices of
// [Pass.Indices] from FirstIndex, three per triangle, each counted from
// vertex FirstVertex of [Pass.Vertices] and below VertexCount. Indices are
// relative so that a mesh can be copied, and packets reordered, without
// rewriting them.
type Mesh struct {
	FirstVertex, VertexCount uint32
	FirstIndex, IndexCount   uint32
}

// BatchKey is the state that two consecutive packets must share to be drawn
// by one draw call.
type BatchKey struct {
	Texture  TextureHandle
	Material MaterialHandle
	Blend    BlendMode
	// Shape says the batch draws meshes ([DrawPacket2D.IsShape]), not
	// quads.
	Shape bool
}

// Key returns the batch key of p.
func (p *DrawPacket2D) Key() BatchKey {
	return BatchKey{Texture: p.Texture, Material: p.Material, Blend: p.Blend, Shape: p.Mesh.IndexCount != 0}
}

// Batch is a run of consecutive packets of one pass that share a
// [BatchKey]: packets[First : First+Count].
type Batch struct {
	Key   BatchKey
	First int
	Count int
}

// AppendBatches splits packets into runs of consecutive packets sharing a
// key and appends them to dst. Order is preserved: two packets with the
// same key separated by a different one land in different batches, because
// reordering them could change what overlaps what. It allocates only when
// dst must grow.
func AppendBatches(dst []Batch, packets []DrawPacket2D) []Batch {
	if len(packets) == 0 {
		return dst
	}
	start := 0
	key := packets[0].Key()
	for i := 1; i < len(packets); i++ {
		p := &packets[i]
		if p.Texture != key.Texture || p.Material != key.Material || p.Blend != key.Blend || (p.Mesh.IndexCount != 0) != key.Shape {
			dst = append(dst, Batch{Key: key, First: start, Count: i - start})
			start = i
			key = p.Key()
		}
	}
	return append(dst, Batch{Key: key, First: start, Count: len(packets) - start})
}
