package framework_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework"
)

// A config.toml in the working directory configures a game that embeds no
// configuration, and is ignored by one that embeds its own (started from
// another program's directory, it must not take that program's file);
// --config still overrides both.
func TestWorkingDirectoryConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[window]\ntitle = \"from the working directory\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other.toml")
	if err := os.WriteFile(other, []byte("[window]\ntitle = \"from --config\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	embedded := []byte("[window]\ntitle = \"embedded\"\n")
	for _, tc := range []struct {
		name      string
		game      framework.Game
		flag      string
		title     string
		sourceHas string
	}{
		{"no embedded config", framework.Game{}, "", "from the working directory", "config.toml"},
		{"embedded config", framework.Game{Config: embedded}, "", "embedded", "the embedded config.toml"},
		{"embedded, --config", framework.Game{Config: embedded}, other, "from --config", other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := framework.Flags{Config: tc.flag}
			cfg, source, err := f.LoadConfig(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Window.Title != tc.title || !strings.Contains(source, tc.sourceHas) {
				t.Errorf("title %q from %q, want %q from %s", cfg.Window.Title, source, tc.title, tc.sourceHas)
			}
			if tc.game.Config != nil && tc.flag == "" && strings.Contains(source, ", config.toml") {
				t.Errorf("a game with an embedded config read the working directory's: %q", source)
			}
		})
	}
}
