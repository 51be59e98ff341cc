package input

import (
	"errors"
	"fmt"
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

// Actions is a set of named actions and their bindings. Actions are usually
// registered once during initialisation; bindings can change at any time
// afterwards ([Actions.Rebind]) and the change is seen by the next query.
//
// All methods are safe for concurrent use. Queries read an immutable binding
// table through an atomic pointer, so reading never blocks on a rebind.
type Actions struct {
	mu    sync.Mutex // serialises writers
	table atomic.Pointer[bindingTable]
}

// bindingTable is an immutable snapshot of an Actions set. Writers copy it.
type bindingTable struct {
	version  uint64
	names    []string   // index i is Action(i+1)
	bindings [][]Button // index i is Action(i+1)
	byName   map[string]Action
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

// Register adds an action with the given name and bindings and returns its
// handle. Names are case sensitive and must be non-empty, without leading or
// trailing space, and unique within the set. Every binding must be a valid
// button; duplicates are kept once. An action may have no bindings yet.
// Every problem is reported at once.
func (a *Actions) Register(name string, bindings ...Button) (Action, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.load()
	var errs []error
	if name == "" || strings.TrimSpace(name) != name {
		errs = append(errs, fmt.Errorf("input: action name %q must be non-empty without surrounding space", name))
	} else if _, dup := old.byName[name]; dup {
		errs = append(errs, fmt.Errorf("input: action %q is already registered", name))
	}
	if len(old.names) >= maxActions {
		errs = append(errs, fmt.Errorf("input: cannot register action %q: the set already holds the maximum of %d actions", name, maxActions))
	}
	bs, err := checkBindings(name, bindings)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return NoAction, errors.Join(errs...)
	}
	t := &bindingTable{
		version:  old.version + 1,
		names:    append(slices.Clip(old.names), name),
		bindings: append(slices.Clip(old.bindings), bs),
		byName:   make(map[string]Action, len(old.byName)+1),
	}
	for k, v := range old.byName {
		t.byName[k] = v
	}
	act := Action(len(t.names))
	t.byName[name] = act
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

// MustRegister is Register for package-level initialisation; it panics with
// the error if registration fails.
func (a *Actions) MustRegister(name string, bindings ...Button) Action {
	act, err := a.Register(name, bindings...)
	if err != nil {
		panic(err)
	}
	return act
}

// Rebind replaces the bindings of act. It is safe while the game runs, from
// any goroutine: tick queries made after it returns use the new bindings,
// including queries on a tick filled before the change, because a tick keeps
// its records and looks bindings up when asked.
func (a *Actions) Rebind(act Action, bindings ...Button) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.load()
	if act == NoAction || int(act) > len(old.names) {
		return fmt.Errorf("input: action %d is not registered (registered: 1 to %d)", act, len(old.names))
	}
	name := old.names[act-1]
	bs, err := checkBindings(name, bindings)
	if err != nil {
		return err
	}
	t := &bindingTable{
		version:  old.version + 1,
		names:    old.names,
		bindings: slices.Clone(old.bindings),
		byName:   old.byName,
	}
	t.bindings[act-1] = bs
	a.table.Store(t)
	return nil
}

// RebindNames is [Actions.Rebind] with bindings given by name.
func (a *Actions) RebindNames(act Action, bindings ...string) error {
	bs, err := ParseButtons(bindings...)
	if err != nil {
		return fmt.Errorf("input: action %d: %w", act, err)
	}
	return a.Rebind(act, bs...)
}

// Lookup returns the action registered under name.
func (a *Actions) Lookup(name string) (Action, bool) {
	act, ok := a.load().byName[name]
	return act, ok
}

// Name returns the name act was registered with, or "" if it is not
// registered.
func (a *Actions) Name(act Action) string {
	t := a.load()
	if act == NoAction || int(act) > len(t.names) {
		return ""
	}
	return t.names[act-1]
}

// Bindings returns a copy of the buttons bound to act.
func (a *Actions) Bindings(act Action) []Button {
	return slices.Clone(a.load().bound(act))
}

// Len returns the number of registered actions. Handles run from 1 to Len.
func (a *Actions) Len() int { return len(a.load().names) }

// bound returns the bindings of act in t; the slice must not be modified.
func (t *bindingTable) bound(act Action) []Button {
	if act == NoAction || int(act) > len(t.bindings) {
		return nil
	}
	return t.bindings[act-1]
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

func (t *bindingTable) count() int { return len(t.names) }

// Configure applies bindings read from a config file, such as a TOML table
// `jump = ["Space", "GamepadA"]`: a registered action is rebound, an unknown
// one is registered. Names are checked first and every bad button name or
// action name is reported at once, in sorted order; on error nothing
// changes. Configure is all-or-nothing with respect to other callers too.
func (a *Actions) Configure(bindings map[string][]string) error {
	names := make([]string, 0, len(bindings))
	for n := range bindings {
		names = append(names, n)
	}
	slices.Sort(names)
	parsed := make([][]Button, len(names))
	var errs []error
	for i, n := range names {
		if n == "" || strings.TrimSpace(n) != n {
			errs = append(errs, fmt.Errorf("input: action name %q must be non-empty without surrounding space", n))
		}
		bs, err := ParseButtons(bindings[n]...)
		if err != nil {
			errs = append(errs, fmt.Errorf("input: action %q: %w", n, err))
		}
		parsed[i] = bs
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.load()
	if len(old.names)+len(names) > maxActions {
		return fmt.Errorf("input: configuring %d actions would exceed the maximum of %d", len(names), maxActions)
	}
	t := &bindingTable{
		version:  old.version + 1,
		names:    slices.Clone(old.names),
		bindings: slices.Clone(old.bindings),
		byName:   make(map[string]Action, len(old.byName)+len(names)),
	}
	for k, v := range old.byName {
		t.byName[k] = v
	}
	for i, n := range names {
		bs, _ := checkBindings(n, parsed[i]) // parsed buttons are valid; this removes duplicates
		if act, ok := t.byName[n]; ok {
			t.bindings[act-1] = bs
			continue
		}
		t.names = append(t.names, n)
		t.bindings = append(t.bindings, bs)
		t.byName[n] = Action(len(t.names))
	}
	a.table.Store(t)
	return nil
}
