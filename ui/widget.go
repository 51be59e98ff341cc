package ui

import (
	"math"
	"strconv"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
)

// Kind says what a [Widget] is.
type Kind uint8

const (
	// KindPanel holds other widgets in a stack and draws a background.
	KindPanel Kind = iota
	// KindLabel shows its Text.
	KindLabel
	// KindButton fires its Action when activated.
	KindButton
	// KindToggle flips On when activated and fires its Action.
	KindToggle
	// KindSlider holds Value in [Min, Max], moved by Step with left and
	// right or set by the pointer, and fires its Action on every change.
	KindSlider
	// KindChoice shows one of Items, Value its index, stepped with left
	// and right or by activating it, and fires its Action on every change.
	KindChoice
	// KindTextField holds Input, typed while it is being edited
	// (activate it to start, Enter or activate again to finish), and fires
	// its Action when editing finishes.
	KindTextField
	// KindBinding shows the buttons bound to its Action and rebinds it:
	// activated, it waits for the next button pressed (Escape cancels)
	// and binds the action to it in place of the bindings of that
	// button's device, keeping the others (a new key keeps the gamepad
	// button). It fires nothing.
	KindBinding
	kindCount
)

var kindNames = [...]string{"panel", "label", "button", "toggle", "slider", "choice", "text field", "binding"}

func (k Kind) String() string {
	if k < kindCount {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Focusable reports whether widgets of this kind take the focus.
func (k Kind) Focusable() bool { return k >= KindButton && k < kindCount }

// Stack is the direction a panel lays its children out in.
type Stack uint8

const (
	// Vertical stacks children top to bottom, each as wide as the widest.
	Vertical Stack = iota
	// Horizontal stacks them left to right, each as tall as the tallest.
	Horizontal
)

// Widget is the component of every UI element: a panel, label, button,
// toggle, slider, choice or text field ([Kind]), with its place in the
// tree and its state. It is plain game state: the world hash covers it and
// snapshots carry it, so a replay, a rollback and a sync-test see the
// same menus, values and focus. Build widgets with the constructors
// ([Button], [VStack]...) and spawn them with a [Builder]; change their
// fields from systems like any component.
type Widget struct {
	Kind Kind
	// Parent is the panel that holds the widget; the zero Entity makes it
	// a root, placed on the screen by Anchor and Offset. A widget whose
	// parent is gone, hidden or not a panel is not shown.
	Parent ecs.Entity
	// Order sorts siblings (lower first); a [Builder] numbers them in the
	// order they are added.
	Order int32
	// Text is the caption: a label's or button's text, the name shown
	// beside a toggle's, slider's, choice's or text field's value.
	Text string
	// Action is the game's input action the widget fires ([input.Tick.Fire])
	// when a button is activated, a value changes or a text field is
	// submitted; on a root panel, when the back action is pressed while
	// the focus is inside it. Zero fires nothing. A binding widget
	// rebinds it instead.
	Action input.Action
	// Stack, Anchor and Offset lay out a panel: its children's direction;
	// for a root, the point of the panel placed at the same fraction of the
	// screen ({0.5, 0.5}: centred) and a shift from there in logical units.
	Stack  Stack
	Anchor geom.Vec2
	Offset geom.Vec2
	// On is a toggle's state.
	On bool
	// Value is a slider's value or a choice's index; Min, Max and Step a
	// slider's range and increment (a Step of 0 or less counts as 1).
	Value, Min, Max, Step int32
	// Base and Unit turn a slider's Value into the number drawn on its
	// bar, Base + Value×Unit, so a slider over steps can show the setting
	// it stands for ([Widget.Showing]); a zero Unit shows Value itself.
	Base, Unit float64
	// Items are a choice's options.
	Items []string
	// Input is a text field's content and MaxRunes its limit (0: 64).
	Input    string
	MaxRunes int32
	// Size is the widget's size in logical units; a zero side takes the
	// theme's item size, or for a panel the size of its children. Children
	// of a stack stretch across it.
	Size geom.Vec2
	// Hidden widgets, and everything inside a hidden panel, are neither
	// shown nor focused; Disabled ones are shown dimmed and skipped by
	// the focus.
	Hidden, Disabled bool

	// Rect is where the widget was laid out by the latest tick, in logical
	// units from the top-left corner of the screen (zero while not shown).
	Rect geom.Rect

	seq   int32 // position in the tree's depth-first order; -1: not shown
	depth int16
}

// Shown reports whether the latest tick laid the widget out on screen.
func (w *Widget) Shown() bool { return w.seq >= 0 && w.Rect.W > 0 }

// VStack returns a panel that stacks its children top to bottom.
func VStack() Widget { return Widget{Kind: KindPanel, Stack: Vertical} }

// HStack returns a panel that stacks its children left to right.
func HStack() Widget { return Widget{Kind: KindPanel, Stack: Horizontal} }

// At returns w anchored at the fraction (ax, ay) of the screen: the same
// fraction of the widget sits there (0.5, 0.5 centres it). It applies to a
// root panel.
func (w Widget) At(ax, ay float32) Widget {
	w.Anchor = geom.Vec2{X: ax, Y: ay}
	return w
}

// Named returns the panel w with a name, its Text, which is not drawn:
// [UI.Find] finds the panel by it afterwards, to hide or show a menu.
func (w Widget) Named(name string) Widget {
	w.Text = name
	return w
}

// Sized returns w with the given size (a zero side keeps the default).
func (w Widget) Sized(width, height float32) Widget {
	w.Size = geom.Vec2{X: width, Y: height}
	return w
}

// Showing returns the slider w drawing base + Value×unit on its bar
// instead of Value: a slider of 20 steps over the range 30..630 is
// Showing(30, 30) and shows 150 at step 4.
func (w Widget) Showing(base, unit float64) Widget {
	w.Base, w.Unit = base, unit
	return w
}

// Number returns the number a slider shows on its bar: Value, or Base +
// Value×Unit written with as many decimals as Base and Unit have (at most
// four), so every step of a slider reads differently and none reads as a
// float's rounding error (0.35, not 0.35000000000000003).
func (w *Widget) Number() string { return string(w.appendNumber(nil)) }

func (w *Widget) appendNumber(b []byte) []byte {
	if w.Unit == 0 {
		return strconv.AppendInt(b, int64(w.Value), 10)
	}
	d := max(decimals(w.Base), decimals(w.Unit))
	return strconv.AppendFloat(b, w.Base+float64(w.Value)*w.Unit, 'f', d, 64)
}

// decimals is how many decimal places x needs, up to 4.
func decimals(x float64) int {
	for d, scale := 0, 1.0; d < 4; d, scale = d+1, scale*10 {
		y := math.Abs(x) * scale
		if math.Abs(y-math.Round(y)) <= 1e-9*max(1, y) {
			return d
		}
	}
	return 4
}

// OnBack returns the root panel w firing act when the back action is
// pressed while the focus is inside it (close the options, leave a menu).
func (w Widget) OnBack(act input.Action) Widget {
	w.Action = act
	return w
}

// Label returns a widget showing text.
func Label(text string) Widget { return Widget{Kind: KindLabel, Text: text} }

// Button returns a button that fires act when activated.
func Button(text string, act input.Action) Widget {
	return Widget{Kind: KindButton, Text: text, Action: act}
}

// Toggle returns a toggle, initially on or off, that fires act when it
// flips.
func Toggle(text string, on bool, act input.Action) Widget {
	return Widget{Kind: KindToggle, Text: text, On: on, Action: act}
}

// Slider returns a slider holding value in [lo, hi], moved by step, that
// fires act when the value changes.
func Slider(text string, value, lo, hi, step int32, act input.Action) Widget {
	return Widget{Kind: KindSlider, Text: text, Value: value, Min: lo, Max: hi, Step: step, Action: act}
}

// Choice returns an option list showing items[index], that fires act when
// the choice changes.
func Choice(text string, items []string, index int32, act input.Action) Widget {
	return Widget{Kind: KindChoice, Text: text, Items: items, Value: index, Action: act}
}

// TextField returns a text field holding value, at most maxRunes long (0:
// 64), that fires act when editing finishes.
func TextField(text, value string, maxRunes int32, act input.Action) Widget {
	return Widget{Kind: KindTextField, Text: text, Input: value, MaxRunes: maxRunes, Action: act}
}

// Binding returns a widget that shows the buttons bound to the button
// action act and rebinds it when activated.
func Binding(text string, act input.Action) Widget {
	return Widget{Kind: KindBinding, Text: text, Action: act}
}

// Builder spawns widgets through a command buffer and numbers them, so
// siblings keep the order they were added in.
//
//	b := ui.NewBuilder(ctx.Commands)
//	menu := b.Add(ecs.Entity{}, ui.VStack().At(0.5, 0.5))
//	b.Add(menu, ui.Button("Start", start))
//	b.Add(menu, ui.Button("Quit", quit))
type Builder struct {
	c    *ecs.Commands
	next int32
}

// NewBuilder returns a Builder spawning through c.
func NewBuilder(c *ecs.Commands) *Builder { return &Builder{c: c} }

// Add spawns w inside parent (the zero Entity: a root) after the widgets
// added before it, and returns the new entity, usable at once as the
// parent of further widgets.
func (b *Builder) Add(parent ecs.Entity, w Widget) ecs.Entity {
	w.Parent = parent
	w.Order = b.next
	b.next++
	p := b.c.Spawn()
	ecs.With(p, w)
	return p.Entity()
}
