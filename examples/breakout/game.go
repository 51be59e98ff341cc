package main

import (
	"errors"
	"fmt"

	"golang.org/x/image/font/gofont/gobold"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/schedule"
)

// Screen is the game's state: which screen the player sees. Systems say in
// which screens they run (ecs.InState); entering a screen runs its OnEnter
// systems at the start of the next tick.
type Screen uint8

const (
	Title    Screen = iota // bricks on show, "press Space"
	Serve                  // the ball rests on the paddle until the serve delay is up
	Playing                // the ball is in play
	Paused                 // everything of play stands still, game time too
	GameOver               // no lives left
	Won                    // no bricks left
)

func (s Screen) String() string {
	return [...]string{"title", "serve", "playing", "paused", "game over", "won"}[s]
}

// Progress is the player's progress, a world resource. It is registered
// for the world hash, so a replay checks it along with the entities.
type Progress struct {
	Score, Lives int
	// Bricks is how many bricks are left standing.
	Bricks int
	// Resume is the screen a pause returns to.
	Resume Screen
	// Launch is the serve waiting on the game-time timers, Narrow the end
	// of the wide paddle on the gameplay queue (zero handles: none yet).
	Launch, Narrow schedule.Handle
}

// game holds what the systems share that is not game state: settings,
// input actions, asset handles and queries. Systems are closures over it.
type game struct {
	settings *Settings
	screens  *ecs.States[Screen]
	progress *Progress

	actions            *input.Actions
	move, start, pause input.Action
	banners            banners // made by the Startup system (hud.go)

	lib                 *assets.Library
	sheet               assets.Sheet
	regions             map[string]assets.Region // resolved in the Startup system
	hudFont, bannerFont assets.Font
	sounds              sounds

	paddles  *ecs.Filter4[ecs.Transform, Body, Paddle, ecs.Sprite]
	balls    *ecs.Filter3[ecs.Transform, Body, Ball]
	bricks   *ecs.Filter3[ecs.Transform, Body, Brick]
	capsules *ecs.Filter3[ecs.Transform, Body, Capsule]
	bodies   *ecs.Filter2[ecs.Transform, Body] // everything that collides, for the debug drawing
	texts    *ecs.Filter2[ecs.Text, Label]
	sprites  *ecs.Filter1[ecs.Sprite]
	// ballSprites are the sprites of entities with a Ball.
	ballSprites *ecs.Filter1[ecs.Sprite]

	// targets is the ball system's list of boxes to sweep against, kept
	// between ticks so a tick allocates nothing.
	targets []target
}

// setup builds the game: it runs once, before the first tick, with the
// settings already read from the configuration.
func setup(s *framework.Setup, settings *Settings) error {
	g := &game{settings: settings, lib: s.Assets, actions: s.Actions}
	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}

	// Input: one analog action steers. The stick gives its deflection,
	// either pair of keys -1 or +1; the binding of largest magnitude wins.
	// These are the game's keys, written once: a player's [input.bindings]
	// overrides them.
	var err error
	g.move, err = s.Actions.RegisterAxis("move",
		input.GamepadLeftX.Bind(),
		input.ButtonAxis(input.KeyA, input.KeyD),
		input.ButtonAxis(input.KeyLeft, input.KeyRight))
	keep(err)
	g.start, err = s.Actions.Register("start", input.KeySpace, input.GamepadA)
	keep(err)
	g.pause, err = s.Actions.Register("pause", input.KeyP, input.GamepadStart)
	keep(err)

	// Assets: a sprite sheet cut into named regions, two sizes of Go Bold
	// (its own package's TTF, so the game links that face alone), and
	// sounds made in code.
	g.sheet, err = s.Assets.LoadSheet(art, "assets/sheet.png", sheetSpec)
	keep(err)
	g.hudFont, err = s.Assets.ParseFont(assets.GoBold, gobold.TTF, 20)
	keep(err)
	g.bannerFont, err = s.Assets.ParseFont(assets.GoBold, gobold.TTF, 36)
	keep(err)
	g.sounds, err = makeSounds(s.Assets)
	keep(err)
	if err := errors.Join(errs...); err != nil {
		return err
	}

	// The world: queries, the progress resource and the screens.
	w := s.App.World()
	g.paddles = ecs.NewFilter4[ecs.Transform, Body, Paddle, ecs.Sprite](w)
	g.balls = ecs.NewFilter3[ecs.Transform, Body, Ball](w)
	g.bricks = ecs.NewFilter3[ecs.Transform, Body, Brick](w)
	g.capsules = ecs.NewFilter3[ecs.Transform, Body, Capsule](w)
	g.bodies = ecs.NewFilter2[ecs.Transform, Body](w)
	g.texts = ecs.NewFilter2[ecs.Text, Label](w)
	g.sprites = ecs.NewFilter1[ecs.Sprite](w)
	g.ballSprites = ecs.NewFilter1[ecs.Sprite](w).With(ecs.TypeOf[Ball]())
	g.progress = &Progress{Lives: settings.Lives}
	ecs.AddResource(w, g.progress)
	ecs.HashResource[Progress](w)

	// Paused stops every Gameplay system, game time, the timers and the
	// gameplay queue: the ball, the serve countdown, the wide paddle's end.
	g.screens = ecs.AddStates(s.App, Title).PauseIn(Paused)
	g.screens.OnEnter(Serve, ecs.System{Name: "serve", Run: g.enterServe})
	g.screens.OnEnter(Paused, ecs.System{Name: "dim", Run: func(*ecs.Sys) { g.tint(dimmed) }})
	g.screens.OnExit(Paused, ecs.System{Name: "undim", Run: func(*ecs.Sys) { g.tint(render2d.Color{}) }})
	g.screens.OnEnter(GameOver, ecs.System{Name: "game over", Run: g.endGame})
	g.screens.OnEnter(Won, ecs.System{Name: "won", Run: g.endGame})
	play := ecs.InState(g.screens, Serve, Playing)

	// Systems run in stage order, and in the order added within a stage.
	s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: g.spawn})
	s.App.AddSystem(ecs.PreUpdate, ecs.System{Name: "events", Gameplay: true, Run: g.events})
	s.App.AddSystem(ecs.PreUpdate, ecs.System{Name: "controls", Run: g.controls})
	s.App.AddSystem(ecs.Update, ecs.System{Name: "paddle", Gameplay: true, When: play, Run: g.movePaddle})
	s.App.AddSystem(ecs.Update, ecs.System{Name: "ball", Gameplay: true, When: ecs.InState(g.screens, Playing), Run: g.moveBall})
	s.App.AddSystem(ecs.Update, ecs.System{Name: "capsules", Gameplay: true, When: play, Run: g.moveCapsules})
	s.App.AddSystem(ecs.PostUpdate, ecs.System{Name: "hud", Cosmetic: true, Run: g.updateHUD})
	if settings.Debug {
		s.App.AddSystem(ecs.PostUpdate, ecs.System{Name: "debug", Run: g.drawDebug})
	}
	return nil
}

// spawn resolves the sheet's regions (the sheet is on the GPU once Setup
// has returned) and spawns the paddle, the ball, the HUD and the bricks.
func (g *game) spawn(ctx *ecs.Sys) {
	g.regions = map[string]assets.Region{}
	for name := range sheetSpec.Regions {
		r, err := g.lib.NamedRegion(g.sheet, name)
		if err != nil {
			ctx.Fail(fmt.Errorf("breakout: sheet region %s: %w", name, err))
			return
		}
		g.regions[name] = r
	}
	g.spawnPaddle(ctx)
	g.spawnBall(ctx)
	g.spawnHUD(ctx)
	g.progress.Bricks = g.spawnLevel(ctx)
}

// sprite returns a sprite of the named sheet region on layer.
func (g *game) sprite(region string, layer int16) ecs.Sprite {
	s := ecs.SpriteOf(g.regions[region])
	s.Layer = layer
	return s
}

// controls reads the buttons that change screens. It is not a Gameplay
// system, so it runs while paused too: that is how P resumes.
func (g *game) controls(ctx *ecs.Sys) {
	in := ctx.Input
	if in == nil {
		return
	}
	switch cur := g.screens.Current(); cur {
	case Title, GameOver, Won:
		if in.Pressed(g.start) || (cur == Title && g.settings.Demo) {
			g.newGame(ctx)
			g.screens.Set(Serve)
		}
	case Serve, Playing:
		if in.Pressed(g.pause) {
			g.progress.Resume = cur
			g.screens.Set(Paused)
		}
	case Paused:
		if in.Pressed(g.pause) {
			g.screens.Set(g.progress.Resume)
		}
	}
}

// newGame resets the score, the lives, the paddle and the wall.
func (g *game) newGame(ctx *ecs.Sys) {
	p := g.progress
	ctx.Queue.Cancel(p.Narrow)
	ctx.Timers.Cancel(p.Launch)
	*p = Progress{Lives: g.settings.Lives}
	g.setPaddleWidth(paddleW)
	g.clearLevel(ctx)
	p.Bricks = g.spawnLevel(ctx)
}

// enterServe puts the ball on the paddle and schedules its launch after
// the serve delay of game time, on the timers (ctx.AfterTime): a pause
// holds the countdown, and a replay launches on the same tick. Coming back
// from a pause the launch is still pending, and stays as it is. (The
// power-up uses the other kind of delay, ticks on the gameplay queue.)
func (g *game) enterServe(ctx *ecs.Sys) {
	if ctx.Timers.Pending(g.progress.Launch) {
		return
	}
	g.restBall(true)
	h, err := ctx.AfterTime(g.settings.ServeDelay, ecs.Event{Kind: eventLaunch})
	if err != nil {
		ctx.Fail(err)
		return
	}
	g.progress.Launch = h
}

// The kinds of Breakout's events. An event says what is due, and the
// events system acts on it: a plain value like this is part of the state a
// snapshot sends to another process (a peer rejoining, a spectator), where
// an event carrying a Run function could not go.
const (
	eventLaunch = iota + 1 // the serve delay is up (the timers)
	eventNarrow            // the wide paddle's time is up (the gameplay queue)
)

// events acts on the events delivered at the start of this tick, timers
// first, then the gameplay queue, in the order they fell due. It is the
// first system of the tick, so an event's effect comes before anything
// else the tick does.
func (g *game) events(ctx *ecs.Sys) {
	for _, ds := range [...][]ecs.EventDelivery{ctx.TimerEvents(), ctx.Events()} {
		for _, d := range ds {
			switch d.Payload.Kind {
			case eventLaunch:
				g.launch(ctx)
			case eventNarrow:
				g.setPaddleWidth(paddleW)
			}
		}
	}
}

// lostBall takes a life, and ends the game with the last one.
func (g *game) lostBall(ctx *ecs.Sys) {
	g.progress.Lives--
	g.play(ctx, g.sounds.lost)
	q := g.capsules.Query()
	for q.Next() {
		ctx.Commands.Despawn(q.Entity())
	}
	if g.progress.Lives <= 0 {
		g.screens.Set(GameOver)
		return
	}
	g.screens.Set(Serve)
}

// dimmed is the tint of every sprite while paused.
var dimmed = render2d.Color{R: 0.35, G: 0.35, B: 0.4, A: 1}

// tint tints every sprite (the zero colour draws them as they are).
func (g *game) tint(c render2d.Color) {
	q := g.sprites.Query()
	for q.Next() {
		q.Get().Tint = c
	}
}

// endGame hides the ball when the game is over or won, and cancels a
// serve still pending.
func (g *game) endGame(ctx *ecs.Sys) {
	ctx.Timers.Cancel(g.progress.Launch)
	g.showBall(false)
	if g.screens.Current() == Won {
		g.play(ctx, g.sounds.powerUp)
	}
}
