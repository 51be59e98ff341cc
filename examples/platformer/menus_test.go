package main

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/ui"
)

// menuUI reads the menus of a session: widgets by caption, the focus.
type menuUI struct{ sim *frameworktest.Sim }

func ecsUI(sim *frameworktest.Sim) menuUI { return menuUI{sim} }

// Find returns the widget whose caption is text, or the zero Entity.
func (m menuUI) Find(text string) ecs.Entity {
	q := ecs.NewFilter1[ui.Widget](m.sim.App.World()).Query()
	defer q.Close()
	for q.Next() {
		if q.Get().Text == text {
			return q.Entity()
		}
	}
	return ecs.Entity{}
}

// Number returns the number the slider w shows.
func (m menuUI) Number(w ecs.Entity) string {
	widgets := ecs.NewMap[ui.Widget](m.sim.App.World())
	return widgets.Get(w).Number()
}

// State returns the UI's state resource (the focus).
func (m menuUI) State() *ui.State { return ecs.GetResource[ui.State](m.sim.App.World()) }

// TestTitleMenu: the game opens on the title menu over the level, its
// first button focused; Enter (the UI's accept) on Play starts playing,
// and Escape in play goes back to the title.
func TestTitleMenu(t *testing.T) {
	sim := start(t, "game.title=true")
	step(t, sim, 3)
	if got := screen(sim); got != Title {
		t.Fatalf("screen %v, want the title", got)
	}
	u := ecsUI(sim)
	play := u.Find("Play")
	if play.IsZero() || u.State().Focus != play {
		t.Fatalf("the Play button %v, focus %v: want Play focused", play, u.State().Focus)
	}
	hold(sim, next(sim), input.KeyEnter, 2)
	stepUntil(t, sim, 5, "playing", func() bool { return screen(sim) == Playing })
	step(t, sim, 2)
	if !u.Find("Play").IsZero() {
		t.Error("the title menu is still there in play")
	}
	hold(sim, next(sim), input.KeyEscape, 2)
	stepUntil(t, sim, 5, "back at the title", func() bool { return screen(sim) == Title })
}

// savingTo saves the options to file whatever the configuration ("" saves
// nothing).
func savingTo(file string) func(config.Config) string {
	return func(config.Config) string { return file }
}

// startWithFlags starts the game as its main does, on the configuration
// the command line args load (--config, --set), with the game's own
// choice of the player's file; the session is closed when the test ends.
func startWithFlags(t *testing.T, args ...string) *frameworktest.Sim {
	t.Helper()
	var f framework.Flags
	fs := flag.NewFlagSet("platformer", flag.ContinueOnError)
	f.Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	g := newGame()
	cfg, _, err := f.LoadConfig(g)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := frameworktest.New(g, frameworktest.Options{Config: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	return sim
}

// TestOptionsSaveToConfigFlag: started with --config, the options screen
// saves into that file, keeping the player's other keys, and a second
// start with the same flag runs with the change: one step right on
// run_speed (120 to 150 px/s).
func TestOptionsSaveToConfigFlag(t *testing.T) {
	file := filepath.Join(t.TempDir(), "settings.toml")
	if err := os.WriteFile(file, []byte("[window]\nwidth = 240\nheight = 135\n\n[game]\ntitle = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sim := startWithFlags(t, "--config", file)
	step(t, sim, 3)
	press := func(b input.Button) {
		t.Helper()
		hold(sim, next(sim), b, 2)
		step(t, sim, 4)
	}
	press(input.KeyDown)
	press(input.KeyEnter)
	if got := screen(sim); got != Options {
		t.Fatalf("after Down and Enter: screen %v, want the options", got)
	}
	focusOn(t, sim, press, "run_speed")
	press(input.KeyRight)
	focusOn(t, sim, press, "Save")
	press(input.KeyEnter)
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"width = 240", "run_speed = 150.0"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the saved file has no %q:\n%s", want, data)
		}
	}

	again := startWithFlags(t, "--config", file, "--set", "game.title=false")
	step(t, again, 5)
	x0 := feet(t, again).X
	hold(again, next(again), input.KeyD, 60)
	step(t, again, 30)
	if got := feet(t, again).X - x0; got < 73 || got > 77 {
		t.Errorf("the second start ran %v pixels in 30 ticks, want 75 (the saved 150 px/s)", got)
	}
}

// openOptions starts a session saving to playerFile, opens the options
// screen from the title with Down and Enter, and returns the session and
// a function that taps a key and lets the menu act on it.
func openOptions(t *testing.T, playerFile string) (*frameworktest.Sim, func(input.Button)) {
	t.Helper()
	return openOptionsWith(t, playerFile, frameworktest.Options{})
}

// openOptionsWith is openOptions with more options (a recording).
func openOptionsWith(t *testing.T, playerFile string, opts frameworktest.Options) (*frameworktest.Sim, func(input.Button)) {
	t.Helper()
	opts.Sets = slices.Concat(small, []string{"game.title=true"}, opts.Sets)
	sim, err := frameworktest.New(newGameSaving(savingTo(playerFile)), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	step(t, sim, 3)
	press := func(b input.Button) {
		t.Helper()
		hold(sim, next(sim), b, 2)
		step(t, sim, 4)
	}
	press(input.KeyDown)
	press(input.KeyEnter)
	if got := screen(sim); got != Options {
		t.Fatalf("after Down and Enter: screen %v, want the options", got)
	}
	return sim, press
}

// focusOn presses Down until the widget captioned text has the focus.
func focusOn(t *testing.T, sim *frameworktest.Sim, press func(input.Button), text string) ecs.Entity {
	t.Helper()
	u := ecsUI(sim)
	w := u.Find(text)
	if w.IsZero() {
		t.Fatalf("no widget %q in the options", text)
	}
	for range 12 {
		if u.State().Focus == w {
			return w
		}
		press(input.KeyDown)
	}
	t.Fatalf("Down never reached %q", text)
	return w
}

// TestOptionsRebindJumpAndSave rebinds jump in the options screen with
// the keys alone, uses it, saves, and loads the written file back: Enter
// on the jump's row and K bind jump to K; Save writes the player's file;
// Escape and Enter play, where Space no longer jumps and K does. A new
// session on the configuration loaded from that file jumps with K too.
func TestOptionsRebindJumpAndSave(t *testing.T) {
	file := filepath.Join(t.TempDir(), "config.toml")
	sim, press := openOptions(t, file)
	for _, want := range []string{"left", "right", "jump", "run_speed", "jump_speed", "title", "Save", "Back"} {
		if ecsUI(sim).Find(want).IsZero() {
			t.Errorf("the options screen has no %q", want)
		}
	}
	q := ecs.NewFilter1[ui.Widget](sim.App.World()).Query()
	for q.Next() {
		if r := q.Get().Rect; r.X < 0 || r.Y < 0 || r.X+r.W > 480 || r.Y+r.H > 270 {
			t.Errorf("widget %q at %+v: off the 480x270 screen", q.Get().Text, r)
		}
	}
	q.Close()
	focusOn(t, sim, press, "jump")
	press(input.KeyEnter)
	press(input.KeyK)
	focusOn(t, sim, press, "Save")
	press(input.KeyEnter)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("Save wrote no player file: %v", err)
	}
	press(input.KeyEscape)
	press(input.KeyEnter)
	if got := screen(sim); got != Playing {
		t.Fatalf("after Escape and Enter: screen %v, want playing", got)
	}
	jumpsWithK(t, sim)

	// The file loads as the game's configuration loads it: the embedded
	// config.toml, then the player's file on top.
	settings := defaultSettings()
	base, err := config.Default().WithGame(&settings)
	if err != nil {
		t.Fatal(err)
	}
	if base, err = config.Parse("config.toml (embedded)", configTOML, base); err != nil {
		t.Fatal(err)
	}
	loaded, err := config.Parse(file, data, base)
	if err != nil {
		t.Fatalf("the saved file does not load: %v\n%s", err, data)
	}
	for _, set := range small {
		if err := loaded.Set(set); err != nil {
			t.Fatal(err)
		}
	}
	var saved Settings
	if err := loaded.DecodeGame(&saved); err != nil {
		t.Fatal(err)
	}
	want := defaultSettings()
	want.Title = false // the test window's overrides, set after the file
	if saved != want {
		t.Errorf("saving the settings untouched changed them: %+v, want %+v", saved, want)
	}
	again, err := frameworktest.New(newGameSaving(savingTo("")), frameworktest.Options{Config: &loaded})
	if err != nil {
		t.Fatalf("a session on the saved file: %v\n%s", err, data)
	}
	t.Cleanup(func() { _ = again.Close() })
	step(t, again, 3)
	jumpsWithK(t, again)
}

// jumpsWithK checks a playing session: Space does not jump, K does.
func jumpsWithK(t *testing.T, sim *frameworktest.Sim) {
	t.Helper()
	step(t, sim, 10)
	hold(sim, next(sim), input.KeySpace, 20)
	step(t, sim, 3)
	if _, p := player(t, sim); p.Vel.Y < 0 || !p.Grounded {
		t.Fatalf("Space, no longer bound to jump, jumped: speed %v", p.Vel.Y)
	}
	hold(sim, next(sim)+5, input.KeyK, 20)
	step(t, sim, 7)
	if _, p := player(t, sim); p.Vel.Y >= 0 {
		t.Errorf("K, bound in the options menu, did not jump: speed %v", p.Vel.Y)
	}
}

// TestReplayDoesNotSave: a replay runs the recorded Save again but writes
// no file; the recorded session wrote one.
func TestReplayDoesNotSave(t *testing.T) {
	dir := t.TempDir()
	file, rec := filepath.Join(dir, "config.toml"), filepath.Join(dir, "session.rec")
	sim, press := openOptionsWith(t, file, frameworktest.Options{Record: rec})
	focusOn(t, sim, press, "Save")
	press(input.KeyEnter)
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("the recorded session's Save wrote no file: %v", err)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	replay, err := frameworktest.NewReplay(newGameSaving(savingTo(file)), rec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = replay.Close() })
	if err := replay.RunTicks(1 << 30); err != nil {
		t.Fatal(err)
	}
	if replay.Ticks() != sim.Ticks() || screen(replay) != Options {
		t.Fatalf("the replay ran %d ticks to %v, the session %d to the options", replay.Ticks(), screen(replay), sim.Ticks())
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the replay wrote the player file (stat: %v)", err)
	}
}

// TestOptionsSettingTakesEffect: Right on the run_speed slider raises it
// one step (30 px/s of its 30..630) and the player then runs at 150 px/s.
func TestOptionsSettingTakesEffect(t *testing.T) {
	sim, press := openOptions(t, "")
	speed := focusOn(t, sim, press, "run_speed")
	if got := ecsUI(sim).Number(speed); got != "120" {
		t.Errorf("the run_speed slider shows %q, want 120", got)
	}
	press(input.KeyRight)
	if got := ecsUI(sim).Number(speed); got != "150" {
		t.Errorf("a step right: the run_speed slider shows %q, want 150", got)
	}
	press(input.KeyEscape)
	press(input.KeyEnter)
	if got := screen(sim); got != Playing {
		t.Fatalf("after Escape and Enter: screen %v, want playing", got)
	}
	step(t, sim, 5)
	x0 := feet(t, sim).X
	hold(sim, next(sim), input.KeyD, 60)
	step(t, sim, 30)
	if got := feet(t, sim).X - x0; got < 73 || got > 77 {
		t.Errorf("ran %v pixels in 30 ticks, want 75 (150 px/s)", got)
	}
}

// TestMenusWithGamepad drives the menus with a gamepad alone: d-pad down
// and A open the options, the d-pad moves to run_speed and steps it to
// 150, B goes back to the title, A plays, and the left stick runs at the
// new speed.
func TestMenusWithGamepad(t *testing.T) {
	sim := start(t, "game.title=true")
	sim.Input.Gamepad(sim.At(0), true)
	step(t, sim, 3)
	press := func(b input.Button) {
		t.Helper()
		hold(sim, next(sim), b, 2)
		step(t, sim, 4)
	}
	press(input.GamepadDpadDown)
	press(input.GamepadA)
	if got := screen(sim); got != Options {
		t.Fatalf("after d-pad down and A: screen %v, want the options", got)
	}
	u := ecsUI(sim)
	speed := u.Find("run_speed")
	for range 10 {
		if u.State().Focus == speed {
			break
		}
		press(input.GamepadDpadDown)
	}
	if u.State().Focus != speed {
		t.Fatal("the d-pad never reached run_speed")
	}
	press(input.GamepadDpadRight)
	if got := u.Number(speed); got != "150" {
		t.Errorf("d-pad right on run_speed: it shows %q, want 150", got)
	}
	press(input.GamepadB)
	if got := screen(sim); got != Title {
		t.Fatalf("after B: screen %v, want the title", got)
	}
	for range 3 {
		if u.State().Focus == u.Find("Play") {
			break
		}
		press(input.GamepadDpadUp)
	}
	press(input.GamepadA)
	if got := screen(sim); got != Playing {
		t.Fatalf("after A on Play: screen %v, want playing", got)
	}
	step(t, sim, 5)
	x0 := feet(t, sim).X
	sim.Input.Axis(sim.At(time.Duration(next(sim))*tick), input.GamepadLeftX, 1)
	step(t, sim, 30)
	if got := feet(t, sim).X - x0; got < 73 || got > 77 {
		t.Errorf("the left stick ran %v pixels in 30 ticks, want 75 (150 px/s)", got)
	}
}
