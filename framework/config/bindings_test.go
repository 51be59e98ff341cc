package config_test

import (
	"os"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
)

// Button names are checked when the file is read, before a window opens.
func TestBindingNames(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"[input.bindings]\njump = [\"Spcae\"]\n", `config: game.toml: input.bindings.jump = ["Spcae"]: unknown button name "Spcae" (did you mean "Space"?)`},
		{"[input.bindings]\njump = [\"Space\", \"Nothing\", \"Escpe\"]\n", `input.bindings.jump = ["Space", "Nothing", "Escpe"]: unknown button name "Nothing" (names look like`},
		{"[input.bindings]\njump = [\"Space\", \"Escpe\"]\n", `input.bindings.jump = ["Space", "Escpe"]: unknown button name "Escpe" (did you mean "Escape"?)`},
		{"[input.bindings]\njump = []\n", `config: game.toml: input.bindings.jump = []: no key or button names; list at least one, such as ["Space"]`},
		{"[input.bindings]\njump = [1]\n", `config: game.toml: input.bindings.jump = [1]: incompatible types: TOML value has type int64; destination has type string; allowed: a list of key and button names or axis bindings, such as ["Space", "MouseLeft"]`},
		{"[input.bindings]\njump = \"Space\"\n", `input.bindings.jump = "Space": incompatible types: TOML value has type string; destination has type slice; allowed: a list of key and button names`},
		{"[input.bindings]\n\" jump\" = [\"Space\"]\n", `input.bindings. jump = ["Space"]: the action name " jump" is empty or has surrounding space`},
		{"[input.bindings]\nmove = [\"A/Dd\"]\n", `input.bindings.move = ["A/Dd"]: unknown button name "Dd" (did you mean "D"`},
		{"[input.bindings]\nmove = [\"GamepadLeftX deadzone=2\"]\n", `input.bindings.move = ["GamepadLeftX deadzone=2"]: axis binding "GamepadLeftX deadzone=2": deadzone "2" is not a number from 0 to less than 1`},
	}
	for _, tt := range tests {
		_, err := config.Parse("game.toml", []byte(tt.doc), config.Default())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q)\ngot  %v\nwant %s", tt.doc, err, tt.want)
		}
	}
	c, err := config.Parse("game.toml", []byte("[input.bindings]\njump = [\"space\", \"GamepadA\", \"Esc\"]\nmove = [\"A/D\", \"GamepadLeftX\", \"/Down invert\"]\n"), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Bindings["jump"]; len(got) != 3 || got[1] != "GamepadA" {
		t.Errorf("bindings = %v", c.Bindings)
	}
}

// actionsOf registers button actions and, after a "~", analog ones.
func actionsOf(t *testing.T, names ...string) *input.Actions {
	t.Helper()
	a := input.NewActions()
	analog := false
	for _, n := range names {
		if n == "~" {
			analog = true
			continue
		}
		var err error
		if analog {
			_, err = a.RegisterAxis(n)
		} else {
			_, err = a.Register(n)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return a
}

// A binding for an action the game never registered is an error naming
// the file, the key and the nearest registered action; each text must suit
// its action's kind.
func TestCheckBindings(t *testing.T) {
	c, err := config.Parse("game.toml", []byte("[input.bindings]\nlanch = [\"Space\"]\njump = [\"W\"]\nmove_x = [\"A/D\", \"GamepadLeftX deadzone=0.2\"]\n"), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Set("input.bindings.fier=MouseLeft"); err != nil {
		t.Fatal(err)
	}
	lanch := `config: game.toml: input.bindings.lanch = ["Space"]: the game registers no action "lanch"`
	fier := `config: command line: input.bindings.fier = ["MouseLeft"]: the game registers no action "fier"`
	tests := []struct {
		actions *input.Actions
		want    string
	}{
		{actionsOf(t, "jump", "launch", "fire", "~", "move_x"),
			fier + ` (did you mean "fire"?); allowed: an action the game registers: "fire", "jump", "launch", "move_x"` + "\n" +
				lanch + ` (did you mean "launch"?); allowed: an action the game registers: "fire", "jump", "launch", "move_x"`},
		{actionsOf(t, "jump", "launch", "fire", "fier", "lanch", "~", "move_x"), ""},
		{actionsOf(t), fier + "; allowed: none: the game registers no actions\n" +
			`config: game.toml: input.bindings.jump = ["W"]: the game registers no action "jump"; allowed: none: the game registers no actions` + "\n" +
			lanch + "; allowed: none: the game registers no actions\n" +
			`config: game.toml: input.bindings.move_x = ["A/D", "GamepadLeftX deadzone=0.2"]: the game registers no action "move_x"; allowed: none: the game registers no actions`},
		// Axis texts for a button action, a button name for an analog one.
		{actionsOf(t, "jump", "fier", "lanch", "move_x", "~", "unused"),
			`config: game.toml: input.bindings.move_x = ["A/D", "GamepadLeftX deadzone=0.2"]: unknown button name "A/D"`},
		{actionsOf(t, "fier", "lanch", "~", "jump", "move_x"), ""},
	}
	for i, tt := range tests {
		got := ""
		if err := c.CheckBindings(tt.actions); err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
			t.Errorf("CheckBindings, case %d\ngot  %s\nwant %s", i, got, tt.want)
		}
	}
	many := actionsOf(t, "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b1", "b2", "b3", "jump", "fire", "~", "move_x")
	err = c.CheckBindings(many)
	if err == nil || !strings.HasSuffix(err.Error(), `no action "lanch"; allowed: an action the game registers`) {
		t.Errorf("CheckBindings with many actions does not list them: %v", err)
	}
	// What CheckBindings accepts, Configure applies.
	ok := actionsOf(t, "jump", "fier", "lanch", "~", "move_x")
	if err := c.CheckBindings(ok); err != nil {
		t.Fatal(err)
	}
	if err := ok.Configure(c.Bindings); err != nil {
		t.Errorf("Configure refuses bindings CheckBindings accepted: %v", err)
	}
}

// The game's own config.toml may not bind an action registered with
// bindings: that would be a second place for its keys. A player's file and
// --set may, and the game's file may bind an action registered without
// any (issue 28).
func TestCheckOwnBindings(t *testing.T) {
	a := input.NewActions()
	a.MustRegister("jump", input.KeySpace, input.GamepadA)
	a.MustRegister("fire")
	a.MustRegisterAxis("move", input.ButtonAxis(input.KeyA, input.KeyD))
	c, err := config.Build(config.Layers{
		Embedded: []byte("[input.bindings]\njump = [\"Space\", \"GamepadA\"]\nfire = [\"MouseLeft\"]\nmove = [\"Left/Right\"]\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `config: embedded config.toml: input.bindings.jump = ["Space", "GamepadA"]: the game registers "jump" with bindings of its own ("Space", "GamepadA"), so this is a second place for its keys, and the one that wins; allowed: in the game's config.toml, bindings for actions registered without any; change a registered action's keys where it is registered (a player's config.toml and --set still rebind it)` + "\n" +
		`config: embedded config.toml: input.bindings.move = ["Left/Right"]: the game registers "move" with bindings of its own ("A/D")`
	if err := c.CheckOwnBindings(a); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("CheckOwnBindings\ngot  %v\nwant %s...", err, want)
	}
	// The same bindings from a player's file or --set are overrides.
	dir := t.TempDir()
	file := dir + "/player.toml"
	if err := os.WriteFile(file, []byte("[input.bindings]\njump = [\"W\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = config.Build(config.Layers{Embedded: []byte("[input.bindings]\nfire = [\"MouseLeft\"]\n"), File: file, Sets: []string{"input.bindings.move=Left/Right"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CheckOwnBindings(a); err != nil {
		t.Errorf("overrides from a player's file and --set: %v", err)
	}
}
