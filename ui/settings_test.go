package ui_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/ui"
)

type options struct {
	Volume int     `range:"0,10"`
	Speed  float64 `range:"0.5,2.5"`
	Mode   string  `choice:"easy,normal,hard"`
	Music  bool
	Seeds  []string // not for a menu: left out
	Lives  uint8    `range:"1,5"`
}

// TestSettingsScreen edits the [game] table and a binding from an options
// screen driven by the keyboard, decodes the changed settings as the game
// would, uses the rebound key, saves, and reads the player's file back as
// the next start of the game would.
func TestSettingsScreen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	defaults := options{Volume: 5, Speed: 1, Mode: "normal", Lives: 2}
	cfg, err := config.Default().WithGame(&defaults)
	if err != nil {
		t.Fatal(err)
	}
	var (
		settings *ui.Settings
		live     = defaults
		saveErrs []error
		changed  input.Action
		save     input.Action
	)
	g := newGameWith(t, func(g *game) {
		changed = g.actions.MustRegister("changed")
		save = g.actions.MustRegister("save")
		var err error
		settings, err = ui.NewSettings(g.ui, ui.SettingsOptions{Config: cfg, Rebind: []input.Action{g.jump}, Path: path, Changed: changed, Save: save, Back: g.back})
		if err != nil {
			t.Fatal(err)
		}
		g.app.AddSystem(ecs.Update, ecs.System{Name: "apply", Run: func(ctx *ecs.Sys) {
			if ctx.Input.Pressed(changed) {
				c, err := settings.Config()
				if err == nil {
					err = c.DecodeGame(&live)
				}
				if err != nil {
					ctx.Fail(err)
				}
			}
			if ctx.Input.Pressed(save) {
				saveErrs = append(saveErrs, settings.Save())
			}
		}})
	}, func(g *game, b *ui.Builder) {
		root := b.Add(ecs.Entity{}, ui.VStack().At(0.5, 0.5).OnBack(g.back))
		b.Add(root, ui.Label("Options"))
		settings.Build(b, root)
	})
	g.wantFocus(t, "volume")
	g.tap(t, input.KeyRight)
	g.tap(t, input.KeyRight)
	g.tap(t, input.KeyDown)
	g.wantFocus(t, "speed")
	g.tap(t, input.KeyRight) // one step of 0.1
	for name, want := range map[string]string{"volume": "7", "speed": "1.1"} {
		if _, w := g.widget(t, name); w.Number() != want {
			t.Errorf("the %s slider shows %q, want %q", name, w.Number(), want)
		}
	}
	g.tap(t, input.KeyDown)
	g.tap(t, input.KeyEnter) // mode: hard
	g.tap(t, input.KeyDown)
	g.tap(t, input.KeyEnter) // music on
	g.tap(t, input.KeyDown)
	g.wantFocus(t, "lives")
	g.tap(t, input.KeyLeft) // 2 to 1, and no lower
	g.tap(t, input.KeyLeft)
	if live.Lives != 1 {
		t.Fatalf("lives %d, want 1", live.Lives)
	}
	if want := (options{Volume: 7, Speed: 1.1, Mode: "hard", Music: true}); live.Volume != want.Volume || live.Speed != want.Speed || live.Mode != want.Mode || live.Music != want.Music {
		t.Fatalf("the game decoded %+v, want %+v", live, want)
	}
	g.tap(t, input.KeyDown)
	g.wantFocus(t, "jump")
	g.tap(t, input.KeyEnter)
	g.tap(t, input.KeyJ)
	jumps := g.fired[g.jump]
	g.tap(t, input.KeyJ)
	if g.fired[g.jump] != jumps+1 {
		t.Fatal("the rebound key does not jump")
	}
	g.tap(t, input.KeyDown)
	g.wantFocus(t, "Save")
	g.tap(t, input.KeyEnter)
	if len(saveErrs) != 1 || saveErrs[0] != nil {
		t.Fatalf("saves: %v, want one that succeeded", saveErrs)
	}
	g.tap(t, input.KeyRight)
	g.tap(t, input.KeyEnter)
	if g.fired[g.back] != 1 {
		t.Fatal("Back did not fire")
	}

	// The next start of the game reads the file the screen wrote.
	next, err := config.Build(config.Layers{Game: &defaults, File: path})
	if err != nil {
		t.Fatalf("the saved file does not load: %v", err)
	}
	var got options
	if err := next.DecodeGame(&got); err != nil {
		t.Fatal(err)
	}
	if got.Volume != 7 || got.Speed != 1.1 || got.Mode != "hard" || !got.Music {
		t.Errorf("the saved file gives %+v", got)
	}
	actions := input.NewActions()
	actions.MustRegister("jump", input.KeySpace, input.GamepadY)
	if err := actions.Configure(next.Bindings); err != nil {
		t.Fatal(err)
	}
	if got, want := actions.BindingNames(1, false), []string{"GamepadY", "J"}; !slices.Equal(got, want) {
		t.Errorf("the saved file binds jump to %q, want %q", got, want)
	}
}

func TestNewSettingsRefusesNothingToShow(t *testing.T) {
	g := newGame(t)
	_, err := ui.NewSettings(g.ui, ui.SettingsOptions{Config: config.Default()})
	if err == nil {
		t.Fatal("NewSettings accepted a screen with nothing on it")
	}
}
