// Package ui is a small retained UI in the ECS: menus and options screens
// that a gamepad, a keyboard and a mouse drive alike, run in the
// simulation tick so that a recording replays their use.
//
// # Widgets
//
// Every element is an entity with a [Widget] component: a panel that
// stacks its children vertically or horizontally ([VStack], [HStack]), a
// [Label], a [Button], a [Toggle], a [Slider] over whole numbers that
// draws its number on its bar (or, [Widget.Showing], the number a step
// stands for, with the step's decimals: [Widget.Number]), a [Choice]
// among items and a [TextField] fed by the platform's text input
// ([input.Tick.Runes]). A [Builder] spawns them in order:
//
//	b := ui.NewBuilder(ctx.Commands)
//	menu := b.Add(ecs.Entity{}, ui.VStack().At(0.5, 0.5).OnBack(quit))
//	b.Add(menu, ui.Label("Options"))
//	b.Add(menu, ui.Slider("Volume", 8, 0, 10, 1, volume))
//	b.Add(menu, ui.Button("Play", play))
//
// Widgets are laid out every tick in the logical resolution
// ([ecs.App.SetScreen]): a root panel sits at its Anchor, a fraction of
// the screen, its children stack inside it with the [Theme]'s gap and
// padding, each the theme's item size unless its Size says otherwise, and
// stretched across the stack. [Widget].Rect holds the result.
//
// Several menus can exist at once: hide all but one (Widget.Hidden on its
// root panel, found by name with [Widget.Named] and [UI.Find]) and the
// focus moves into the one shown.
//
// # Actions, not callbacks
//
// A widget does what a key does: it fires one of the game's input
// actions ([input.Tick.Fire]) when a button is pressed, a value changes,
// a text field is submitted or the back action leaves a root panel. The
// game's systems read ctx.Input.Pressed(play) whether the player pressed
// the key bound to play or the button, and read values (Widget.Value,
// On, Input) from the components. The UI's system runs in PreUpdate off
// the tick's recorded input, so the Update systems see the action on
// the same tick, and a replay, a rollback or a sync-test, running the
// same ticks on the same input, moves the focus, changes the values and
// fires the actions again, the same way. The focus, the widgets and their
// values are game state ([State] is a hashed resource), so the world hash
// covers them.
//
// # Focus and navigation
//
// The focus moves with the [Nav] actions ([RegisterNav] registers them
// with default keys: arrows, the d-pad and the left stick, Enter, Space
// or gamepad A to accept, Escape or gamepad B to go back, the left mouse
// button to point). A direction moves it to the nearest focusable widget
// whose centre lies that way (the least distance ahead plus twice the
// distance aside), as Bevy's automatic directional navigation does, so
// any layout is navigable without wiring neighbours. Left and right step
// a focused slider or choice instead. A direction held repeats after
// [RepeatDelay], then every [RepeatEvery] of simulation time. The pointer focuses the widget it
// moves over, activates what it presses (a choice steps back or on by
// the half of its value pressed), and drags a slider it holds.
// A widget that is hidden, disabled or gone loses the focus to the first
// focusable widget.
//
// # Key bindings and the options screen
//
// A [Binding] row shows the buttons bound to one of the game's actions;
// activated, it waits for the next button pressed and binds the action
// to it in place of that device's bindings (a new key keeps the gamepad
// button; Escape cancels). The rebind takes effect after the tick, so the
// press that chose it does not act, and the bindings of the actions it
// shows are kept in [State], so a rollback to before a rebind undoes it.
//
// [NewSettings] builds an options screen from the game's [game] table
// (framework/config: a toggle per bool, a slider per number with a
// range, showing the setting's value, a choice per string with choices,
// a text field per other string) and the actions to rebind, with Save and Back buttons.
// [Settings.Config] reads the widgets back into a configuration with the
// checks of --set, for the game to decode its settings from when the
// Changed action fires; [Settings.Save] writes the player's config file
// with the checks of loading it (config.Config.WritePlayerFile). A
// [Theme] can sit in the game's settings struct, so the [game.theme]
// table restyles the menus.
//
// # Drawing
//
// [Add]'s Extract system draws the shown widgets in a pass of their own
// over the game's, in logical units and tree order: coloured quads and
// text from the [Options] font through the assets library. Drawing reads
// the world and changes nothing.
//
// # Threads
//
// A UI belongs to the App's simulation owner, like the App.
package ui
