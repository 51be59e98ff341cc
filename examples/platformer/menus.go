package main

import (
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/ui"
)

// The menus are package ui's widgets: entities with a ui.Widget, laid out
// in the logical screen and driven by the arrows, Enter, Escape, a
// gamepad's d-pad and buttons or the mouse alike. A widget fires one of
// the game's actions, so the systems below read ctx.Input.Pressed(play)
// as they read a key, and a recording replays menu use like any input.
// Each screen builds its menu on entering and despawns it on leaving.

// menus holds the UI, the options screen and the actions the widgets
// fire. Actions bound to no key are fired only by widgets.
type menus struct {
	ui                  *ui.UI
	nav                 ui.Nav
	settings            *ui.Settings
	play, options, back input.Action
	changed, save       input.Action
}

// registerMenus registers the actions the menus' widgets fire.
func (g *game) registerMenus(actions *input.Actions) error {
	var err error
	reg := func(dst *input.Action, name string) {
		if err == nil {
			*dst, err = actions.Register(name)
		}
	}
	reg(&g.menus.play, "menu_play")
	reg(&g.menus.options, "menu_options")
	reg(&g.menus.back, "menu_back")
	reg(&g.menus.changed, "menu_changed")
	reg(&g.menus.save, "menu_save")
	return err
}

// prepareSettings makes the options screen: package ui builds it from
// the [game] table (a slider per speed, a toggle for the title) and the
// actions to rebind, and its Save writes playerFile with the checks of
// loading it. A replay runs the recorded menu use again, Save included,
// so it writes nothing: the recording is not the player's file.
func (g *game) prepareSettings(s *framework.Setup, playerFile string) error {
	if s.Runtime != nil && s.Runtime.Options().Record.Reader != nil {
		playerFile = ""
	}
	var err error
	g.menus.settings, err = ui.NewSettings(g.menus.ui, ui.SettingsOptions{
		Config:  s.Config,
		Rebind:  []input.Action{g.left, g.right, g.jump},
		Path:    playerFile,
		Changed: g.menus.changed,
		Save:    g.menus.save,
		Back:    g.menus.back,
	})
	return err
}

// buildTitle shows the title menu over the level.
func (g *game) buildTitle(ctx *ecs.Sys) {
	b := ui.NewBuilder(ctx.Commands)
	menu := b.Add(ecs.Entity{}, ui.VStack().At(0.5, 0.45))
	b.Add(menu, ui.Label("PLATFORMER"))
	b.Add(menu, ui.Button("Play", g.menus.play))
	b.Add(menu, ui.Button("Options", g.menus.options))
}

// buildOptions shows the options screen. Back (Escape, gamepad B) on the
// panel goes back too.
func (g *game) buildOptions(ctx *ecs.Sys) {
	b := ui.NewBuilder(ctx.Commands)
	menu := b.Add(ecs.Entity{}, ui.VStack().At(0.5, 0.5).OnBack(g.menus.back))
	b.Add(menu, ui.Label("OPTIONS"))
	g.menus.settings.Build(b, menu)
}

// clearMenu despawns every widget.
func (g *game) clearMenu(ctx *ecs.Sys) {
	q := g.widgets.Query()
	for q.Next() {
		ctx.Commands.Despawn(q.Entity())
	}
}

// titleMenu acts on the title's buttons.
func (g *game) titleMenu(ctx *ecs.Sys) {
	in := ctx.Input
	switch {
	case in == nil:
	case in.Pressed(g.menus.play):
		g.restart(ctx)
		g.screens.Set(Playing)
	case in.Pressed(g.menus.options):
		g.screens.Set(Options)
	}
}

// optionsMenu acts on the options screen: a changed setting takes effect
// at once (the settings are read back from the widgets, checked as --set
// checks them), Save writes the player's file, Back leaves. A rebind
// needs nothing here: package ui rebinds the action itself. A failed save
// does not stop the game; Settings.Saved keeps the error.
func (g *game) optionsMenu(ctx *ecs.Sys) {
	in := ctx.Input
	if in == nil {
		return
	}
	switch {
	case in.Pressed(g.menus.changed):
		cfg, err := g.menus.settings.Config()
		if err == nil {
			err = cfg.DecodeGame(g.settings)
		}
		if err != nil {
			ctx.Fail(err)
			return
		}
		g.tuning = tuneFor(g.settings, g.tuning.rate)
	case in.Pressed(g.menus.save):
		if g.menus.settings.Save() == nil {
			g.play(ctx, g.sounds.coin)
		}
	case in.Pressed(g.menus.back):
		g.screens.Set(Title)
	}
}
