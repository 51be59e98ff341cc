package main

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/ui"
)

// menuUI reads the menus of a session: widgets by caption, the focus.
type menuUI struct{ sim *frameworktest.Sim }

func ecsUI(sim *frameworktest.Sim) menuUI { return menuUI{sim} }

// Find returns the widget whose caption is text, or the zero Entity.
func (m menuUI) Find(text string) ecs.Entity {
	q := ecs.NewFilter1[ui.Widget](m.sim.App.World()).Query()
	defer q.Close()
	for q.Next() {
		if q.Get().Text == text {
			return q.Entity()
		}
	}
	return ecs.Entity{}
}

// State returns the UI's state resource (the focus).
func (m menuUI) State() *ui.State { return ecs.GetResource[ui.State](m.sim.App.World()) }

// ecsMenuState returns the options screen's state resource.
func ecsMenuState(sim *frameworktest.Sim) *MenuState {
	return ecs.GetResource[MenuState](sim.App.World())
}

// TestTitleMenu: the game opens on the title menu over the level, its
// first button focused; Enter (the UI's accept) on Play starts playing,
// and Escape in play goes back to the title.
func TestTitleMenu(t *testing.T) {
	sim := start(t, "game.title=true")
	step(t, sim, 3)
	if got := screen(sim); got != Title {
		t.Fatalf("screen %v, want the title", got)
	}
	u := ecsUI(sim)
	play := u.Find("Play")
	if play.IsZero() || u.State().Focus != play {
		t.Fatalf("the Play button %v, focus %v: want Play focused", play, u.State().Focus)
	}
	hold(sim, next(sim), input.KeyEnter, 2)
	stepUntil(t, sim, 5, "playing", func() bool { return screen(sim) == Playing })
	step(t, sim, 2)
	if !u.Find("Play").IsZero() {
		t.Error("the title menu is still there in play")
	}
	hold(sim, next(sim), input.KeyEscape, 2)
	stepUntil(t, sim, 5, "back at the title", func() bool { return screen(sim) == Title })
}

// TestRebindJumpInOptions rebinds jump in the options menu with the keys
// alone and uses it: Down and Enter open the options, Enter on the jump's
// button and then K bind jump to K, Escape goes back, Enter plays; then
// Space does not jump and K does.
func TestRebindJumpInOptions(t *testing.T) {
	sim := start(t, "game.title=true")
	step(t, sim, 3)
	press := func(b input.Button) {
		t.Helper()
		hold(sim, next(sim), b, 2)
		step(t, sim, 4)
	}
	press(input.KeyDown)
	press(input.KeyEnter)
	if got := screen(sim); got != Options {
		t.Fatalf("after Down and Enter: screen %v, want the options", got)
	}
	u := ecsUI(sim)
	button := u.Find("Jump: Space, W, Up, GamepadA")
	if button.IsZero() || u.State().Focus != button {
		t.Fatalf("the jump's button %v, focus %v: want it there and focused", button, u.State().Focus)
	}
	press(input.KeyEnter)
	if !ecsMenuState(sim).Capturing || u.Find("Jump: press a key").IsZero() {
		t.Fatal("Enter on the jump's button: not waiting for a key")
	}
	press(input.KeyK)
	if ecsMenuState(sim).Capturing || u.Find("Jump: K").IsZero() {
		t.Fatal("K pressed while waiting: the button does not say Jump: K")
	}
	press(input.KeyEscape)
	if got := screen(sim); got != Title {
		t.Fatalf("after Escape: screen %v, want the title", got)
	}
	press(input.KeyEnter)
	if got := screen(sim); got != Playing {
		t.Fatalf("after Enter on Play: screen %v, want playing", got)
	}
	step(t, sim, 10)
	hold(sim, next(sim), input.KeySpace, 20)
	step(t, sim, 3)
	if _, p := player(t, sim); p.Vel.Y < 0 || !p.Grounded {
		t.Fatalf("Space, no longer bound to jump, jumped: speed %v", p.Vel.Y)
	}
	hold(sim, next(sim)+5, input.KeyK, 20)
	step(t, sim, 7)
	if _, p := player(t, sim); p.Vel.Y >= 0 {
		t.Errorf("K, bound in the options menu, did not jump: speed %v", p.Vel.Y)
	}
}

// TestResetJumpInOptions: the options' reset button gives jump its
// registered keys back.
func TestResetJumpInOptions(t *testing.T) {
	sim := start(t, "game.title=true", "input.bindings.jump=K")
	step(t, sim, 3)
	press := func(b input.Button) {
		t.Helper()
		hold(sim, next(sim), b, 2)
		step(t, sim, 4)
	}
	press(input.KeyDown)
	press(input.KeyEnter)
	u := ecsUI(sim)
	if u.Find("Jump: K").IsZero() {
		t.Fatal("no button saying Jump: K")
	}
	press(input.KeyDown)
	press(input.KeyEnter)
	if u.Find("Jump: Space, W, Up, GamepadA").IsZero() {
		t.Error("after Reset jump: the button does not name the registered keys")
	}
}
