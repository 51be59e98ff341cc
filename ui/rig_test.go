package ui_test

import (
	"github.com/metronome-go/metronome/assets"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
	"github.com/metronome-go/metronome/ui"
)

const step = 16 * time.Millisecond

// game is a menu under test: its actions, the widgets it spawned and what
// its Update system saw fired.
type game struct {
	actions                                *input.Actions
	nav                                    ui.Nav
	start, music, volume, mode, name, back input.Action
	quit, jump                             input.Action
	ui                                     *ui.UI
	app                                    *ecs.App
	lib                                    *assets.Library
	font                                   assets.Font
	fired                                  map[input.Action]int

	tick    input.Tick
	state   input.State
	now     timing.Instant
	n       uint64
	scripts [][]input.Record // every tick's records, for a replay
}

// newGame builds the test menu on a 320x180 logical screen shown in a
// 640x360 window:
//
//	Start
//	Music   [x]
//	Volume  [=====     ]
//	Mode    < normal >
//	Name    [        ]
//	[Back] [Quit]
//	Jump    Space GamepadY
func newGame(t testing.TB) *game {
	t.Helper()
	return newGameWith(t, nil, func(g *game, b *ui.Builder) {
		root := b.Add(ecs.Entity{}, ui.VStack().At(0.5, 0.5).OnBack(g.back))
		b.Add(root, ui.Button("Start", g.start))
		b.Add(root, ui.Toggle("Music", false, g.music))
		b.Add(root, ui.Slider("Volume", 5, 0, 10, 1, g.volume))
		b.Add(root, ui.Choice("Mode", []string{"easy", "normal", "hard"}, 1, g.mode))
		b.Add(root, ui.TextField("Name", "", 8, g.name))
		row := b.Add(root, ui.HStack())
		b.Add(row, ui.Button("Back", g.back).Sized(76, 0))
		b.Add(row, ui.Button("Quit", g.quit).Sized(76, 0))
		b.Add(root, ui.Binding("Jump", g.jump))
	})
}

// newGameWith builds a game whose Setup is setup (after the UI is added;
// nil for none) and whose Startup spawns the menu.
func newGameWith(t testing.TB, setup func(g *game), menu func(g *game, b *ui.Builder)) *game {
	t.Helper()
	g := &game{actions: input.NewActions(), fired: map[input.Action]int{}}
	var err error
	if g.nav, err = ui.RegisterNav(g.actions); err != nil {
		t.Fatal(err)
	}
	for _, a := range []struct {
		dst  *input.Action
		name string
		keys []input.Button
	}{
		{&g.start, "start", nil}, {&g.music, "music", nil}, {&g.volume, "volume", nil},
		{&g.mode, "mode", nil}, {&g.name, "name", nil}, {&g.back, "back", nil},
		{&g.quit, "quit", nil}, {&g.jump, "jump", []input.Button{input.KeySpace, input.GamepadY}},
	} {
		*a.dst = g.actions.MustRegister(a.name, a.keys...)
	}
	if g.app, err = ecs.NewApp(ecs.Options{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if err := g.app.SetScreen(render2d.Screen{Width: 320, Height: 180}); err != nil {
		t.Fatal(err)
	}
	if g.lib, err = assets.NewLibrary(assets.Options{}); err != nil {
		t.Fatal(err)
	}
	if g.font, err = g.lib.DefaultFont(12); err != nil {
		t.Fatal(err)
	}
	if g.ui, err = ui.Add(g.app, ui.Options{Actions: g.actions, Nav: g.nav, Library: g.lib, Font: g.font}); err != nil {
		t.Fatal(err)
	}
	if setup != nil {
		setup(g)
	}
	g.app.AddSystem(ecs.Startup, ecs.System{Name: "menu", Run: func(ctx *ecs.Sys) { menu(g, ui.NewBuilder(ctx.Commands)) }})
	g.app.AddSystem(ecs.Update, ecs.System{Name: "count", Run: func(ctx *ecs.Sys) {
		for a := input.Action(1); int(a) <= g.actions.Len(); a++ {
			if n := ctx.Input.Presses(a); n > 0 {
				g.fired[a] += n
			}
		}
	}})
	if err := g.app.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	g.state.Window = input.Window{Size: input.Size{Width: 640, Height: 360}, Framebuffer: input.Size{Width: 640, Height: 360}, Focused: true}
	g.step(t) // lays the menu out
	return g
}

// step runs one tick with the given records, stamped inside it.
func (g *game) step(t testing.TB, recs ...input.Record) {
	t.Helper()
	start := g.now
	g.now += timing.Instant(step)
	for i := range recs {
		recs[i].Time = start + timing.Instant(i+1)
	}
	g.scripts = append(g.scripts, recs)
	g.now = start
	g.run(t, recs)
}

// run runs one tick from start with recs, allocating nothing once warm.
func (g *game) run(t testing.TB, recs []input.Record) {
	t.Helper()
	start := g.now
	g.now += timing.Instant(step)
	g.tick.Fill(g.actions, start, g.now, g.state, recs)
	g.state = g.tick.State()
	g.n++
	tc := runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Delta: step, Steps: 1, Final: true, Number: g.n}, Input: &g.tick, Window: g.state.Window}
	if err := g.app.Update(&tc); err != nil {
		t.Fatal(err)
	}
}

// tap presses and releases b inside one tick.
func (g *game) tap(t testing.TB, b input.Button) {
	t.Helper()
	g.step(t, input.Record{Kind: input.RecordPress, Button: b}, input.Record{Kind: input.RecordRelease, Button: b})
}

// widget returns the widget captioned text, failing the test if there is
// none.
func (g *game) widget(t testing.TB, text string) (ecs.Entity, *ui.Widget) {
	t.Helper()
	e := g.ui.Find(text)
	w := g.ui.Widget(e)
	if w == nil {
		t.Fatalf("no widget %q", text)
	}
	return e, w
}

// focus returns the focused widget's caption.
func (g *game) focus() string {
	if w := g.ui.Widget(g.ui.State().Focus); w != nil {
		return w.Text
	}
	return ""
}

func (g *game) wantFocus(t testing.TB, want string) {
	t.Helper()
	if got := g.focus(); got != want {
		t.Fatalf("focus on %q, want %q", got, want)
	}
}

// cursorAt returns a cursor record at the logical point (x, y): the window
// is twice the logical screen.
func cursorAt(x, y float32) input.Record {
	return input.Record{Kind: input.RecordCursor, X: float64(2 * x), Y: float64(2 * y)}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
