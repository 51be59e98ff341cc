package ui_test

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
	"github.com/metronome-go/metronome/ui"
)

// A title menu: two buttons that fire the game's actions, driven here by
// a gamepad's d-pad and A button. The game's system reads ctx.Input
// exactly as it would for a key bound to the action.
func Example() {
	actions := input.NewActions()
	nav, _ := ui.RegisterNav(actions)
	play := actions.MustRegister("play", input.KeyP)
	quit := actions.MustRegister("quit")
	app, _ := ecs.NewApp(ecs.Options{})
	_ = app.SetScreen(render2d.Screen{Width: 320, Height: 180})
	menu, _ := ui.Add(app, ui.Options{Actions: actions, Nav: nav})
	app.AddSystem(ecs.Startup, ecs.System{Name: "title", Run: func(ctx *ecs.Sys) {
		b := ui.NewBuilder(ctx.Commands)
		root := b.Add(ecs.Entity{}, ui.VStack().At(0.5, 0.5))
		b.Add(root, ui.Button("Play", play))
		b.Add(root, ui.Button("Quit", quit))
	}})
	app.AddSystem(ecs.Update, ecs.System{Name: "react", Run: func(ctx *ecs.Sys) {
		if ctx.Input.Pressed(play) {
			fmt.Println("play on tick", ctx.Time.Number)
		}
		if ctx.Input.Pressed(quit) {
			fmt.Println("quit on tick", ctx.Time.Number)
		}
	}})
	_ = app.InitSimulation(nil)

	var in input.Tick
	tick := func(n uint64, buttons ...input.Button) {
		var recs []input.Record
		start := timing.Instant(n) * timing.Instant(16*time.Millisecond)
		for i, b := range buttons {
			at := start + timing.Instant(i)
			recs = append(recs, input.Record{Time: at, Kind: input.RecordPress, Button: b}, input.Record{Time: at, Kind: input.RecordRelease, Button: b})
		}
		in.Fill(actions, start, start+timing.Instant(16*time.Millisecond), input.State{}, recs)
		_ = app.Update(&runtime.TickContext{Update: timing.Update{Number: n, Delta: 16 * time.Millisecond}, Input: &in})
	}
	tick(0)
	play1 := menu.Widget(menu.Find("Play"))
	fmt.Printf("Play at %v, focused: %v\n", play1.Rect, menu.State().Focus == menu.Find("Play"))
	tick(1, input.GamepadA)
	tick(2, input.GamepadDpadDown)
	tick(3, input.GamepadA)
	tick(4, input.KeyP)
	// Output:
	// Play at {80 68 160 20}, focused: true
	// play on tick 1
	// quit on tick 3
	// play on tick 4
}

// An options screen from the game's [game] table: the game decodes its
// settings again whenever the screen fires Changed. Here a keyboard turns
// the volume up twice and flips the music.
func ExampleNewSettings() {
	type Settings struct {
		Volume int `range:"0,10"`
		Music  bool
	}
	defaults := Settings{Volume: 5}
	cfg, _ := config.Default().WithGame(&defaults)

	actions := input.NewActions()
	nav, _ := ui.RegisterNav(actions)
	changed := actions.MustRegister("settings changed")
	app, _ := ecs.NewApp(ecs.Options{})
	menu, _ := ui.Add(app, ui.Options{Actions: actions, Nav: nav})
	screen, err := ui.NewSettings(menu, ui.SettingsOptions{Config: cfg, Changed: changed})
	if err != nil {
		fmt.Println(err)
		return
	}
	app.AddSystem(ecs.Startup, ecs.System{Name: "options", Run: func(ctx *ecs.Sys) {
		b := ui.NewBuilder(ctx.Commands)
		root := b.Add(ecs.Entity{}, ui.VStack())
		b.Add(root, ui.Label("Options"))
		screen.Build(b, root)
	}})
	live := defaults
	app.AddSystem(ecs.Update, ecs.System{Name: "apply", Run: func(ctx *ecs.Sys) {
		if ctx.Input.Pressed(changed) {
			c, err := screen.Config()
			if err == nil {
				err = c.DecodeGame(&live)
			}
			fmt.Printf("%+v %v\n", live, err)
		}
	}})
	_ = app.InitSimulation(nil)

	var in input.Tick
	for n, key := range []input.Button{0, input.KeyRight, input.KeyRight, input.KeyDown, input.KeyEnter} {
		start := timing.Instant(n) * timing.Instant(16*time.Millisecond)
		var recs []input.Record
		if key != 0 {
			recs = []input.Record{{Time: start, Kind: input.RecordPress, Button: key}, {Time: start, Kind: input.RecordRelease, Button: key}}
		}
		in.Fill(actions, start, start+timing.Instant(16*time.Millisecond), input.State{}, recs)
		_ = app.Update(&runtime.TickContext{Update: timing.Update{Number: uint64(n), Delta: 16 * time.Millisecond}, Input: &in})
	}
	// Output:
	// {Volume:6 Music:false} <nil>
	// {Volume:7 Music:false} <nil>
	// {Volume:7 Music:true} <nil>
}
