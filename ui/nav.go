package ui

import (
	"errors"

	"github.com/metronome-go/metronome/input"
)

// Nav are the input actions that drive the UI. They are ordinary actions
// of the game's [input.Actions], so a player rebinds them in
// [input.bindings] like any other, and a recording holds the input that
// moved the focus, not the focus: a replay moves it again.
type Nav struct {
	// Up, Down, Left and Right move the focus to the nearest widget in
	// that direction; Left and Right step a focused slider or choice.
	Up, Down, Left, Right input.Action
	// MoveX and MoveY are analog actions (a stick) that move the focus
	// when they leave their dead zone, by the sign of their value.
	MoveX, MoveY input.Action
	// Accept activates the focused widget; Back fires the Action of the
	// root panel that holds the focus.
	Accept, Back input.Action
	// Point is the pointer's button: pressed on a widget it focuses and
	// activates it, held on a slider it drags the value.
	Point input.Action
}

// RegisterNav registers the UI's actions on actions with their default
// bindings (arrows and WASD-free keys, the d-pad and left stick, Enter
// and Space or gamepad A to accept, Escape or gamepad B to go back, the
// left mouse button to point) under the names "ui_up", "ui_down",
// "ui_left", "ui_right", "ui_move_x", "ui_move_y", "ui_accept", "ui_back"
// and "ui_point". Every problem (a name already taken) is reported at
// once.
func RegisterNav(actions *input.Actions) (Nav, error) {
	var n Nav
	var errs []error
	reg := func(dst *input.Action, name string, bs ...input.Button) {
		a, err := actions.Register(name, bs...)
		*dst = a
		errs = append(errs, err)
	}
	axis := func(dst *input.Action, name string, a input.Axis) {
		act, err := actions.RegisterAxis(name, a.Bind())
		*dst = act
		errs = append(errs, err)
	}
	reg(&n.Up, "ui_up", input.KeyUp, input.GamepadDpadUp)
	reg(&n.Down, "ui_down", input.KeyDown, input.GamepadDpadDown)
	reg(&n.Left, "ui_left", input.KeyLeft, input.GamepadDpadLeft)
	reg(&n.Right, "ui_right", input.KeyRight, input.GamepadDpadRight)
	axis(&n.MoveX, "ui_move_x", input.GamepadLeftX)
	axis(&n.MoveY, "ui_move_y", input.GamepadLeftY)
	reg(&n.Accept, "ui_accept", input.KeyEnter, input.KeySpace, input.GamepadA)
	reg(&n.Back, "ui_back", input.KeyEscape, input.GamepadB)
	reg(&n.Point, "ui_point", input.MouseLeft)
	if err := errors.Join(errs...); err != nil {
		return Nav{}, err
	}
	return n, nil
}
