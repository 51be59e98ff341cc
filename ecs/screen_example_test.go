package ecs_test

import (
	"fmt"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// A 320x180 game, letterboxed in a window of 800x360 units (1600x720
// pixels on a high-density screen), picks the world point under the cursor
// through a camera centred on (1000, 500) at zoom 2, and reads the HUD's
// logical coordinates through the default view.
func ExampleSys_ScreenToWorld() {
	app, err := ecs.NewApp(ecs.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := app.SetScreen(render2d.Screen{Width: 320, Height: 180, ClearColor: render2d.RGBA8(0x20, 0x20, 0x28, 0xff)}); err != nil {
		fmt.Println(err)
		return
	}
	var camera ecs.Entity
	app.AddSystem(ecs.Startup, ecs.System{Name: "camera", Run: func(ctx *ecs.Sys) {
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.At(1000, 500))
		ecs.With(p, ecs.Camera{Anchor: geom.Vec2{X: 0.5, Y: 0.5}, Zoom: 2})
	}})
	app.AddSystem(ecs.Startup, ecs.System{Name: "find camera", Run: func(ctx *ecs.Sys) {
		q := ecs.NewFilter1[ecs.Camera](ctx.World).Query()
		for q.Next() {
			camera = q.Entity()
		}
	}})
	app.AddSystem(ecs.Update, ecs.System{Name: "pick", Run: func(ctx *ecs.Sys) {
		l := ctx.Layout()
		fmt.Printf("logical screen at %v, %v framebuffer pixels per logical unit\n", l.Viewport, l.Scale.X)
		for _, cursor := range []geom.Vec2{{X: 400, Y: 180}, {X: 80, Y: 0}, {X: 40, Y: 10}} {
			world, _ := ctx.ScreenToWorld(camera, cursor)
			hud, _ := ctx.ScreenToWorld(ecs.Entity{}, cursor)
			fmt.Printf("cursor %v: world %v, HUD %v\n", cursor, world, hud)
		}
	}})
	if err := app.InitSimulation(nil); err != nil {
		fmt.Println(err)
		return
	}
	err = app.Update(&runtime.TickContext{
		Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Final: true},
		Window: input.Window{Size: input.Size{Width: 800, Height: 360}, Framebuffer: input.Size{Width: 1600, Height: 720}},
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// logical screen at {160 0 1280 720}, 4 framebuffer pixels per logical unit
	// cursor {400 180}: world {1000 500}, HUD {160 90}
	// cursor {80 0}: world {920 455}, HUD {0 0}
	// cursor {40 10}: world {910 457.5}, HUD {-20 5}
}
