// Package shape tessellates vector shapes into the meshes of shape
// packets ([render2d.DrawPacket2D.Mesh]): lines and polylines with a width,
// caps and joins; polygons, convex or concave, with holes, filled by the
// non-zero or even-odd rule; circles, ellipses, arcs and pie slices;
// rectangles and rounded rectangles; each filled or stroked, antialiased
// over one pixel at any zoom.
//
// # Shapes are packets
//
// A [Shape] is geometry in its own units. [Tessellator.Draw] cuts it into
// triangles in the pass being written and appends a packet that names
// them; the packet's Transform places the shape, its Tint colours it and
// its Prev interpolates it at present time, exactly as for a sprite. A
// shape packet sorts with sprites by Layer, and consecutive shape packets
// with the same blend mode are drawn by one draw call, so ten thousand
// shapes cost a few calls. Tessellation runs where the frame is prepared
// (the simulation side); renderers only place and colour vertices.
//
//	var tess shape.Tessellator // keep it: its scratch is reused
//	pw := w.BeginPass(render2d.PassDesc{})
//	ring := shape.Circle(20).Stroked(3)
//	p := shape.Packet(geom.Vec2{X: 100, Y: 80}, render2d.RGBA8(255, 200, 0, 255))
//	if err := tess.Draw(pw, &ring, p); err != nil { ... }
//
// In an ECS game the [ecs.Shape] component draws a shape at its entity's
// Transform, and ctx.Draw draws debug lines and circles for one frame.
//
// # Coordinates and rules
//
// Circles, ellipses and arcs are centred on the origin; rectangles have
// their top-left corner there, like a sprite's quad (Transform.Origin moves
// the pivot). Angles are radians from +x, positive clockwise on screen,
// since y points down. A polygon's [Shape.Holes] are cut out by
// [Shape.Rule]: under [NonZero] a hole runs the other way round from its
// outline, under [EvenOdd] either way. A convex outline is a fan of
// triangles; anything else is cut into trapezoids between the heights of
// its vertices and crossings, so any outline fills correctly, within
// [MaxFillEdges].
//
// # Cost
//
// A Tessellator and the frame it writes into reuse their storage: once
// they have grown, tessellating a frame of shapes allocates nothing.
// Curves cost a point per segment; [Shape.Segments] overrides the number
// chosen from the radius. Antialiasing costs no triangles where it can be
// done by distance ([render2d.Vertex]): a filled circle is a disc of two
// triangles whatever its radius, a filled convex polygon or ellipse one
// triangle per edge, a straight line four (a polyline's butt ends add a
// fringe of four). Concave and holed fills are trapezoids with a fringe of
// two triangles per outline edge.
package shape
