package main

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

// TestSettingsMatchConfig keeps config.toml's [game] table and
// defaultSettings the same, and checks that config.toml sets every key.
func TestSettingsMatchConfig(t *testing.T) {
	got := defaultSettings()
	cfg, err := config.Build(config.Layers{Game: &got, Embedded: configTOML})
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.DecodeGame(&got); err != nil {
		t.Fatal(err)
	}
	if want := defaultSettings(); got != want {
		t.Errorf("config.toml's [game] table gives %+v; defaultSettings %+v", got, want)
	}
	st := reflect.TypeFor[Settings]()
	for i := range st.NumField() {
		key := "game." + st.Field(i).Tag.Get("toml")
		if src := cfg.Source(key); src.Origin != config.FromEmbedded {
			t.Errorf("%s comes from %v; want config.toml to set it", key, src)
		}
	}
}

// TestBadSetting: a setting out of its range is refused before the game
// starts, naming the key and the range.
func TestBadSetting(t *testing.T) {
	_, err := frameworktest.New(newGame(), frameworktest.Options{Sets: []string{"game.jump_speed=5000"}})
	if err == nil || !strings.Contains(err.Error(), "jump_speed") || !strings.Contains(err.Error(), "1030") {
		t.Errorf("jump_speed=5000: got %v, want an error naming the key and its range", err)
	}
}

// TestDeterminism: the same script reaches the same world hash twice, in
// concurrent mode too, and a recording of it replays to that hash; a
// different script reaches another.
func TestDeterminism(t *testing.T) {
	const ticks = 600
	run := func(runFor int, record string, sets ...string) uint64 {
		sim, err := frameworktest.New(newGame(), frameworktest.Options{Record: record, Sets: slices.Concat(small, sets)})
		if err != nil {
			t.Fatal(err)
		}
		sim.Fakes.Renderer.Discard = true
		hold(sim, 1, input.KeyD, runFor)
		hold(sim, 78, input.KeySpace, 25)
		hold(sim, 300, input.KeySpace, 25)
		if err := sim.RunTicks(ticks); err != nil {
			t.Fatal(err)
		}
		h, err := sim.App.Hash()
		if err != nil {
			t.Fatal(err)
		}
		if progress(sim).Coins == 0 {
			t.Error("the scripted run took no coin: it tests too little")
		}
		return h.Total
	}
	rec := filepath.Join(t.TempDir(), "session.rec")
	a, b := run(400, rec), run(400, "")
	if a != b {
		t.Errorf("the same script twice: world hashes %#x and %#x", a, b)
	}
	if c := run(400, "", "runtime.mode=concurrent"); c != a {
		t.Errorf("concurrent mode: world hash %#x, sequential %#x", c, a)
	}
	if c := run(390, ""); c == a {
		t.Errorf("a different script: the same world hash %#x", c)
	}
	replay, err := frameworktest.NewReplay(newGame(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := replay.RunTicks(1 << 30); err != nil {
		t.Fatal(err)
	}
	h, err := replay.App.Hash()
	if err != nil {
		t.Fatal(err)
	}
	if replay.Ticks() != ticks || h.Total != a {
		t.Errorf("replay: %d ticks ending at hash %#x, want %d and %#x", replay.Ticks(), h.Total, ticks, a)
	}
}

// TestRebindJump rebinds jump to K as a player's config.toml or --set
// would: Space then does nothing and K jumps.
func TestRebindJump(t *testing.T) {
	sim := start(t, "input.bindings.jump=K")
	step(t, sim, 10)
	hold(sim, next(sim), input.KeySpace, 20)
	step(t, sim, 3)
	if _, p := player(t, sim); p.Vel.Y < 0 || !p.Grounded {
		t.Fatalf("Space, no longer bound, jumped: speed %v", p.Vel.Y)
	}
	hold(sim, next(sim)+5, input.KeyK, 20)
	step(t, sim, 7)
	if _, p := player(t, sim); p.Vel.Y >= 0 {
		t.Errorf("K, bound to jump, did not jump: speed %v", p.Vel.Y)
	}
}
