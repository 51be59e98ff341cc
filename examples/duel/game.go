package main

import (
	"errors"
	"fmt"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
)

// The arena, in logical pixels (window.logical_size).
const (
	arenaW, arenaH = 960, 540
	margin         = 16 // ships stay this far inside the edges
)

// A seat's actions, in the order the systems index a player's input:
// two axes made of key pairs and a button. Three actions keep a tick's
// input small on the wire (a session repeats every input its peers have
// not confirmed yet, a round trip's worth).
const (
	actX = iota // -1 left, +1 right
	actY        // -1 up, +1 down
	actFire
	seatActions
)

// seatKeys are each player's keys: player 1 on the left of the keyboard
// (W/A/S/D, Space), player 2 on the arrows and Enter. A player's
// [input.bindings] rebinds them by the action names ("p1_x", ...).
var seatKeys = [2]struct {
	left, right, up, down, fire input.Button
}{
	{input.KeyA, input.KeyD, input.KeyW, input.KeyS, input.KeySpace},
	{input.KeyLeft, input.KeyRight, input.KeyUp, input.KeyDown, input.KeyEnter},
}

// game holds what the systems share that is not game state: settings
// turned into per-tick amounts, asset handles, queries and the players'
// input resource. Systems are closures over it.
type game struct {
	settings *Settings
	setup    *framework.Setup // for the match's figures (NetStats)
	round    *Round
	players  *rollback.Players

	// Per-tick amounts, computed once from the settings.
	shipStep, shotStep float32
	reloadTicks        int32
	roundTicks         int32

	hudFont, netFont assets.Font
	sounds           sounds

	ships *ecs.Filter2[ecs.Transform, Ship]
	shots *ecs.Filter2[ecs.Transform, Shot]
	texts *ecs.Filter2[ecs.Text, Label]
	// shipShapes are the ships' drawings, tinted while hit.
	shipShapes *ecs.Filter2[Ship, ecs.Shape]

	// Scratch of the shots system, kept so that a tick allocates nothing.
	shipAt [2]geom2
	hit    [2]bool
}

// setup registers both seats' actions, the round resource and the
// systems.
func setup(s *framework.Setup, settings *Settings, net *framework.Net) error {
	g := &game{settings: settings, setup: s}
	var errs []error
	net.Seats = make([][]input.Action, 2)
	for p, k := range seatKeys {
		x, err := s.Actions.RegisterAxis(fmt.Sprintf("p%d_x", p+1), input.ButtonAxis(k.left, k.right))
		errs = append(errs, err)
		y, err := s.Actions.RegisterAxis(fmt.Sprintf("p%d_y", p+1), input.ButtonAxis(k.up, k.down))
		errs = append(errs, err)
		fire, err := s.Actions.Register(fmt.Sprintf("p%d_fire", p+1), k.fire)
		errs = append(errs, err)
		net.Seats[p] = []input.Action{x, y, fire}
	}
	var err error
	g.hudFont, err = s.Assets.ParseFont(assets.GoBold, gobold.TTF, 22)
	errs = append(errs, err)
	g.netFont, err = s.Assets.ParseFont(assets.GoRegular, goregular.TTF, 14)
	errs = append(errs, err)
	g.sounds, err = makeSounds(s.Assets)
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return err
	}

	// Per-tick amounts: each product rounded to float32 once, here.
	step := s.Config.Timing.FixedStep.Seconds()
	if r := s.Config.Timing.Rate; !r.IsZero() {
		step = float64(r.Den) / float64(r.Num)
	}
	g.shipStep = float32(settings.ShipSpeed * step)
	g.shotStep = float32(settings.ShotSpeed * step)
	g.reloadTicks = int32(settings.Reload.Seconds()/step + 0.5)
	g.roundTicks = int32(settings.Round.Seconds()/step + 0.5)

	w := s.App.World()
	g.ships = ecs.NewFilter2[ecs.Transform, Ship](w)
	g.shots = ecs.NewFilter2[ecs.Transform, Shot](w)
	g.texts = ecs.NewFilter2[ecs.Text, Label](w)
	g.shipShapes = ecs.NewFilter2[Ship, ecs.Shape](w)
	g.round = &Round{Left: g.roundTicks, Number: 1}
	ecs.AddResource(w, g.round)
	ecs.HashResource[Round](w)

	s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: g.spawn})
	s.App.AddSystem(ecs.Update, ecs.System{Name: "fly", Gameplay: true, Run: g.fly})
	s.App.AddSystem(ecs.Update, ecs.System{Name: "shots", Gameplay: true, Run: g.moveShots})
	s.App.AddSystem(ecs.Update, ecs.System{Name: "round", Gameplay: true, Run: g.tickRound})
	s.App.AddSystem(ecs.PostUpdate, ecs.System{Name: "hud", Run: g.updateHUD})
	if testDrift != nil {
		testDrift(s, g.round)
	}
	return nil
}

// testDrift, set only in a build with the duel_drift tag (drift.go),
// makes the simulation differ on purpose, for the test of a desync's
// ending; nil in every other build.
var testDrift func(s *framework.Setup, r *Round)

// spawn takes the players' input resource (the framework adds it after
// Setup) and spawns the ships and the HUD.
func (g *game) spawn(ctx *ecs.Sys) {
	g.players = ecs.GetResource[rollback.Players](ctx.World)
	if g.players == nil {
		ctx.Fail(errors.New("duel: no rollback.Players resource: the game must declare framework.Game.Net"))
		return
	}
	for p := range int32(2) {
		g.spawnShip(ctx, p)
	}
	g.spawnHUD(ctx)
}
