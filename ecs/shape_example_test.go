package ecs_test

import (
	"fmt"
	"math"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
)

// The ship of an Asteroids-like: an outline stroked two units wide,
// turned by its Transform, a flame under it while thrusting, and a debug
// circle for its hit radius.
func ExampleShape() {
	app, _ := ecs.NewApp(ecs.Options{})
	app.AddSystem(ecs.Startup, ecs.System{Name: "ship", Run: func(ctx *ecs.Sys) {
		hull := shape.Polygon(geom.Vec2{X: 12, Y: 0}, geom.Vec2{X: -8, Y: -7}, geom.Vec2{X: -4, Y: 0}, geom.Vec2{X: -8, Y: 7}).Stroked(2)
		hull.Join = shape.JoinRound
		ship := ctx.Commands.Spawn()
		ecs.With(ship, ecs.Transform{Position: geom.Vec2{X: 160, Y: 90}, Rotation: -math.Pi / 2, Scale: geom.Vec2{X: 1, Y: 1}})
		ecs.With(ship, ecs.Shape{Shape: hull, Color: render2d.White, Layer: 1})
		flame := ctx.Commands.Spawn()
		ecs.With(flame, ecs.Transform{Position: geom.Vec2{X: 160, Y: 96}, Rotation: -math.Pi / 2, Scale: geom.Vec2{X: 1, Y: 1}})
		ecs.With(flame, ecs.Shape{Shape: shape.Polygon(geom.Vec2{X: -5, Y: -3}, geom.Vec2{X: -13, Y: 0}, geom.Vec2{X: -5, Y: 3}), Color: render2d.RGBA8(255, 140, 0, 255)})
		ctx.Draw.Circle(geom.Vec2{X: 160, Y: 90}, 10, 1, render2d.RGBA8(0, 255, 0, 128))
	}})
	if err := app.InitSimulation(nil); err != nil {
		fmt.Println(err)
		return
	}
	var frame render2d.Frame
	if err := app.PrepareFrame(render2d.NewFrameWriter(&frame)); err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range frame.Passes[0].Packets {
		fmt.Printf("layer %d: shape %v at %v, %d triangles\n", p.Layer, p.IsShape(), p.Transform.Position, p.Mesh.IndexCount/3)
	}
	// Output:
	// layer 0: shape true at {160 96}, 3 triangles
	// layer 1: shape true at {160 90}, 33 triangles
	// layer 32767: shape true at {160 90}, 60 triangles
}
