package config_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/timing"
)

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Each layer overrides the one before, and every key remembers which one
// set it.
func TestBuildLayersAndSources(t *testing.T) {
	embedded := []byte("[timing]\nmode = \"fixed\"\nrate = 60\n[game]\nlives = 5\n[input.bindings]\njump = [\"Space\"]\n")
	file := writeFile(t, "config.toml", "[timing]\nrate = 30\n[game]\ndifficulty = \"hard\"\n")
	s := defaultSettings()
	c, err := config.Build(config.Layers{
		Game:     &s,
		Embedded: embedded,
		File:     file,
		Sets:     []string{"timing.rate=120", "game.lives=2"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.Timing.Mode != timing.FixedMode || c.Timing.Rate != timing.Hz(120) {
		t.Errorf("timing = %v at %v, want fixed at 120 Hz", c.Timing.Mode, c.Timing.Rate)
	}
	if g := decode(t, c); g.Lives != 2 || g.Difficulty != "hard" || g.Respawn != s.Respawn {
		t.Errorf("game settings = %+v", g)
	}
	embeddedSrc := config.Source{Origin: config.FromEmbedded, Name: "embedded config.toml"}
	fileSrc := config.Source{Origin: config.FromFile, Name: file}
	cmd := config.Source{Origin: config.FromCommandLine, Name: "command line"}
	def := config.Source{Origin: config.FromDefaults, Name: "default"}
	for key, want := range map[string]config.Source{
		"timing.mode":         embeddedSrc,
		"input.bindings.jump": embeddedSrc,
		"game.difficulty":     fileSrc,
		"timing.rate":         cmd,
		"game.lives":          cmd,
		"timing.step":         def,
		"game.respawn":        def,
	} {
		if got := c.Source(key); got != want {
			t.Errorf("Source(%s) = %+v, want %+v", key, got, want)
		}
	}
}

// Every problem in every layer is reported at once, each naming its layer.
func TestBuildReportsEveryLayer(t *testing.T) {
	s := defaultSettings()
	file := writeFile(t, "config.toml", "[window]\nwidth = 0\n[game]\nlifes = 3\n")
	_, err := config.Build(config.Layers{
		Game:         &s,
		Embedded:     []byte("[timing]\nmode = \"fixd\"\n"),
		EmbeddedName: "mygame/config.toml",
		File:         file,
		Sets:         []string{"timing.max_fixed_updates=0", "timing.recovery_prefix=3"},
	})
	if err == nil {
		t.Fatal("Build accepted bad layers")
	}
	want := []string{
		`config: mygame/config.toml: timing.mode = "fixd": unknown value (did you mean "fixed"?)`,
		"config: " + file + ": game.lifes: unknown key (did you mean game.lives?)",
		"config: " + file + ": window.width = 0: out of range",
		"config: command line: timing.max_fixed_updates = 0: out of range; allowed: 1 to 64",
		"config: command line: timing.recovery_prefix = 3: out of range; allowed: 0 to timing.max_fixed_updates (1)",
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("problem %d:\ngot  %s\nwant %s", i, lines[i], w)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.toml")
	tests := []struct {
		layers config.Layers
		want   string
	}{
		{config.Layers{File: missing}, "config: " + missing + ": cannot read the file: no such file or directory"},
		{config.Layers{Game: 3}, "config: WithGame needs a non-nil pointer to a struct, got int"},
		{config.Layers{Embedded: []byte("[game]\nx = 1\n")}, "config: embedded config.toml: game: the game declares no settings"},
		{config.Layers{Sets: []string{"polling.delivery=timestamped"}}, `config: command line: polling.delivery = "timestamped": needs fixed steps`},
		// A relation broken by a later layer is reported against the key's own source.
		{config.Layers{Embedded: []byte("[timing]\nrecovery_prefix = 2\nmax_fixed_updates = 2\n"), Sets: []string{"timing.max_fixed_updates=1"}},
			"config: embedded config.toml: timing.recovery_prefix = 2: out of range; allowed: 0 to timing.max_fixed_updates (1)"},
	}
	for _, tt := range tests {
		c, err := config.Build(tt.layers)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Build(%+v)\ngot  %v\nwant %s", tt.layers, err, tt.want)
		}
		if !reflect.DeepEqual(c, config.Config{}) {
			t.Errorf("a failed Build returned a configuration")
		}
	}
	if c, err := config.Build(config.Layers{}); err != nil || !sameValues(t, c, config.Default()) {
		t.Errorf("Build with no layers = %v, want the defaults", err)
	}
}

// The printed configuration names each value's source and parses back to
// the same values.
func TestEffectiveTOML(t *testing.T) {
	s := defaultSettings()
	file := writeFile(t, "config.toml", "[timing]\nrate = \"30000/1001\"\n[input.bindings]\n\"fire 2\" = [\"MouseLeft\"]\n")
	c, err := config.Build(config.Layers{Game: &s, Embedded: []byte("[window]\ntitle = \"Tab\\there \\\"quoted\\\"\"\n"), File: file,
		Sets: []string{"game.audio.volume=0.5", "timing.debt.gain=2"}})
	if err != nil {
		t.Fatal(err)
	}
	out := string(c.EffectiveTOML())
	for _, want := range []string{
		`title = "Tab\there \"quoted\""       # embedded config.toml`,
		`rate = "30000/1001"                  # ` + file,
		`gain = 2.0                           # command line`,
		`max_slow_down = 0.9                  # default`,
		"[input.bindings]\n" + `"fire 2" = ["MouseLeft"]             # ` + file,
		"[game]\nlives = 3                            # default",
		`levels = ["forest", "cave"]          # default`,
		"[game.audio]\nvolume = 0.5                         # command line",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("EffectiveTOML lacks %q:\n%s", want, out)
		}
	}
	back, err := config.Parse("printed.toml", []byte(out), withGame(t))
	if err != nil {
		t.Fatalf("the printed configuration does not parse: %v\n%s", err, out)
	}
	if !sameValues(t, back, c) {
		t.Errorf("the printed configuration reads back differently")
	}
}

func TestFileBesideExecutable(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip("no executable path on this system")
	}
	exe, _ = filepath.EvalSymlinks(exe)
	path, ok := config.FileBesideExecutable("no-such-config.toml")
	if ok || path != filepath.Join(filepath.Dir(exe), "no-such-config.toml") {
		t.Errorf("FileBesideExecutable(missing) = %q, %v", path, ok)
	}
	name := filepath.Base(exe) // the test binary itself is beside itself
	if path, ok := config.FileBesideExecutable(name); !ok || path != exe {
		t.Errorf("FileBesideExecutable(%q) = %q, %v; want %q, true", name, path, ok, exe)
	}
}
