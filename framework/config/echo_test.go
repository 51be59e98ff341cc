package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
)

type livesSettings struct {
	Lives int `toml:"lives" range:"1,9"`
}

// TestLongValuesAreCut (issue 47 item 4): an error repeats a long value,
// key or action name cut to a prefix and its length, not in full (a
// 900,000-byte window.title gave a 900 KB line).
func TestLongValuesAreCut(t *testing.T) {
	file := func(t *testing.T, text string) string {
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct {
		name string
		l    config.Layers
		want string
	}{
		{"title", config.Layers{Sets: []string{"window.title=" + strings.Repeat("A", 900_000)}},
			`window.title = "AAAAAAAAAAAAAAAAAAAAAAAA…" (900,000 bytes)`},
		{"title in a file", config.Layers{Embedded: []byte("[window]\ntitle = \"" + strings.Repeat("A", 900_000) + "\"\n")},
			`window.title = "AAAAAAAAAAAAAAAAAAAAAAAA…" (900,000 bytes)`},
		{"lives", config.Layers{Game: &livesSettings{Lives: 3}, Sets: []string{"game.lives=" + strings.Repeat("9", 100_000)}},
			`game.lives = "999999999999999999999999…" (100,000 bytes)`},
		{"choice", config.Layers{Sets: []string{"timing.mode=" + strings.Repeat("x", 100_000)}},
			`timing.mode = "xxxxxxxxxxxxxxxxxxxxxxxx…" (100,000 bytes)`},
		{"key", config.Layers{Sets: []string{strings.Repeat("k", 100_000) + "=1"}},
			`"kkkkkkkkkkkkkkkkkkkkkkkk…" (100,000 bytes)`},
		{"no =", config.Layers{Sets: []string{strings.Repeat("k", 100_000)}},
			`"kkkkkkkkkkkkkkkkkkkkkkkk…" (100,000 bytes)`},
		{"action", config.Layers{File: file(t, "[input.bindings]\n\""+strings.Repeat("j", 5_000)+" \" = [\"Space\"]\n")},
			`"jjjjjjjjjjjjjjjjjjjjjjjj…" (5,001 bytes) is empty or has surrounding space`},
	} {
		_, err := config.Build(tc.l)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		msg := err.Error()
		if len(msg) > 400 || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %d-byte error %.300q, want one under 400 bytes with %q", tc.name, len(msg), msg, tc.want)
		}
	}
}
