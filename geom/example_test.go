package geom_test

import (
	"fmt"

	"github.com/metronome-go/metronome/geom"
)

// A ball moving 300 units in one step would pass through a 10-unit brick
// with an overlap test at each step; the sweep finds the contact.
func ExampleRect_Sweep() {
	ball := geom.R(0, 46, 8, 8)
	vel := geom.V(300, 0) // units per step
	brick := geom.R(100, 40, 10, 20)

	fmt.Println("overlap after the step:", ball.Translate(vel).Intersects(brick))
	hit, ok := ball.Sweep(vel, brick)
	fmt.Println("hit:", ok, hit.Time, hit.Normal)

	// Move up to the contact (the time is rounded down, so the ball stops
	// a hair short of the face, never inside it) and bounce.
	ball = ball.Translate(vel.Scale(hit.Time))
	vel = vel.Reflect(hit.Normal)
	fmt.Println("ball at", ball.Min(), "moving", vel)
	// Output:
	// overlap after the step: false
	// hit: true 0.30666664 {-1 0}
	// ball at {91.99999 46} moving {-300 0}
}

// Touching is not overlapping, so bricks laid edge to edge do not collide.
func ExampleRect_Intersects() {
	a := geom.R(0, 0, 40, 20)
	fmt.Println(a.Intersects(geom.R(40, 0, 40, 20)))  // edge to edge
	fmt.Println(a.Intersects(geom.R(39, 19, 40, 20))) // one unit in
	// Output:
	// false
	// true
}

// Penetration says how to push a box out of another: along the shorter
// way, here up out of the floor.
func ExampleRect_Penetration() {
	player := geom.R(10, 95, 16, 16)
	floor := geom.R(0, 100, 200, 20)
	mtv, ok := player.Penetration(floor)
	fmt.Println(mtv, ok)
	fmt.Println(player.Translate(mtv).Intersects(floor))
	// Output:
	// {0 -11} true
	// false
}

func ExampleCircle_PenetrationRect() {
	ball := geom.Circle{Center: geom.V(50, 97), Radius: 5}
	paddle := geom.R(20, 100, 80, 10)
	mtv, ok := ball.PenetrationRect(paddle)
	fmt.Println(ball.IntersectsRect(paddle), mtv, ok)
	// Output:
	// true {0 -2} true
}

// A line-of-sight check: the segment from the eye to the target enters the
// wall at a quarter of its length.
func ExampleRect_Raycast() {
	wall := geom.R(25, -50, 10, 100)
	eye, target := geom.V(0, 0), geom.V(100, 0)
	hit, ok := wall.Raycast(eye, target.Sub(eye))
	fmt.Println(ok, hit.Time, eye.Lerp(target, hit.Time))
	// Output:
	// true 0.25 {25 0}
}

func ExampleVec2() {
	v := geom.V(3, 4)
	fmt.Println(v.Len(), v.Normalize(), v.Scale(2).Add(geom.V(1, 1)))
	fmt.Println(geom.Vec2{}.Normalize()) // zero stays zero, never NaN
	// Output:
	// 5 {0.6 0.8} {7 9}
	// {0 0}
}
