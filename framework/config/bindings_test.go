package config_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
)

// Button names are checked when the file is read, before a window opens.
func TestBindingNames(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"[input.bindings]\njump = [\"Spcae\"]\n", `config: game.toml: input.bindings.jump = ["Spcae"]: unknown button name "Spcae" (did you mean "Space"?)`},
		{"[input.bindings]\njump = [\"Space\", \"Nothing\", \"Escpe\"]\n", `input.bindings.jump = ["Space", "Nothing", "Escpe"]: unknown button name "Nothing" (names look like`},
		{"[input.bindings]\njump = [\"Space\", \"Escpe\"]\n", `input.bindings.jump = ["Space", "Escpe"]: unknown button name "Escpe" (did you mean "Escape"?)`},
		{"[input.bindings]\njump = []\n", `config: game.toml: input.bindings.jump = []: no key or button names; list at least one, such as ["Space"]`},
		{"[input.bindings]\njump = [1]\n", `config: game.toml: input.bindings.jump = [1]: want a list of strings such as ["Space", "MouseLeft"], but an element is an integer`},
		{"[input.bindings]\njump = \"Space\"\n", `input.bindings.jump = "Space": want a list of strings such as ["Space", "MouseLeft"], got the string "Space"`},
		{"[input.bindings]\n\" jump\" = [\"Space\"]\n", `input.bindings. jump = ["Space"]: the action name " jump" is empty or has surrounding space`},
	}
	for _, tt := range tests {
		_, err := config.Parse("game.toml", []byte(tt.doc), config.Default())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q)\ngot  %v\nwant %s", tt.doc, err, tt.want)
		}
	}
	c, err := config.Parse("game.toml", []byte("[input.bindings]\njump = [\"space\", \"GamepadA\", \"Esc\"]\n"), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Bindings["jump"]; len(got) != 3 || got[1] != "GamepadA" {
		t.Errorf("bindings = %v", c.Bindings)
	}
}

// A binding for an action the game never registered is an error naming
// the file, the key and the nearest registered action.
func TestCheckBindings(t *testing.T) {
	c, err := config.Parse("game.toml", []byte("[input.bindings]\nlanch = [\"Space\"]\njump = [\"W\"]\nzap = [\"Z\"]\n"), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Set("input.bindings.fier=MouseLeft"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		actions []string
		want    string
	}{
		{[]string{"jump", "launch", "fire", "zap"},
			`config: command line: input.bindings.fier = ["MouseLeft"]: the game registers no action "fier" (did you mean "fire"?); allowed: an action the game registers: "fire", "jump", "launch", "zap"` + "\n" +
				`config: game.toml: input.bindings.lanch = ["Space"]: the game registers no action "lanch" (did you mean "launch"?); allowed: an action the game registers: "fire", "jump", "launch", "zap"`},
		{[]string{"jump", "launch", "fire", "zap", "fier", "lanch"}, ""},
		{nil, `config: command line: input.bindings.fier = ["MouseLeft"]: the game registers no action "fier"; allowed: none: the game registers no actions` + "\n" +
			`config: game.toml: input.bindings.jump = ["W"]: the game registers no action "jump"; allowed: none: the game registers no actions` + "\n" +
			`config: game.toml: input.bindings.lanch = ["Space"]: the game registers no action "lanch"; allowed: none: the game registers no actions` + "\n" +
			`config: game.toml: input.bindings.zap = ["Z"]: the game registers no action "zap"; allowed: none: the game registers no actions`},
	}
	for _, tt := range tests {
		err := c.CheckBindings(tt.actions)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckBindings(%q)\ngot  %s\nwant %s", tt.actions, got, tt.want)
		}
	}
	many := []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b1", "b2", "b3", "jump", "zap", "fire"}
	err = c.CheckBindings(many)
	if err == nil || !strings.HasSuffix(err.Error(), `no action "lanch"; allowed: an action the game registers`) {
		t.Errorf("CheckBindings with many actions does not list them: %v", err)
	}
}
