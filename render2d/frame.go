package render2d

import (
	"cmp"
	"slices"

	"github.com/metronome-go/metronome/geom"
)

// Camera maps world coordinates to a pass's viewport. The zero Camera
// shows world units as target pixels with the world origin at the viewport's
// top-left corner, y pointing down.
//
// The world point Position appears at the viewport point given by Anchor
// (a fraction of the viewport: {0, 0} is the top-left corner, {0.5, 0.5}
// the centre); zoom and rotation turn about that point.
type Camera struct {
	// Position is the world point shown at the anchor.
	Position geom.Vec2
	// Anchor is where Position appears, as a fraction of the viewport.
	Anchor geom.Vec2
	// Zoom is the number of view units per world unit; zero means 1.
	// View units are target pixels unless Size is set. Negative, infinite
	// or NaN zooms make [Renderer.Render] fail.
	Zoom float32
	// Rotation turns the view by this many radians: a positive rotation
	// turns the world counter-clockwise on screen, as a camera rolled
	// clockwise would see it.
	Rotation float32
	// Viewport is the region of the target drawn into, in target pixels
	// from its top-left corner. A zero Viewport is the whole target.
	// Renderers draw into whole pixels: give whole numbers.
	Viewport geom.Rect
	// Size, when not zero, is the size of the view in view units,
	// stretched over the viewport: a logical resolution (320x180 shown in
	// a 1280x720 viewport is scaled by 4). Zoom, Anchor and the world are
	// then measured in those units. The zero Size is the viewport's own
	// size in target pixels. Both sides must be positive and finite.
	// [Layout] computes viewports and sizes for a logical screen.
	Size geom.Vec2
}

// EffectiveZoom returns Zoom, with zero meaning 1.
func (c Camera) EffectiveZoom() float32 {
	if c.Zoom == 0 {
		return 1
	}
	return c.Zoom
}

// PassDesc is everything about a pass except its packets.
type PassDesc struct {
	// Camera values, copied from the game's camera when the frame was
	// prepared.
	Camera Camera
	// PrevCamera is where the camera was at the start of the update the
	// frame shows; the pass is drawn through [PassDesc.ResolvedCamera] at
	// the frame's alpha. The zero PrevCamera is unset: the camera stays
	// where Camera puts it.
	PrevCamera CameraPlacement
	// Target is where the pass draws; zero is the default framebuffer.
	Target TargetHandle
	// Clear fills the viewport with ClearColor before drawing.
	Clear      bool
	ClearColor Color
	// Params are free values every material of the pass can read.
	Params [PassParamCount]float32
}

// Pass is a described pass with its packets, drawn in slice order, and
// the vertices and indices its shape packets' meshes name
// ([DrawPacket2D.Mesh]).
type Pass struct {
	PassDesc
	Packets  []DrawPacket2D
	Vertices []Vertex
	Indices  []uint32
}

// Frame is a complete description of what to draw: passes in order, each
// drawn over the result of the ones before. A Frame handed to a renderer is
// never changed while it is being drawn.
//
// Frames are usually filled through a [FrameWriter] lent by [Slots], which
// reuses their storage; tests may also build one as a literal.
type Frame struct {
	Passes []Pass
	// Sequence numbers published frames, starting at 1; [Slots] sets it.
	Sequence uint64
	// Span is the real time of the final update the frame shows. The
	// owner of the frame writer (the runtime) sets it before publishing;
	// renderers do not read it.
	Span Span
	// Present is how the frame is being presented: the platform sets it
	// right before every Render, which draws at Present.Alpha. The zero
	// value is alpha 0: packets and cameras with a previous placement are
	// drawn there.
	Present Presentation
	// Clear fills the whole default framebuffer (the window) with
	// ClearColor before the first pass, whatever the passes' viewports
	// and targets: a pass's own clear covers its viewport only, so this is
	// what colours the bars around a letterboxed view. Set both with
	// [FrameWriter.SetClear].
	Clear      bool
	ClearColor Color
}

// Reset empties f, keeping the storage of its passes and packets for the
// next frame. Packets hold no pointers, so truncating them is enough: the
// old values keep nothing alive and are overwritten by the next frame.
func (f *Frame) Reset() {
	for i := range f.Passes {
		p := &f.Passes[i]
		p.Packets = p.Packets[:0]
		p.Vertices, p.Indices = p.Vertices[:0], p.Indices[:0]
		p.PassDesc = PassDesc{}
	}
	f.Passes = f.Passes[:0]
	f.Sequence = 0
	f.Span = Span{}
	f.Present = Presentation{}
	f.Clear, f.ClearColor = false, Color{}
}

// PacketCount returns the number of packets in all passes.
func (f *Frame) PacketCount() int {
	n := 0
	for i := range f.Passes {
		n += len(f.Passes[i].Packets)
	}
	return n
}

// FrameWriter fills a frame during preparation. It is lent to the game
// for one preparation and must not be kept afterwards. Its methods reuse the
// frame's storage, so a game that draws about the same amount every frame
// allocates nothing once the slots have grown.
//
// A FrameWriter belongs to the goroutine preparing the frame (the
// simulation goroutine in concurrent mode).
type FrameWriter struct {
	frame *Frame
	pass  PassWriter
	owner *Slots
	slot  int
}

// NewFrameWriter returns a writer that appends to f. [Slots] lends writers
// of its own; this is for tests and tools that build frames directly.
func NewFrameWriter(f *Frame) *FrameWriter {
	w := &FrameWriter{frame: f, slot: -1}
	w.pass.w = w
	return w
}

// Frame returns the frame being written.
func (w *FrameWriter) Frame() *Frame { return w.frame }

// SetClear makes the frame clear the whole window to c before its passes
// ([Frame.Clear]).
func (w *FrameWriter) SetClear(c Color) { w.frame.Clear, w.frame.ClearColor = true, c }

// BeginPass appends a pass and returns a writer for its packets. The
// returned PassWriter stays valid until the next BeginPass; packets drawn
// through an earlier PassWriter after that go to the newest pass.
func (w *FrameWriter) BeginPass(d PassDesc) *PassWriter {
	f := w.frame
	n := len(f.Passes)
	if n < cap(f.Passes) {
		f.Passes = f.Passes[:n+1]
		p := &f.Passes[n]
		p.PassDesc = d
		p.Packets = p.Packets[:0]
		p.Vertices, p.Indices = p.Vertices[:0], p.Indices[:0]
	} else {
		f.Passes = append(f.Passes, Pass{PassDesc: d})
	}
	w.pass.p = &f.Passes[n]
	return &w.pass
}

// PassWriter appends packets to the newest pass of a frame.
type PassWriter struct {
	w *FrameWriter
	p *Pass
}

// Draw appends one packet.
func (pw *PassWriter) Draw(p DrawPacket2D) {
	pw.p.Packets = append(pw.p.Packets, p)
}

// DrawPtr appends a copy of *p. It is Draw for callers that build large
// packets in place and want to avoid copying them twice.
func (pw *PassWriter) DrawPtr(p *DrawPacket2D) {
	pw.p.Packets = append(pw.p.Packets, *p)
}

// Append reserves n zeroed packets at the end of the pass and returns them
// for the caller to fill in place: the cheapest way to write many packets.
// The slice is valid until the next call on this writer.
func (pw *PassWriter) Append(n int) []DrawPacket2D {
	ps := slices.Grow(pw.p.Packets, n)
	l := len(ps)
	ps = ps[:l+n]
	clear(ps[l:])
	pw.p.Packets = ps
	return ps[l:]
}

// Geometry returns the pass's vertex and index slices for a tessellator
// to append a shape's mesh to (see [DrawPacket2D.Mesh]); their storage is
// reused from frame to frame like the packets'. Package render2d/shape
// does this for you.
func (pw *PassWriter) Geometry() (*[]Vertex, *[]uint32) { return &pw.p.Vertices, &pw.p.Indices }

// SetParam sets pass parameter i. It panics if i is outside
// [0, PassParamCount).
func (pw *PassWriter) SetParam(i int, v float32) { pw.p.Params[i] = v }

// Len returns the number of packets in the pass so far.
func (pw *PassWriter) Len() int { return len(pw.p.Packets) }

// SortByLayer orders the pass's packets by Layer, keeping the written order
// among packets of the same layer. It does not allocate.
func (pw *PassWriter) SortByLayer() {
	slices.SortStableFunc(pw.p.Packets, func(a, b DrawPacket2D) int { return cmp.Compare(a.Layer, b.Layer) })
}
