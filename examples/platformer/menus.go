package main

import (
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/ui"
)

// The menus are package ui's widgets: entities with a ui.Widget, laid out
// in the logical screen and driven by the arrows, Enter, Escape, a
// gamepad's d-pad and buttons or the mouse alike. A widget fires one of
// the game's actions, so the systems below read ctx.Input.Pressed(play)
// as they read a key, and a recording replays menu use like any input.
// Each screen builds its menu on entering and despawns it on leaving.

// menus holds the UI and the actions its widgets fire. Actions bound to
// no key are fired only by widgets.
type menus struct {
	ui                   *ui.UI
	nav                  ui.Nav
	play, options, back  input.Action
	rebindJump, resetJmp input.Action
}

// MenuState is the options screen's state: game state in the world hash,
// so a replay captures the same key at the same tick.
type MenuState struct {
	// Capturing says the next key or gamepad button pressed becomes the
	// jump's binding.
	Capturing bool
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
	reg(&g.menus.rebindJump, "menu_rebind_jump")
	reg(&g.menus.resetJmp, "menu_reset_jump")
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

// buildOptions shows the options menu: rebind jump, reset it, go back.
// Back (Escape, gamepad B) on the panel goes back too.
func (g *game) buildOptions(ctx *ecs.Sys) {
	b := ui.NewBuilder(ctx.Commands)
	menu := b.Add(ecs.Entity{}, ui.VStack().At(0.5, 0.45).OnBack(g.menus.back))
	b.Add(menu, ui.Label("OPTIONS"))
	b.Add(menu, ui.Button(g.jumpCaption(false), g.menus.rebindJump))
	b.Add(menu, ui.Button("Reset jump", g.menus.resetJmp))
	b.Add(menu, ui.Button("Back", g.menus.back))
}

// clearMenu despawns every widget.
func (g *game) clearMenu(ctx *ecs.Sys) {
	q := g.widgets.Query()
	for q.Next() {
		ctx.Commands.Despawn(q.Entity())
	}
}

// jumpCaption is the rebind button's caption: the keys jump is bound to
// now, or the prompt while capturing.
func (g *game) jumpCaption(capturing bool) string {
	if capturing {
		return "Jump: press a key"
	}
	names := g.actions.BindingNames(g.jump, false)
	text := "Jump:"
	for i, n := range names {
		if i > 0 {
			text += ","
		}
		text += " " + n
	}
	return text
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

// optionsMenu acts on the options' buttons, and while capturing takes
// the first key or gamepad button pressed (Escape cancels) as jump's only
// binding. The press that chose the button is in the tick that starts the
// capture, so capturing starts from the next tick. The button's caption
// is written only when something changed: a menu tick allocates nothing
// either.
func (g *game) optionsMenu(ctx *ecs.Sys) {
	in := ctx.Input
	if in == nil {
		return
	}
	st := g.menuState
	switch {
	case st.Capturing:
		for _, r := range in.Records() {
			if r.Kind != input.RecordPress || r.Button.Device() == input.Mouse || r.Button.Device() == input.NoDevice {
				continue
			}
			if r.Button != input.KeyEscape {
				if err := g.actions.Rebind(g.jump, r.Button); err != nil {
					ctx.Fail(err)
					return
				}
				g.play(ctx, g.sounds.coin)
			}
			st.Capturing = false
			g.captionJump()
			break
		}
	case in.Pressed(g.menus.back):
		g.screens.Set(Title)
	case in.Pressed(g.menus.rebindJump):
		st.Capturing = true
		g.captionJump()
	case in.Pressed(g.menus.resetJmp):
		if err := g.actions.Reset(g.jump); err != nil {
			ctx.Fail(err)
			return
		}
		g.captionJump()
	}
}

// captionJump rewrites the rebind button's caption.
func (g *game) captionJump() {
	text := g.jumpCaption(g.menuState.Capturing)
	q := g.widgets.Query()
	for q.Next() {
		if w := q.Get(); w.Action == g.menus.rebindJump {
			w.Text = text
		}
	}
}
