package config_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework/config"
)

// settings is a game's own configuration, as a game would declare it.
type settings struct {
	Lives      int           `toml:"lives" range:"1,9"`
	Difficulty string        `toml:"difficulty" choice:"easy,normal,hard"`
	Respawn    time.Duration `toml:"respawn" range:"0s,10s"`
	Speed      float64       `range:"0.5,"`
	Cheats     bool
	Levels     []string `choice:"forest,cave,castle"`
	Seed       uint8
	internal   int //nolint:unused // unexported fields are not keys
	Skip       int `toml:"-"`
	Audio      struct {
		Volume float32 `range:"0,1"`
		Music  string
	}
}

func defaultSettings() settings {
	s := settings{Lives: 3, Difficulty: "normal", Respawn: 1500 * time.Millisecond, Speed: 1, Levels: []string{"forest", "cave"}, Seed: 7}
	s.Audio.Volume = 0.8
	s.Audio.Music = "theme.ogg"
	return s
}

func withGame(t testing.TB) config.Config {
	t.Helper()
	s := defaultSettings()
	c, err := config.Default().WithGame(&s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func decode(t testing.TB, c config.Config) settings {
	t.Helper()
	var s settings
	if err := c.DecodeGame(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// sameValues compares everything a game reads from two configurations,
// not where the values came from.
func sameValues(t testing.TB, a, b config.Config) bool {
	t.Helper()
	if a.Window != b.Window || a.Runtime != b.Runtime || a.Polling != b.Polling || !reflect.DeepEqual(a.Timing, b.Timing) {
		return false
	}
	if len(a.Bindings) != len(b.Bindings) || (len(a.Bindings) > 0 && !reflect.DeepEqual(a.Bindings, b.Bindings)) {
		return false
	}
	var ga, gb settings
	ea, eb := a.DecodeGame(&ga), b.DecodeGame(&gb)
	return (ea == nil) == (eb == nil) && reflect.DeepEqual(ga, gb)
}

func TestGameDefaultsComeFromTheStruct(t *testing.T) {
	c := withGame(t)
	if got, want := decode(t, c), defaultSettings(); !reflect.DeepEqual(got, want) {
		t.Errorf("decoded defaults = %+v, want %+v", got, want)
	}
	if got := c.Source("game.lives"); got.Origin != config.FromDefaults {
		t.Errorf("Source(game.lives) = %v, want defaults", got)
	}
}

func TestGameTable(t *testing.T) {
	doc := `
[game]
lives = 5
difficulty = "hard"
respawn = "2.5s"
speed = 3
cheats = true
levels = ["castle"]
seed = 255
[game.audio]
volume = 0.25
music = "boss.ogg"
`
	c, err := config.Parse("game.toml", []byte(doc), withGame(t))
	if err != nil {
		t.Fatal(err)
	}
	want := settings{Lives: 5, Difficulty: "hard", Respawn: 2500 * time.Millisecond, Speed: 3, Cheats: true, Levels: []string{"castle"}, Seed: 255}
	want.Audio.Volume, want.Audio.Music = 0.25, "boss.ogg"
	if got := decode(t, c); !reflect.DeepEqual(got, want) {
		t.Errorf("decoded = %+v, want %+v", got, want)
	}
	if got := c.Source("game.audio.volume"); got != (config.Source{Origin: config.FromFile, Name: "game.toml"}) {
		t.Errorf("Source(game.audio.volume) = %v", got)
	}
}

// The [game] table is as strict as the framework's keys, and every
// problem is reported at once.
func TestGameTableErrors(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"[game]\nlives = 0\n", "config: game.toml: game.lives = 0: out of range; allowed: 1 to 9"},
		{"[game]\nlives = 10\n", "config: game.toml: game.lives = 10: out of range; allowed: 1 to 9"},
		{"[game]\nlives = \"three\"\n", `config: game.toml: game.lives = "three": incompatible types: TOML value has type string; destination has type integer; allowed: 1 to 9`},
		{"[game]\nlifes = 3\n", "config: game.toml: game.lifes: unknown key (did you mean game.lives?)"},
		{"[game]\ndifficulty = \"hrad\"\n", `config: game.toml: game.difficulty = "hrad": unknown value (did you mean "hard"?); allowed: "easy", "normal", "hard"`},
		{"[game]\nrespawn = \"11s\"\n", `config: game.toml: game.respawn = "11s": out of range; allowed: 0s to 10s`},
		{"[game]\nrespawn = 3\n", `config: game.toml: game.respawn = 3: want a duration string such as "16ms" or "2s" (units ns, us, ms, s, m, h); allowed: 0s to 10s`},
		{"[game]\nspeed = 0.1\n", "config: game.toml: game.speed = 0.1: out of range; allowed: 0.5 or more"},
		{"[game]\nseed = 256\n", "config: game.toml: game.seed = 256: 256 is out of range for uint8; allowed: an integer from 0 to 255"},
		// A negative number does not wrap into an unsigned field.
		{"[game]\nseed = -1\n", "config: game.toml: game.seed = -1: -1 is out of range for uint8; allowed: an integer from 0 to 255"},
		{"[game]\nlevels = [\"forest\", \"cavern\"]\n", `game.levels = ["forest", "cavern"]: unknown value "cavern" (did you mean "cave"?); allowed: a list of "forest", "cave", "castle"`},
		{"[game.audio]\nvolume = 2.0\n", "config: game.toml: game.audio.volume = 2: out of range; allowed: 0 to 1"},
		{"[game.audo]\nvolume = 1.0\n", "game.audo: unknown key (did you mean game.audio?)"},
		{"[game]\naudio = 3\n", "config: game.toml: game.audio = 3: want a table ([game.audio])"},
		{"[game]\nskip = 3\n", "game.skip: unknown key"},
		{"[game]\nlives = 0\ndifficulty = \"x\"\n[game.audio]\nvolume = -1.0\n",
			"config: game.toml: game.audio.volume = -1: out of range; allowed: 0 to 1\n" +
				"config: game.toml: game.difficulty = \"x\": unknown value; allowed: \"easy\", \"normal\", \"hard\"\n" +
				"config: game.toml: game.lives = 0: out of range; allowed: 1 to 9"},
	}
	for _, tt := range tests {
		_, err := config.Parse("game.toml", []byte(tt.doc), withGame(t))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q)\ngot  %v\nwant %s", tt.doc, err, tt.want)
		}
	}
}

func TestGameSet(t *testing.T) {
	c := withGame(t)
	for _, a := range []string{"game.lives=7", "game.difficulty=easy", "game.respawn=0s", "game.levels=cave, castle", "game.audio.volume=0.5", "game.cheats=true"} {
		if err := c.Set(a); err != nil {
			t.Fatalf("Set(%q) = %v", a, err)
		}
	}
	got := decode(t, c)
	if got.Lives != 7 || got.Difficulty != "easy" || got.Respawn != 0 || !reflect.DeepEqual(got.Levels, []string{"cave", "castle"}) || got.Audio.Volume != 0.5 || !got.Cheats {
		t.Errorf("after Set: %+v", got)
	}
	if s := c.Source("game.lives"); s.Origin != config.FromCommandLine {
		t.Errorf("Source(game.lives) = %v", s)
	}
	for _, bad := range []struct{ a, want string }{
		{"game.lives=12", "config: command line: game.lives = 12: out of range; allowed: 1 to 9"},
		{"game.lifes=2", "config: command line: game.lifes: unknown key (did you mean game.lives?)"},
		{"game.difficulty=nightmare", `config: command line: game.difficulty = nightmare: unknown value; allowed: "easy", "normal", "hard"`},
		{"game.respawn=soon", `config: command line: game.respawn = soon: want a duration string`},
	} {
		if err := c.Set(bad.a); err == nil || !strings.HasPrefix(err.Error(), bad.want) {
			t.Errorf("Set(%q)\ngot  %v\nwant %s", bad.a, err, bad.want)
		}
	}
}

// A mistake in the settings struct is the game developer's, found at once.
func TestWithGameRefusesBadDeclarations(t *testing.T) {
	tests := []struct {
		settings any
		want     string
	}{
		{nil, "config: WithGame needs a non-nil pointer to a struct, got <nil>"},
		{settings{}, "config: WithGame needs a non-nil pointer to a struct, got config_test.settings"},
		{&struct{ M map[string]int }{}, "config: game settings M: type map[string]int is not supported"},
		{&struct {
			N int `range:"5,1"`
		}{N: 3}, `range "5,1": lo is above hi`},
		{&struct {
			N int `range:"x,1"`
		}{}, `range "x,1": "x": incompatible types: TOML value has type string; destination has type integer`},
		{&struct {
			N int `range:"1,9"`
		}{N: 0}, "config: game settings N: the default 0: out of range; allowed: 1 to 9"},
		{&struct {
			S string `choice:"a,b"`
		}{S: "c"}, `the default "c": unknown value (did you mean "a" or "b"?); allowed: "a", "b"`},
		{&struct {
			B bool `range:"0,1"`
		}{}, "range is for numbers and durations, not bool"},
		{&struct {
			N int `choice:"a"`
		}{}, "choice is for string fields, not int"},
		{&struct {
			A int `toml:"x"`
			B int `toml:"x"`
		}{}, "key game.x is used twice"},
		{&struct {
			A int `toml:"a.b"`
		}{}, `key "a.b": use letters, digits, _ and - only`},
	}
	for _, tt := range tests {
		_, err := config.Default().WithGame(tt.settings)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("WithGame(%T) = %v, want it to contain %q", tt.settings, err, tt.want)
		}
	}
}

func TestGameKeyNames(t *testing.T) {
	type embedded struct{ Shared int }
	s := struct {
		MaxLives   int
		HTTPPort   int
		Level2Boss string
		embedded
	}{}
	c, err := config.Default().WithGame(&s)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"game.max_lives=1", "game.http_port=2", "game.level2_boss=x", "game.shared=4"} {
		if err := c.Set(a); err != nil {
			t.Errorf("Set(%q) = %v", a, err)
		}
	}
}

func TestDecodeGame(t *testing.T) {
	var s settings
	if err := config.Default().DecodeGame(&s); err == nil || !strings.Contains(err.Error(), "no [game] table") {
		t.Errorf("DecodeGame without a game = %v", err)
	}
	var wrong struct{ Lives int }
	if err := withGame(t).DecodeGame(&wrong); err == nil || !strings.Contains(err.Error(), "needs a non-nil *config_test.settings") {
		t.Errorf("DecodeGame into another type = %v", err)
	}
	// The decoded value shares nothing with the configuration.
	c := withGame(t)
	a := decode(t, c)
	a.Levels[0] = "changed"
	if b := decode(t, c); b.Levels[0] != "forest" {
		t.Errorf("changing a decoded list changed the configuration: %v", b.Levels)
	}
	// Declaring the settings never changes the struct given.
	orig := defaultSettings()
	c, err := config.Default().WithGame(&orig)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Set("game.lives=9"); err != nil {
		t.Fatal(err)
	}
	if orig.Lives != 3 {
		t.Errorf("Set changed the struct given to WithGame: lives = %d", orig.Lives)
	}
}

// TestPrintedEmptyList: a list the settings leave nil prints as [] and
// reads back, so --print-config's output is always a valid file.
func TestPrintedEmptyList(t *testing.T) {
	s := defaultSettings()
	s.Levels = nil
	c, err := config.Default().WithGame(&s)
	if err != nil {
		t.Fatal(err)
	}
	printed := c.EffectiveTOML()
	if !strings.Contains(string(printed), "levels = []") {
		t.Errorf("EffectiveTOML lacks levels = []:\n%s", printed)
	}
	if _, err := config.Parse("printed.toml", printed, c); err != nil {
		t.Errorf("the printed configuration does not parse: %v", err)
	}
}
