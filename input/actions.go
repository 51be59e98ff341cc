package input

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Action is a handle to a named action registered in an [Actions] set. It is
// a small integer so that hot-path queries ([Tick.Pressed] and friends) cost
// an index, not a map lookup. The zero Action is NoAction: it is never
// registered, and every query on it reports an idle, unbound action.
type Action uint16

// NoAction is the zero Action.
const NoAction Action = 0

// maxActions bounds the number of registered actions.
const maxActions = 1<<16 - 1

// Actions is a set of named actions and their bindings. An action is either
// a button action, bound to buttons ([Actions.Register]), or an analog
// action, bound to gamepad axes and to buttons standing in for them
// ([Actions.RegisterAxis]); every query works on both (see [Stats]).
// Actions are usually registered once during initialisation; bindings can
// change at any time afterwards ([Actions.Rebind], [Actions.RebindAxis])
// and the change is seen by the next query.
//
// All methods are safe for concurrent use. Queries read an immutable binding
// table through an atomic pointer, so reading never blocks on a rebind.
type Actions struct {
	mu    sync.Mutex // serialises writers
	table atomic.Pointer[bindingTable]
}

// bindingTable is an immutable snapshot of an Actions set. Writers copy it.
type bindingTable struct {
	version uint64
	entries []entry // index i is Action(i+1)
	byName  map[string]Action
}

// entry is one action. Its slices are never modified once published.
type entry struct {
	name    string
	buttons []Button      // button action
	axes    []AxisBinding // analog action
	analog  bool
	// defaults is the entry as registered: the bindings the game gave,
	// which rebinding and Configure override and [Actions.Reset] restores.
	defaults *entry
	// For an analog action: the buttons and axes its bindings read, so
	// that records of other controls are skipped cheaply.
	watchButtons ButtonSet
	watchAxes    uint8 // bit a for Axis a
}

// analogEntry returns the entry of an analog action with bindings bs.
func analogEntry(name string, bs []AxisBinding) entry {
	e := entry{name: name, axes: bs, analog: true}
	for _, b := range bs {
		if b.Axis.Valid() {
			e.watchAxes |= 1 << b.Axis
		}
		for _, x := range [2]Button{b.Negative, b.Positive} {
			if x.Valid() {
				e.watchButtons.Add(x)
			}
		}
	}
	return e
}

// watches reports whether r can change the value of the analog action e.
func (e *entry) watches(r *Record) bool {
	if r.Kind == RecordAxis {
		return r.Axis.Valid() && e.watchAxes&(1<<r.Axis) != 0
	}
	return r.Button.Valid() && e.watchButtons.Has(r.Button)
}

var emptyTable = &bindingTable{byName: map[string]Action{}}

// NewActions returns an empty action set.
func NewActions() *Actions {
	a := &Actions{}
	a.table.Store(emptyTable)
	return a
}

func (a *Actions) load() *bindingTable {
	if a == nil {
		return emptyTable
	}
	if t := a.table.Load(); t != nil {
		return t
	}
	return emptyTable
}

// Register adds a button action with the given name and bindings and
// returns its handle. Names are case sensitive and must be non-empty,
// without leading or trailing space, and unique within the set. Every
// binding must be a valid button; duplicates are kept once. An action may
// have no bindings yet. Every problem is reported at once.
//
// The bindings given here are the action's defaults, the one place a game
// states its keys: a config file's bindings ([Actions.Configure]) and
// [Actions.Rebind] override them, [Actions.DefaultBindings] reports them
// and [Actions.Reset] restores them.
func (a *Actions) Register(name string, bindings ...Button) (Action, error) {
	bs, err := checkBindings(name, bindings)
	return a.register(entry{name: name, buttons: bs}, err)
}

// RegisterAxis adds an analog action: its value, in [-1, 1], comes from the
// bound gamepad axes (after their dead zones) and buttons, the binding of
// largest magnitude winning. Names follow [Actions.Register]; every
// binding must pass [AxisBinding.Validate]. Every problem is reported at
// once.
//
//	moveX := actions.MustRegisterAxis("move_x",
//		input.GamepadLeftX.Bind(),
//		input.ButtonAxis(input.KeyLeft, input.KeyRight))
func (a *Actions) RegisterAxis(name string, bindings ...AxisBinding) (Action, error) {
	bs, err := checkAxisBindings(name, bindings)
	return a.register(analogEntry(name, bs), err)
}

func (a *Actions) register(e entry, bindErr error) (Action, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.load()
	var errs []error
	if e.name == "" || strings.TrimSpace(e.name) != e.name {
		errs = append(errs, fmt.Errorf("input: action name %q must be non-empty without surrounding space", e.name))
	} else if _, dup := old.byName[e.name]; dup {
		errs = append(errs, fmt.Errorf("input: action %q is already registered", e.name))
	}
	if len(old.entries) >= maxActions {
		errs = append(errs, fmt.Errorf("input: cannot register action %q: the set already holds the maximum of %d actions", e.name, maxActions))
	}
	if bindErr != nil {
		errs = append(errs, bindErr)
	}
	if len(errs) > 0 {
		return NoAction, errors.Join(errs...)
	}
	d := e
	e.defaults = &d
	t := &bindingTable{
		version: old.version + 1,
		entries: append(slices.Clip(old.entries), e),
		byName:  make(map[string]Action, len(old.byName)+1),
	}
	maps.Copy(t.byName, old.byName)
	act := Action(len(t.entries))
	t.byName[e.name] = act
	a.table.Store(t)
	return act, nil
}

// RegisterNames is [Actions.Register] with bindings given by name, as read
// from a config file ("Space", "MouseLeft", "GamepadA"). Unknown names are
// errors that list close matches.
func (a *Actions) RegisterNames(name string, bindings ...string) (Action, error) {
	bs, err := ParseButtons(bindings...)
	if err != nil {
		return NoAction, fmt.Errorf("input: action %q: %w", name, err)
	}
	return a.Register(name, bs...)
}

// RegisterAxisNames is [Actions.RegisterAxis] with bindings in the text
// form of [ParseAxisBinding] ("GamepadLeftX deadzone=0.25", "A/D").
func (a *Actions) RegisterAxisNames(name string, bindings ...string) (Action, error) {
	bs, err := ParseAxisBindings(bindings...)
	if err != nil {
		return NoAction, fmt.Errorf("input: action %q: %w", name, err)
	}
	return a.RegisterAxis(name, bs...)
}

// MustRegister is Register for package-level initialisation; it panics with
// the error if registration fails.
func (a *Actions) MustRegister(name string, bindings ...Button) Action {
	act, err := a.Register(name, bindings...)
	if err != nil {
		panic(err)
	}
	return act
}

// MustRegisterAxis is RegisterAxis for package-level initialisation; it
// panics with the error if registration fails.
func (a *Actions) MustRegisterAxis(name string, bindings ...AxisBinding) Action {
	act, err := a.RegisterAxis(name, bindings...)
	if err != nil {
		panic(err)
	}
	return act
}

// Rebind replaces the bindings of the button action act. It is safe while
// the game runs, from any goroutine: tick queries made after it returns use
// the new bindings, including queries on a tick filled before the change,
// because a tick keeps its records and looks bindings up when asked.
// Rebinding an analog action is an error: use [Actions.RebindAxis].
func (a *Actions) Rebind(act Action, bindings ...Button) error {
	return a.rebind(act, false, func(name string) (entry, error) {
		bs, err := checkBindings(name, bindings)
		return entry{buttons: bs}, err
	})
}

// RebindAxis replaces the bindings of the analog action act, as
// [Actions.Rebind] does for button actions.
func (a *Actions) RebindAxis(act Action, bindings ...AxisBinding) error {
	return a.rebind(act, true, func(name string) (entry, error) {
		bs, err := checkAxisBindings(name, bindings)
		return analogEntry(name, bs), err
	})
}

func (a *Actions) rebind(act Action, analog bool, build func(name string) (entry, error)) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.load()
	e := old.entry(act)
	if e == nil {
		return fmt.Errorf("input: action %d is not registered (registered: 1 to %d)", act, len(old.entries))
	}
	if e.analog != analog {
		return kindError(e)
	}
	ne, err := build(e.name)
	if err != nil {
		return err
	}
	ne.name, ne.defaults = e.name, e.defaults
	t := &bindingTable{version: old.version + 1, entries: slices.Clone(old.entries), byName: old.byName}
	t.entries[act-1] = ne
	a.table.Store(t)
	return nil
}

func kindError(e *entry) error {
	if e.analog {
		return fmt.Errorf("input: action %q is analog; bind it with RebindAxis or axis bindings", e.name)
	}
	return fmt.Errorf("input: action %q is a button action; bind it with Rebind or button names (register it with RegisterAxis to bind axes)", e.name)
}

// RebindNames is [Actions.Rebind] with bindings given by name.
func (a *Actions) RebindNames(act Action, bindings ...string) error {
	bs, err := ParseButtons(bindings...)
	if err != nil {
		return fmt.Errorf("input: action %d: %w", act, err)
	}
	return a.Rebind(act, bs...)
}

// RebindAxisNames is [Actions.RebindAxis] with bindings in the text form of
// [ParseAxisBinding].
func (a *Actions) RebindAxisNames(act Action, bindings ...string) error {
	bs, err := ParseAxisBindings(bindings...)
	if err != nil {
		return fmt.Errorf("input: action %d: %w", act, err)
	}
	return a.RebindAxis(act, bs...)
}

// Lookup returns the action registered under name.
func (a *Actions) Lookup(name string) (Action, bool) {
	act, ok := a.load().byName[name]
	return act, ok
}

// Name returns the name act was registered with, or "" if it is not
// registered.
func (a *Actions) Name(act Action) string {
	if e := a.load().entry(act); e != nil {
		return e.name
	}
	return ""
}

// Analog reports whether act is an analog action (registered with
// [Actions.RegisterAxis]).
func (a *Actions) Analog(act Action) bool {
	e := a.load().entry(act)
	return e != nil && e.analog
}

// Bindings returns a copy of the buttons bound to the button action act
// (nil for an analog action).
func (a *Actions) Bindings(act Action) []Button {
	if e := a.load().entry(act); e != nil {
		return slices.Clone(e.buttons)
	}
	return nil
}

// AppendBindings appends the buttons bound to the button action act to
// dst and returns it: [Actions.Bindings] without the copy's allocation,
// for a menu that shows them every frame.
func (a *Actions) AppendBindings(dst []Button, act Action) []Button {
	if e := a.load().entry(act); e != nil {
		return append(dst, e.buttons...)
	}
	return dst
}

// AxisBindings returns a copy of the bindings of the analog action act (nil
// for a button action).
func (a *Actions) AxisBindings(act Action) []AxisBinding {
	if e := a.load().entry(act); e != nil {
		return slices.Clone(e.axes)
	}
	return nil
}

// DefaultBindings returns a copy of the buttons the button action act was
// registered with, whatever it is bound to now (nil for an analog action,
// and for an action that only a config file created).
func (a *Actions) DefaultBindings(act Action) []Button {
	if e := a.load().entry(act); e != nil && e.defaults != nil {
		return slices.Clone(e.defaults.buttons)
	}
	return nil
}

// DefaultAxisBindings returns a copy of the bindings the analog action act
// was registered with (nil for a button action).
func (a *Actions) DefaultAxisBindings(act Action) []AxisBinding {
	if e := a.load().entry(act); e != nil && e.defaults != nil {
		return slices.Clone(e.defaults.axes)
	}
	return nil
}

// Overridden reports whether act's bindings differ from those it was
// registered with: a config file, [Actions.Rebind] or
// [Actions.RebindAxis] changed them. An action that only a config file
// created has no registration, so it is overridden.
func (a *Actions) Overridden(act Action) bool {
	e := a.load().entry(act)
	if e == nil {
		return false
	}
	return e.defaults == nil || !slices.Equal(e.buttons, e.defaults.buttons) || !slices.Equal(e.axes, e.defaults.axes)
}

// Reset binds act to the bindings it was registered with again, undoing
// every override; a settings menu's "default keys". It returns an error for
// an action that is not registered or that only a config file created.
func (a *Actions) Reset(act Action) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.load()
	e := old.entry(act)
	switch {
	case e == nil:
		return fmt.Errorf("input: action %d is not registered (registered: 1 to %d)", act, len(old.entries))
	case e.defaults == nil:
		return fmt.Errorf("input: action %q was made by a config file, not registered: it has no defaults to reset to", e.name)
	}
	t := &bindingTable{version: old.version + 1, entries: slices.Clone(old.entries), byName: old.byName}
	ne := *e.defaults
	ne.defaults = e.defaults
	t.entries[act-1] = ne
	a.table.Store(t)
	return nil
}

// BindingNames returns act's bindings as a config file writes them:
// button names ("Space", "GamepadA") for a button action, axis bindings
// ("GamepadLeftX deadzone=0.2", "A/D") for an analog one. With defaults
// set it returns the registered bindings instead of the current ones.
// Help screens and generated listings use it, so that the keys a game
// shows come from the one place it states them.
func (a *Actions) BindingNames(act Action, defaults bool) []string {
	e := a.load().entry(act)
	if e == nil {
		return nil
	}
	if defaults {
		if e = e.defaults; e == nil {
			return nil
		}
	}
	out := make([]string, 0, len(e.buttons)+len(e.axes))
	for _, b := range e.buttons {
		out = append(out, b.String())
	}
	for _, b := range e.axes {
		out = append(out, b.String())
	}
	return out
}

// Len returns the number of registered actions. Handles run from 1 to Len.
func (a *Actions) Len() int { return len(a.load().entries) }

// entry returns act's entry in t, or nil; it must not be modified.
func (t *bindingTable) entry(act Action) *entry {
	if act == NoAction || int(act) > len(t.entries) {
		return nil
	}
	return &t.entries[act-1]
}

func checkBindings(name string, bindings []Button) ([]Button, error) {
	var errs []error
	out := make([]Button, 0, len(bindings))
	for i, b := range bindings {
		if !b.Valid() {
			errs = append(errs, fmt.Errorf("input: action %q binding %d: button %d is not valid (valid: 1 to %d)", name, i, uint8(b), ButtonCount))
			continue
		}
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

func checkAxisBindings(name string, bindings []AxisBinding) ([]AxisBinding, error) {
	var errs []error
	out := make([]AxisBinding, 0, len(bindings))
	for i, b := range bindings {
		if err := b.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("input: action %q binding %d (%v): %w", name, i, b, err))
			continue
		}
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

func (t *bindingTable) count() int { return len(t.entries) }

// Configure applies bindings read from a config file, such as a TOML table
// `jump = ["Space", "GamepadA"]`: a registered action is rebound, its
// listed bindings overriding those it was registered with (an action the
// table does not list keeps its own), and an unknown one is registered as
// a button action. The texts of an analog action are
// axis bindings in the form of [ParseAxisBinding] (`move_x =
// ["GamepadLeftX", "A/D"]`); those of a button action are button names.
// Every bad name is reported at once, in sorted order of actions; on error
// nothing changes. Configure is all-or-nothing with respect to other
// callers too.
func (a *Actions) Configure(bindings map[string][]string) error {
	names := slices.Sorted(maps.Keys(bindings))
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.load()
	parsed := make([]entry, len(names))
	var errs []error
	added := 0
	for i, n := range names {
		if n == "" || strings.TrimSpace(n) != n {
			errs = append(errs, fmt.Errorf("input: action name %q must be non-empty without surrounding space", n))
		}
		e := entry{name: n}
		var err error
		act, ok := old.byName[n]
		if ok {
			e.defaults = old.entries[act-1].defaults
		}
		if ok && old.entries[act-1].analog {
			var bs []AxisBinding
			if bs, err = ParseAxisBindings(bindings[n]...); err == nil {
				bs, _ = checkAxisBindings(n, bs) // removes duplicates
			}
			d := e.defaults
			e = analogEntry(n, bs)
			e.defaults = d
		} else {
			if !ok {
				added++
			}
			if e.buttons, err = ParseButtons(bindings[n]...); err == nil {
				e.buttons, _ = checkBindings(n, e.buttons)
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("input: action %q: %w", n, err))
		}
		parsed[i] = e
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if len(old.entries)+added > maxActions {
		return fmt.Errorf("input: configuring %d actions would exceed the maximum of %d", added, maxActions)
	}
	t := &bindingTable{
		version: old.version + 1,
		entries: slices.Clone(old.entries),
		byName:  make(map[string]Action, len(old.byName)+added),
	}
	maps.Copy(t.byName, old.byName)
	for _, e := range parsed {
		if act, ok := t.byName[e.name]; ok {
			t.entries[act-1] = e
			continue
		}
		t.entries = append(t.entries, e)
		t.byName[e.name] = Action(len(t.entries))
	}
	a.table.Store(t)
	return nil
}
