package main

import (
	"errors"

	"golang.org/x/image/font/gofont/gobold"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/tilemap"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/ui"
)

// Screen is the game's state: which screen the player sees.
type Screen uint8

const (
	Title   Screen = iota // the title menu over the level
	Options               // the options menu: settings and keys, saved to the player's file
	Playing               // running through the level
	Cleared               // the exit reached: the score, and "press jump"
)

func (s Screen) String() string { return [...]string{"title", "options", "playing", "cleared"}[s] }

// Progress is the player's progress through the level, a world resource
// in the world hash, so a replay and a sync-test check it too.
type Progress struct {
	// Coins is how many coins the player holds, of Total in the level.
	Coins, Total int
	// Falls counts the times the player fell out of the level.
	Falls int
	// Ticks is how long this run has taken, in ticks.
	Ticks int
}

// game holds what the systems share that is not game state: settings in
// per-tick units, input actions, the map, asset handles and queries.
// Systems are closures over it.
type game struct {
	settings *Settings
	tuning   tuning
	screens  *ecs.States[Screen]
	progress *Progress
	menus    menus

	actions                 *input.Actions
	move, left, right, jump input.Action

	lib     *assets.Library
	level   *level
	hudFont assets.Font
	bigFont assets.Font
	sounds  sounds
	banner  string // the Cleared screen's text, written on entering it

	players *ecs.Filter3[ecs.Transform, Player, ecs.Sprite]
	objects *ecs.Filter2[ecs.Transform, tilemap.Object]
	chunks  *ecs.Filter1[ecs.TileChunk]
	dust    *ecs.Filter2[ecs.Transform, ecs.CosmeticEmitter]
	sparkle *ecs.Filter2[ecs.Transform, ecs.Emitter]
	cameras *ecs.Filter2[ecs.Transform, LevelCamera]
	texts   *ecs.Filter2[ecs.Text, Label]
	widgets *ecs.Filter1[ui.Widget]
	coins   *ecs.Filter2[ecs.Sprite, tilemap.Object]

	coinSpin spin // the coin tile's animation, resolved at Startup
}

// setup builds the game: it runs once, before the first tick, with the
// settings already read from the configuration.
func setup(s *framework.Setup, settings *Settings, playerFile string) error {
	g := &game{settings: settings, lib: s.Assets, actions: s.Actions}
	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}

	// Settings in seconds become amounts per tick: the simulation adds
	// them and multiplies nothing, so it is exact on every machine.
	rate, err := ecs.TickRateOf(s.Config.Timing)
	if err != nil {
		return err
	}
	g.tuning = tuneFor(settings, rate)

	// Input: the stick's axis or two buttons run, one button jumps. Left
	// and right are buttons of their own, not halves of an axis, so the
	// options menu can rebind each. A player's [input.bindings] overrides
	// these keys.
	g.move, err = s.Actions.RegisterAxis("move", input.GamepadLeftX.Bind())
	keep(err)
	g.left, err = s.Actions.Register("left", input.KeyA, input.KeyLeft)
	keep(err)
	g.right, err = s.Actions.Register("right", input.KeyD, input.KeyRight)
	keep(err)
	g.jump, err = s.Actions.Register("jump", input.KeySpace, input.KeyW, input.KeyUp, input.GamepadA)
	keep(err)
	// The menus: the UI's own actions (arrows, Enter, Escape, the d-pad,
	// the mouse) and the actions its buttons fire.
	g.menus.nav, err = ui.RegisterNav(s.Actions)
	keep(err)
	keep(g.registerMenus(s.Actions))

	// Assets: the Tiled map with its tileset (one call), two sizes of the
	// Go font, and sounds made in code.
	g.level, err = loadLevel(s.Assets, "assets/level1.tmx")
	keep(err)
	g.hudFont, err = s.Assets.ParseFont(assets.GoBold, gobold.TTF, 12)
	keep(err)
	g.bigFont, err = s.Assets.ParseFont(assets.GoBold, gobold.TTF, 20)
	keep(err)
	g.sounds, err = makeSounds(s.Assets)
	keep(err)
	if err := errors.Join(errs...); err != nil {
		return err
	}

	w := s.App.World()
	g.players = ecs.NewFilter3[ecs.Transform, Player, ecs.Sprite](w)
	g.objects = ecs.NewFilter2[ecs.Transform, tilemap.Object](w)
	g.chunks = ecs.NewFilter1[ecs.TileChunk](w)
	g.dust = ecs.NewFilter2[ecs.Transform, ecs.CosmeticEmitter](w)
	g.sparkle = ecs.NewFilter2[ecs.Transform, ecs.Emitter](w)
	g.cameras = ecs.NewFilter2[ecs.Transform, LevelCamera](w)
	g.texts = ecs.NewFilter2[ecs.Text, Label](w)
	g.widgets = ecs.NewFilter1[ui.Widget](w)
	g.coins = ecs.NewFilter2[ecs.Sprite, tilemap.Object](w)
	g.progress = &Progress{Total: g.level.coins}
	ecs.AddResource(w, g.progress)
	ecs.HashResource[Progress](w)

	first := Title
	if !settings.Title {
		first = Playing
	}
	g.screens = ecs.AddStates(s.App, first)
	g.screens.OnEnter(Cleared, ecs.System{Name: "cleared", Run: g.enterCleared})
	g.screens.OnEnter(Title, ecs.System{Name: "title menu", Run: g.buildTitle})
	g.screens.OnExit(Title, ecs.System{Name: "close title", Run: g.clearMenu})
	g.screens.OnEnter(Options, ecs.System{Name: "options menu", Run: g.buildOptions})
	g.screens.OnExit(Options, ecs.System{Name: "close options", Run: g.clearMenu})
	play := ecs.InState(g.screens, Playing)

	// The UI's system runs in PreUpdate before the game's, so the menus'
	// systems see a button's action on the tick it was pressed.
	g.menus.ui, err = ui.Add(s.App, ui.Options{Actions: s.Actions, Nav: g.menus.nav, Library: s.Assets, Font: g.hudFont})
	if err != nil {
		return err
	}
	if err := g.prepareSettings(s, playerFile); err != nil {
		return err
	}

	// The map's chunks draw through AddTileMaps, particles through
	// AddParticles: both once, at set-up.
	ecs.AddTileMaps(s.App)
	ecs.AddParticles(s.App)

	s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: g.spawn})
	s.App.AddSystem(ecs.PreUpdate, ecs.System{Name: "controls", Run: g.controls})
	s.App.AddSystem(ecs.Update, ecs.System{Name: "title", When: ecs.InState(g.screens, Title), Run: g.titleMenu})
	s.App.AddSystem(ecs.Update, ecs.System{Name: "options", When: ecs.InState(g.screens, Options), Run: g.optionsMenu})
	s.App.AddSystem(ecs.Update, ecs.System{Name: "player", Gameplay: true, When: play, Run: g.movePlayer})
	s.App.AddSystem(ecs.Update, ecs.System{Name: "pickups", Gameplay: true, When: play, Run: g.pickups})
	s.App.AddSystem(ecs.PostUpdate, ecs.System{Name: "camera", Run: g.followPlayer})
	s.App.AddSystem(ecs.PostUpdate, ecs.System{Name: "hud", Cosmetic: true, Run: g.updateHUD})
	s.App.AddSystem(ecs.PostUpdate, ecs.System{Name: "spin coins", Cosmetic: true, Run: g.spinCoins})
	return nil
}

// spawn makes the level's entities (the map's images are on the GPU once
// Setup has returned), the player, the effects, the cameras and the HUD.
func (g *game) spawn(ctx *ecs.Sys) {
	if err := g.spawnLevel(ctx); err != nil {
		ctx.Fail(err)
		return
	}
	var err error
	if g.coinSpin, err = spinOf(g.level.tm, tileCoin); err != nil {
		ctx.Fail(err)
		return
	}
	if err := g.spawnPlayer(ctx); err != nil {
		ctx.Fail(err)
		return
	}
	if err := g.spawnEffects(ctx); err != nil {
		ctx.Fail(err)
		return
	}
	g.spawnCameras(ctx)
	g.spawnHUD(ctx)
}

// controls restarts the level from the Cleared screen with a jump press,
// and goes back to the title from play with the UI's back action
// (Escape, gamepad B). It is not a Gameplay system: it runs in every
// screen.
func (g *game) controls(ctx *ecs.Sys) {
	in := ctx.Input
	if in == nil {
		return
	}
	switch g.screens.Current() {
	case Cleared:
		if in.Pressed(g.jump) {
			g.restart(ctx)
			g.screens.Set(Playing)
		}
	case Playing:
		if in.Pressed(g.menus.nav.Back) {
			g.screens.Set(Title)
		}
	}
}

// restart queues a fresh copy of the level and puts the player at the
// start with no coins.
func (g *game) restart(ctx *ecs.Sys) {
	g.clearLevel(ctx)
	if err := g.spawnLevel(ctx); err != nil {
		ctx.Fail(err)
		return
	}
	*g.progress = Progress{Total: g.level.coins}
	g.respawn()
}

// enterCleared writes the Cleared banner once, and plays the fanfare.
func (g *game) enterCleared(ctx *ecs.Sys) {
	p := g.progress
	g.banner = "LEVEL CLEAR!\n" + itoa(p.Coins) + " of " + itoa(p.Total) + " coins in " +
		seconds(p.Ticks, g.tuning.rate) + "\npress " + g.keyName(g.jump, "jump") + " to play again"
	g.play(ctx, g.sounds.exit)
}

// keyName is the first key bound to act, as a player's configuration
// left it, so a banner never names a key the game does not listen to.
func (g *game) keyName(act input.Action, none string) string {
	if names := g.actions.BindingNames(act, false); len(names) > 0 {
		return names[0]
	}
	return none
}
