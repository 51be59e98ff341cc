package input_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/metronome-go/metronome/input"
)

func TestRegisterErrors(t *testing.T) {
	tests := []struct {
		name     string
		action   string
		bindings []input.Button
		want     []string // substrings of the error
	}{
		{"empty name", "", []input.Button{input.KeyA}, []string{`action name ""`}},
		{"spaces", " jump", nil, []string{`action name " jump"`}},
		{"duplicate", "jump", nil, []string{`"jump" is already registered`}},
		{"invalid button", "fire", []input.Button{input.KeyA, 0, 250}, []string{"binding 1: button 0", "binding 2: button 250"}},
		{"every problem", "jump", []input.Button{0}, []string{"already registered", "binding 0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := input.NewActions()
			a.MustRegister("jump", input.KeySpace)
			act, err := a.Register(tc.action, tc.bindings...)
			if err == nil {
				t.Fatalf("Register(%q, %v) = %v, nil; want an error", tc.action, tc.bindings, act)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if act != input.NoAction || a.Len() != 1 {
				t.Errorf("after failure: action %v, Len %d; want NoAction, 1", act, a.Len())
			}
		})
	}
}

func TestActionsLookupAndRebind(t *testing.T) {
	a := input.NewActions()
	jump := a.MustRegister("jump", input.KeySpace, input.GamepadA, input.KeySpace)
	fire, err := a.RegisterNames("fire", "MouseLeft", "LeftControl")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := a.Lookup("fire"); !ok || got != fire {
		t.Errorf("Lookup(fire) = %v, %v; want %v, true", got, ok, fire)
	}
	if _, ok := a.Lookup("Fire"); ok {
		t.Errorf("Lookup(Fire) found an action; names are case sensitive")
	}
	if got := a.Name(jump); got != "jump" {
		t.Errorf("Name(jump) = %q", got)
	}
	if got, want := a.Bindings(jump), []input.Button{input.KeySpace, input.GamepadA}; !slices.Equal(got, want) {
		t.Errorf("Bindings(jump) = %v, want %v (duplicates kept once)", got, want)
	}
	if _, err := a.RegisterNames("dash", "LeftShfit"); err == nil || !strings.Contains(err.Error(), `"LeftShift"`) {
		t.Errorf("RegisterNames with a typo: error %v, want a suggestion of LeftShift", err)
	}

	var tick input.Tick
	tick.Fill(a, 0, 10*ms, input.State{}, []input.Record{press(2*ms, input.KeyW), release(4*ms, input.KeyW)})
	if tick.Pressed(jump) {
		t.Fatalf("jump pressed before W is bound to it")
	}
	if err := a.RebindNames(jump, "W"); err != nil {
		t.Fatal(err)
	}
	if !tick.Pressed(jump) || tick.Presses(jump) != 1 {
		t.Errorf("after rebinding jump to W: Pressed %v, Presses %d; want true, 1", tick.Pressed(jump), tick.Presses(jump))
	}
	if err := a.Rebind(input.Action(99), input.KeyA); err == nil {
		t.Errorf("Rebind of an unregistered action succeeded")
	}
	if err := a.Rebind(jump, 0); err == nil {
		t.Errorf("Rebind to an invalid button succeeded")
	}
	if tick.Pressed(input.NoAction) || tick.Action(input.Action(42)) != (input.Stats{}) {
		t.Errorf("unregistered actions must be idle")
	}
}

// TestRebindConcurrent rebinds on one goroutine while another queries.
func TestRebindConcurrent(t *testing.T) {
	a := input.NewActions()
	act := a.MustRegister("move", input.KeyA)
	var tick input.Tick
	tick.Fill(a, 0, 10*ms, input.State{}, []input.Record{press(1*ms, input.KeyA), press(2*ms, input.KeyB)})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 200 {
			b := input.KeyA
			if i%2 == 1 {
				b = input.KeyB
			}
			if err := a.Rebind(act, b); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for range 200 {
		if !tick.Down(act) {
			t.Fatalf("move not down: both keys it can be bound to are down")
		}
	}
	wg.Wait()
}

func TestConfigure(t *testing.T) {
	a := input.NewActions()
	jump := a.MustRegister("jump", input.KeySpace)
	err := a.Configure(map[string][]string{
		"jump": {"W", "GamepadA", "w"},
		"fire": {"MouseLeft"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.Bindings(jump), []input.Button{input.KeyW, input.GamepadA}; !slices.Equal(got, want) {
		t.Errorf("jump bindings %v, want %v", got, want)
	}
	fire, ok := a.Lookup("fire")
	if !ok || !slices.Equal(a.Bindings(fire), []input.Button{input.MouseLeft}) {
		t.Errorf("fire: registered %v, bindings %v; want [MouseLeft]", ok, a.Bindings(fire))
	}

	err = a.Configure(map[string][]string{
		"jump":  {"Spcae"},
		"dash":  {"LeftShfit", "MouseLeft"},
		" bad ": {"A"},
	})
	for _, w := range []string{`"Spcae"`, `"LeftShfit"`, `" bad "`, `"Space"`, `"LeftShift"`} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v does not mention %s", err, w)
		}
	}
	if _, ok := a.Lookup("dash"); ok || a.Len() != 2 {
		t.Errorf("a failed Configure changed the set: dash registered %v, %d actions", ok, a.Len())
	}
	if got := a.Bindings(jump); !slices.Equal(got, []input.Button{input.KeyW, input.GamepadA}) {
		t.Errorf("a failed Configure rebound jump to %v", got)
	}
}

// The registration's bindings are the defaults: Configure and Rebind
// override them, Reset restores them, BindingNames writes either in the
// form a config file reads, and an action the table leaves out keeps its
// own (issue 28: bindings were written twice, in the registration and in
// config.toml).
func TestRegisteredBindingsAreDefaults(t *testing.T) {
	a := input.NewActions()
	jump := a.MustRegister("jump", input.KeySpace, input.GamepadA)
	fire := a.MustRegister("fire", input.MouseLeft)
	move := a.MustRegisterAxis("move", input.GamepadLeftX.Bind(), input.ButtonAxis(input.KeyA, input.KeyD))
	if err := a.Configure(map[string][]string{"jump": {"W"}, "move": {"Left/Right"}, "extra": {"E"}}); err != nil {
		t.Fatal(err)
	}
	extra, _ := a.Lookup("extra")
	for _, tt := range []struct {
		act               input.Action
		now, defaults     []string
		overridden, reset bool
	}{
		{jump, []string{"W"}, []string{"Space", "GamepadA"}, true, true},
		{fire, []string{"MouseLeft"}, []string{"MouseLeft"}, false, true},
		{move, []string{"Left/Right"}, []string{"GamepadLeftX deadzone=0.2", "A/D"}, true, true},
		{extra, []string{"E"}, nil, true, false},
	} {
		name := a.Name(tt.act)
		if got := a.BindingNames(tt.act, false); !slices.Equal(got, tt.now) {
			t.Errorf("%s: bound to %q, want %q", name, got, tt.now)
		}
		if got := a.BindingNames(tt.act, true); !slices.Equal(got, tt.defaults) {
			t.Errorf("%s: defaults %q, want %q", name, got, tt.defaults)
		}
		if got := a.Overridden(tt.act); got != tt.overridden {
			t.Errorf("%s: Overridden = %v, want %v", name, got, tt.overridden)
		}
		err := a.Reset(tt.act)
		if (err == nil) != tt.reset {
			t.Fatalf("%s: Reset = %v, want success %v", name, err, tt.reset)
		}
		if tt.reset && (a.Overridden(tt.act) || !slices.Equal(a.BindingNames(tt.act, false), tt.defaults)) {
			t.Errorf("%s: after Reset bound to %q, want the defaults %q", name, a.BindingNames(tt.act, false), tt.defaults)
		}
	}
	if err := a.Reset(extra); err == nil || !strings.Contains(err.Error(), `"extra" was made by a config file`) {
		t.Errorf("Reset of a configured-only action: %v", err)
	}
	// Rebinding keeps the defaults; the typed accessors report them.
	if err := a.Rebind(jump, input.KeyEnter); err != nil {
		t.Fatal(err)
	}
	if got := a.DefaultBindings(jump); !slices.Equal(got, []input.Button{input.KeySpace, input.GamepadA}) || !a.Overridden(jump) {
		t.Errorf("after Rebind: defaults %v, overridden %v", got, a.Overridden(jump))
	}
	if got := a.DefaultAxisBindings(move); len(got) != 2 || got[1] != input.ButtonAxis(input.KeyA, input.KeyD) {
		t.Errorf("DefaultAxisBindings(move) = %v", got)
	}
	if err := a.Reset(input.Action(99)); err == nil || !strings.Contains(err.Error(), "action 99 is not registered") {
		t.Errorf("Reset(99) = %v", err)
	}
}
