package ui_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/ui"
)

// settings is a game's [game] table with the menus' theme in it.
type settings struct {
	Lives int      `range:"1,9"`
	Theme ui.Theme // [game.theme]
}

// TestThemeFromConfig restyles the menus from config.toml: the theme is
// a table of the game's settings, read with the framework's checks.
func TestThemeFromConfig(t *testing.T) {
	base, err := config.Default().WithGame(&settings{Lives: 3, Theme: ui.DefaultTheme()})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse("config.toml", []byte("[game.theme]\nfocus = \"#ff8000\"\nitem_height = 24\n"), base)
	if err != nil {
		t.Fatal(err)
	}
	var s settings
	if err := cfg.DecodeGame(&s); err != nil {
		t.Fatal(err)
	}
	if want := render2d.RGBA8(0xff, 0x80, 0, 0xff); s.Theme.Focus != want || s.Theme.ItemHeight != 24 {
		t.Fatalf("theme focus %v height %v, want %v and 24", s.Theme.Focus, s.Theme.ItemHeight, want)
	}
	if s.Theme.Text != ui.DefaultTheme().Text {
		t.Error("a key the file left out lost its default")
	}
	_, err = config.Parse("config.toml", []byte("[game.theme]\nfocus = \"orange\"\nitem_width = 0\n"), base)
	if err == nil {
		t.Fatal("a bad colour and a zero width were accepted")
	}
	for _, want := range []string{"game.theme.focus", "#RRGGBB", "game.theme.item_width = 0", "1 to 4096"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}
