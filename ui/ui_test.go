package ui_test

import (
	"github.com/metronome-go/metronome/ecs"
	"slices"
	"testing"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/ui"
)

// TestGamepadDrivesTheMenu moves through the menu with the d-pad and the
// stick, changes the slider and the choice, flips the toggle and presses
// buttons, and checks that the game saw each widget's action as if a key
// bound to it had been tapped.
func TestGamepadDrivesTheMenu(t *testing.T) {
	g := newGame(t)
	g.wantFocus(t, "Start")
	g.tap(t, input.GamepadA)
	if got := g.fired[g.start]; got != 1 {
		t.Fatalf("start fired %d times, want 1", got)
	}
	g.tap(t, input.GamepadDpadDown)
	g.wantFocus(t, "Music")
	g.tap(t, input.GamepadA)
	if _, w := g.widget(t, "Music"); !w.On || g.fired[g.music] != 1 {
		t.Fatalf("music on %v fired %d, want on, fired once", w.On, g.fired[g.music])
	}
	// The stick moves the focus when it leaves its dead zone, once.
	g.step(t, input.Record{Kind: input.RecordAxis, Axis: input.GamepadLeftY, X: 0.9})
	g.wantFocus(t, "Volume")
	g.step(t)
	g.wantFocus(t, "Volume")
	g.step(t, input.Record{Kind: input.RecordAxis, Axis: input.GamepadLeftY, X: 0})
	// Left and right step a slider instead of moving.
	g.tap(t, input.GamepadDpadRight)
	g.tap(t, input.GamepadDpadRight)
	g.wantFocus(t, "Volume")
	if _, w := g.widget(t, "Volume"); w.Value != 7 || g.fired[g.volume] != 2 {
		t.Fatalf("volume %d fired %d, want 7 fired twice", w.Value, g.fired[g.volume])
	}
	g.step(t, input.Record{Kind: input.RecordAxis, Axis: input.GamepadLeftX, X: -1})
	if _, w := g.widget(t, "Volume"); w.Value != 6 {
		t.Fatalf("volume %d after the stick left, want 6", w.Value)
	}
	g.step(t, input.Record{Kind: input.RecordAxis, Axis: input.GamepadLeftX, X: 0})
	g.tap(t, input.GamepadDpadDown)
	g.wantFocus(t, "Mode")
	g.tap(t, input.GamepadDpadRight)
	g.tap(t, input.GamepadDpadRight) // wraps around
	if _, w := g.widget(t, "Mode"); w.Value != 0 || g.fired[g.mode] != 2 {
		t.Fatalf("mode %d fired %d, want 0 (wrapped) fired twice", w.Value, g.fired[g.mode])
	}
	g.tap(t, input.GamepadDpadDown)
	g.tap(t, input.GamepadDpadDown)
	g.wantFocus(t, "Back")
	g.tap(t, input.GamepadDpadRight)
	g.wantFocus(t, "Quit")
	g.tap(t, input.GamepadDpadRight) // nothing further right
	g.wantFocus(t, "Quit")
	g.tap(t, input.GamepadDpadUp)
	g.wantFocus(t, "Name")
	g.tap(t, input.GamepadDpadDown)
	g.tap(t, input.GamepadDpadRight)
	g.tap(t, input.GamepadA)
	if g.fired[g.quit] != 1 {
		t.Fatalf("quit fired %d times, want 1", g.fired[g.quit])
	}
	// Back fires the root panel's action from anywhere inside it.
	g.tap(t, input.GamepadB)
	if g.fired[g.back] != 1 {
		t.Fatalf("back fired %d times, want 1", g.fired[g.back])
	}
}

// TestKeyboardAndPointer drives the same menu with arrows, Enter and the
// mouse: hovering focuses, a click activates, a press and drag on the
// slider sets its value from the pointer.
func TestKeyboardAndPointer(t *testing.T) {
	g := newGame(t)
	g.tap(t, input.KeyDown)
	g.tap(t, input.KeyDown)
	g.wantFocus(t, "Volume")
	g.tap(t, input.KeyLeft)
	if _, w := g.widget(t, "Volume"); w.Value != 4 {
		t.Fatalf("volume %d, want 4", w.Value)
	}
	_, music := g.widget(t, "Music")
	r := music.Rect
	if r.W <= 0 || r.H <= 0 {
		t.Fatalf("music laid out at %+v", r)
	}
	g.step(t, cursorAt(r.X+5, r.Y+5))
	g.wantFocus(t, "Music")
	g.step(t, input.Record{Kind: input.RecordPress, Button: input.MouseLeft}, input.Record{Kind: input.RecordRelease, Button: input.MouseLeft})
	if _, w := g.widget(t, "Music"); !w.On {
		t.Fatal("a click did not flip the toggle")
	}
	_, vol := g.widget(t, "Volume")
	v := vol.Rect
	// Press at the right end of the value half, then drag to its middle.
	g.step(t, cursorAt(v.X+v.W-1, v.Y+5), input.Record{Kind: input.RecordPress, Button: input.MouseLeft})
	if _, w := g.widget(t, "Volume"); w.Value != 10 {
		t.Fatalf("volume %d after a press at the end, want 10", w.Value)
	}
	g.step(t, cursorAt(v.X+v.W*3/4, v.Y+5))
	if _, w := g.widget(t, "Volume"); w.Value != 5 {
		t.Fatalf("volume %d dragged to the middle, want 5", w.Value)
	}
	g.step(t, input.Record{Kind: input.RecordRelease, Button: input.MouseLeft})
	g.step(t, cursorAt(v.X+v.W/2+1, v.Y+5))
	if _, w := g.widget(t, "Volume"); w.Value != 5 {
		t.Fatalf("volume %d moved by a pointer not held, want 5", w.Value)
	}
	g.tap(t, input.KeyEnter) // activating a slider does nothing
	g.tap(t, input.KeyEscape)
	if g.fired[g.back] != 1 || g.fired[g.volume] != 3 {
		t.Fatalf("back fired %d, volume %d; want 1, 3", g.fired[g.back], g.fired[g.volume])
	}
}

// TestTextField types into a text field: activating starts editing, typed
// text goes in (not to navigation), Backspace deletes, Enter finishes and
// fires the field's action; the limit holds.
func TestTextField(t *testing.T) {
	g := newGame(t)
	for range 4 {
		g.tap(t, input.KeyDown)
	}
	g.wantFocus(t, "Name")
	// Space activates and types a space in the same tick: only the
	// activation counts.
	g.step(t, input.Record{Kind: input.RecordPress, Button: input.KeySpace}, input.Record{Kind: input.RecordText, Rune: ' '}, input.Record{Kind: input.RecordRelease, Button: input.KeySpace})
	if !g.ui.State().Editing {
		t.Fatal("not editing after accept")
	}
	text := func(s string) []input.Record {
		var rs []input.Record
		for _, r := range s {
			rs = append(rs, input.Record{Kind: input.RecordText, Rune: r})
		}
		return rs
	}
	g.step(t, text("Ann é")...)
	g.tap(t, input.KeyDown) // a key that navigates does nothing while editing
	g.wantFocus(t, "Name")
	g.tap(t, input.KeyBackspace)
	g.step(t, text("e long name")...)
	if _, w := g.widget(t, "Name"); w.Input != "Ann e lo" {
		t.Fatalf("input %q, want %q (8 runes at most)", w.Input, "Ann e lo")
	}
	if g.fired[g.name] != 0 {
		t.Fatal("name fired before editing finished")
	}
	g.tap(t, input.KeyEnter)
	if g.ui.State().Editing || g.fired[g.name] != 1 {
		t.Fatalf("editing %v, name fired %d; want done, once", g.ui.State().Editing, g.fired[g.name])
	}
	g.tap(t, input.KeyDown)
	g.wantFocus(t, "Back")
}

// TestFocusSkipsHiddenAndDisabled hides and disables widgets between
// ticks: the focus leaves a widget that disappears and navigation passes
// over disabled ones.
func TestFocusSkipsHiddenAndDisabled(t *testing.T) {
	g := newGame(t)
	_, music := g.widget(t, "Music")
	music.Disabled = true
	g.step(t)
	g.tap(t, input.KeyDown)
	g.wantFocus(t, "Volume")
	_, vol := g.widget(t, "Volume")
	vol.Hidden = true
	g.step(t)
	g.wantFocus(t, "Start")
	if _, w := g.widget(t, "Volume"); w.Shown() {
		t.Fatal("hidden slider still shown")
	}
	g.tap(t, input.KeyDown)
	g.wantFocus(t, "Mode")
}

func TestAddRejectsMissingNav(t *testing.T) {
	g := newGame(t)
	_, err := ui.Add(g.app, ui.Options{Theme: ui.Theme{ItemWidth: -1}})
	if err == nil {
		t.Fatal("Add accepted a zero Nav and a bad theme")
	}
	for _, want := range []string{"ui.RegisterNav", "ItemWidth = -1", "ItemHeight = 0"} {
		if !contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// TestRebindAKeyAndUseIt rebinds jump from the menu: the next key pressed
// replaces the keyboard binding and keeps the gamepad's, the game then
// jumps on the new key and not on the old one; Escape cancels a rebind.
func TestRebindAKeyAndUseIt(t *testing.T) {
	g := newGame(t)
	for range 6 {
		g.tap(t, input.KeyDown)
	}
	g.wantFocus(t, "Jump")
	g.tap(t, input.KeyEnter)
	if !g.ui.State().Editing {
		t.Fatal("the binding is not waiting for a button")
	}
	g.tap(t, input.KeyDown) // a navigation key is a binding like any other
	if got, want := g.actions.BindingNames(g.jump, false), []string{"GamepadY", "Down"}; !slices.Equal(got, want) {
		t.Fatalf("jump bound to %q, want %q", got, want)
	}
	g.wantFocus(t, "Jump")
	g.tap(t, input.KeyEnter)
	g.tap(t, input.KeyEscape)
	if g.ui.State().Editing || len(g.actions.BindingNames(g.jump, false)) != 2 {
		t.Fatalf("after Escape: editing %v, jump bound to %q", g.ui.State().Editing, g.actions.BindingNames(g.jump, false))
	}
	g.tap(t, input.KeyEnter)
	g.tap(t, input.KeyW)
	jumps := g.fired[g.jump]
	g.tap(t, input.KeySpace)
	if g.fired[g.jump] != jumps {
		t.Fatal("the old key still jumps")
	}
	g.tap(t, input.KeyW)
	g.tap(t, input.GamepadY)
	if got := g.fired[g.jump] - jumps; got != 2 {
		t.Fatalf("jumped %d times on W and GamepadY, want 2", got)
	}
	if !g.actions.Overridden(g.jump) {
		t.Fatal("jump not reported overridden")
	}
}

// TestHeldDirectionRepeats holds right on the slider: one step on the
// press, then one after RepeatDelay and one every RepeatEvery, counted in
// ticks of 16 ms; letting go stops it.
func TestHeldDirectionRepeats(t *testing.T) {
	g := newGame(t)
	g.tap(t, input.KeyDown)
	g.tap(t, input.KeyDown)
	g.wantFocus(t, "Volume")
	g.step(t, input.Record{Kind: input.RecordPress, Button: input.GamepadDpadRight})
	value := func() int32 { _, w := g.widget(t, "Volume"); return w.Value }
	if got := value(); got != 6 {
		t.Fatalf("volume %d on the press, want 6", got)
	}
	for range 24 { // 384 ms held
		g.step(t)
	}
	if got := value(); got != 6 {
		t.Fatalf("volume %d before the delay, want 6", got)
	}
	g.step(t) // 400 ms
	if got := value(); got != 7 {
		t.Fatalf("volume %d at the delay, want 7", got)
	}
	for range 7 { // 412 ms again: every 100 ms after the first
		g.step(t)
	}
	if got := value(); got != 8 {
		t.Fatalf("volume %d a repeat later, want 8", got)
	}
	g.step(t, input.Record{Kind: input.RecordRelease, Button: input.GamepadDpadRight})
	for range 40 {
		g.step(t)
	}
	if got := value(); got != 8 {
		t.Fatalf("volume %d after letting go, want 8", got)
	}
}

// TestPointerStepsAChoice clicks either half of a choice's value: the left
// goes back, the right on.
func TestPointerStepsAChoice(t *testing.T) {
	g := newGame(t)
	_, mode := g.widget(t, "Mode")
	v := mode.Rect
	click := func(x float32) {
		g.step(t, cursorAt(x, v.Y+5), input.Record{Kind: input.RecordPress, Button: input.MouseLeft}, input.Record{Kind: input.RecordRelease, Button: input.MouseLeft})
	}
	click(v.X + v.W*0.6)
	if _, w := g.widget(t, "Mode"); w.Value != 0 {
		t.Fatalf("mode %d after a click on the left of the value, want 0 (back from 1)", w.Value)
	}
	click(v.X + v.W*0.95)
	click(v.X + v.W*0.95)
	if _, w := g.widget(t, "Mode"); w.Value != 2 || g.fired[g.mode] != 3 {
		t.Fatalf("mode %d fired %d, want 2 and 3", w.Value, g.fired[g.mode])
	}
	g.wantFocus(t, "Mode")
}

// TestSwitchMenus keeps a title and an options menu, hides one and shows
// the other: the focus moves into the menu shown, whose back action
// fires from there.
func TestSwitchMenus(t *testing.T) {
	g := newGameWith(t, nil, func(g *game, b *ui.Builder) {
		title := b.Add(ecs.Entity{}, ui.VStack().Named("title").At(0.5, 0.5))
		b.Add(title, ui.Button("Play", g.start))
		b.Add(title, ui.Button("Options", g.music))
		opts := b.Add(ecs.Entity{}, ui.VStack().Named("options").At(0.5, 0.5).OnBack(g.back))
		b.Add(opts, ui.Slider("Volume", 5, 0, 10, 1, g.volume))
		b.Add(opts, ui.Button("Done", g.back))
	})
	show := func(name string, shown bool) {
		w := g.ui.Widget(g.ui.Find(name))
		if w == nil {
			t.Fatalf("no panel %q", name)
		}
		w.Hidden = !shown
	}
	show("options", false)
	g.step(t)
	g.wantFocus(t, "Play")
	g.tap(t, input.KeyDown)
	g.wantFocus(t, "Options")
	show("title", false)
	show("options", true)
	g.step(t)
	g.wantFocus(t, "Volume")
	g.tap(t, input.KeyEscape)
	if g.fired[g.back] != 1 {
		t.Fatalf("back fired %d times, want 1", g.fired[g.back])
	}
}
