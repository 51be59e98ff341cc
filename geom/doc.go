// Package geom is the 2D math a game reaches for first: vectors, boxes,
// circles, overlap tests and a swept box test that keeps fast objects from
// passing through thin ones.
//
// # Vectors
//
// [Vec2] is a float32 point or vector with the usual methods ([Vec2.Add],
// [Vec2.Sub], [Vec2.Scale], [Vec2.Dot], [Vec2.Len], [Vec2.Normalize],
// [Vec2.Lerp], [Vec2.Reflect], ...). [Vec2.Mgl], [FromMgl] and
// [Vec2.Transform] connect it to mathgl's mgl32 matrices for rotations,
// scales and camera transforms.
//
// # One vector, one rectangle
//
// [Vec2] and [Rect] are the framework's only vector and rectangle: render2d's
// draw packets and cameras, render2d/shape's vertices, ecs's components and
// the games all hold these two types, so a position computed here goes into
// a packet or a component as it is, with no conversion. They live here
// because geom is the lowest of those packages: it imports only the standard
// library and mathgl (pure Go), while render2d, shape and ecs sit above it.
// A type's methods can only be declared in its own package, so the package
// with the methods (this one) owns the type, and render2d imports it rather
// than the other way round.
//
// # Shapes and overlap
//
// [Rect] is an axis-aligned box (corner and size) and
// [Circle] a disk. Overlap tests ([Rect.Intersects], [Circle.Intersects],
// [Circle.IntersectsRect]) count touching as not overlapping, so a ball
// resting on a paddle, or bricks laid edge to edge, are not in collision. A
// shape of zero size is the point (or segment) it covers: it overlaps a
// shape it lies strictly inside, and two zero-size shapes never overlap.
// [Rect.Contains] is half-open instead (left and top edges in, right and
// bottom out), so a grid of cells owns each point exactly once.
//
// When shapes do overlap, [Rect.Penetration], [Circle.Penetration] and
// [Circle.PenetrationRect] give the minimum translation vector that
// separates them, and [Rect.Overlap] the overlap depth on each axis.
//
// # Moving boxes
//
// Testing overlap after each step misses collisions when a box moves
// farther than an obstacle is thick in one step. [Rect.Sweep] tests the
// whole displacement instead and returns a [Hit]: the fraction of the move
// at first contact, in [0, 1), and the normal of the face that was hit.
// [Rect.Raycast] is the same test for a point: the segment from an origin
// along a displacement.
//
//	hit, ok := ball.Sweep(vel.Scale(dt), brick)
//	if ok {
//		ball = ball.Translate(vel.Scale(dt * hit.Time))
//		vel = vel.Reflect(hit.Normal)
//	}
//
// Every function is pure and allocation-free. Coordinates are float32, as
// in render2d; the sweep computes in float64 and rounds its time toward
// zero so that it never reports contact later than it happens.
package geom
