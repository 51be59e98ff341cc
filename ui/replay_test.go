package ui_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/ui"
)

// played is the game state the menu game's own system keeps: what it did
// on the actions the menu fired.
type played struct {
	Starts int32
	Volume int32
	Name   string
}

// menuGame is a framework game with a title menu on a 320x180 screen; its
// Update system reads the actions the widgets fire, as it would keys.
func menuGame(u **ui.UI) framework.Game {
	return framework.Game{
		Title: "menu",
		Seed:  3,
		Setup: func(s *framework.Setup) error {
			nav, err := ui.RegisterNav(s.Actions)
			if err != nil {
				return err
			}
			start := s.Actions.MustRegister("start", input.KeyS)
			volume := s.Actions.MustRegister("volume")
			name := s.Actions.MustRegister("name")
			jump := s.Actions.MustRegister("jump", input.KeySpace)
			font, err := s.Assets.DefaultFont(12)
			if err != nil {
				return err
			}
			if err := s.App.SetScreen(render2d.Screen{Width: 320, Height: 180}); err != nil {
				return err
			}
			if *u, err = ui.Add(s.App, ui.Options{Actions: s.Actions, Nav: nav, Library: s.Assets, Font: font}); err != nil {
				return err
			}
			state := ecs.AddStateResource(s.App.World(), &played{})
			widgets := ecs.NewFilter1[ui.Widget](s.App.World())
			s.App.AddSystem(ecs.Startup, ecs.System{Name: "menu", Run: func(ctx *ecs.Sys) {
				b := ui.NewBuilder(ctx.Commands)
				root := b.Add(ecs.Entity{}, ui.VStack().At(0.5, 0.5))
				b.Add(root, ui.Label("Title"))
				b.Add(root, ui.Button("Start", start))
				b.Add(root, ui.Slider("Volume", 5, 0, 10, 1, volume))
				b.Add(root, ui.TextField("Name", "", 12, name))
				b.Add(root, ui.Binding("Jump", jump))
			}})
			s.App.AddSystem(ecs.Update, ecs.System{Name: "react", Run: func(ctx *ecs.Sys) {
				state.Starts += int32(ctx.Input.Presses(start) + ctx.Input.Presses(jump))
				if ctx.Input.Pressed(volume) || ctx.Input.Pressed(name) {
					for q := widgets.Query(); q.Next(); {
						switch w := q.Get(); w.Text {
						case "Volume":
							state.Volume = w.Value
						case "Name":
							state.Name = w.Input
						}
					}
				}
			}})
			return nil
		},
	}
}

// scriptMenu plays the menu with the gamepad, the keyboard and the mouse:
// start, volume up by the stick, a name typed, jump rebound to J and used.
func scriptMenu(sim *frameworktest.Sim) {
	at := func(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }
	in := sim.Input
	tap := func(ms int, b input.Button) { in.Tap(sim.At(at(ms)), b, 5*time.Millisecond) }
	tap(100, input.GamepadA)        // Start
	tap(200, input.GamepadDpadDown) // Volume
	in.Axis(sim.At(at(300)), input.GamepadLeftX, 0.8)
	in.Axis(sim.At(at(350)), input.GamepadLeftX, 0)
	in.Axis(sim.At(at(400)), input.GamepadLeftX, 1)
	in.Axis(sim.At(at(450)), input.GamepadLeftX, 0)
	tap(500, input.KeyDown) // Name
	tap(600, input.KeyEnter)
	in.Text(sim.At(at(700)), "Ada")
	tap(800, input.KeyEnter)
	tap(900, input.KeyDown) // Jump
	tap(1000, input.GamepadA)
	tap(1100, input.KeyJ)
	tap(1200, input.KeyJ)                    // jumps
	in.Cursor(sim.At(at(1400)), 4*160, 4*66) // over Start
	tap(1500, input.MouseLeft)
}

// TestRecordingReplaysMenuUse records a session of menu use and replays
// it: the replay passes every checkpoint and ends with the same world
// hash, the same widget values and the same game state, with nothing of
// the menu recorded but the input.
func TestRecordingReplaysMenuUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "menu.rec")
	var u *ui.UI
	sim, err := frameworktest.New(menuGame(&u), frameworktest.Options{Record: path, Sets: []string{"timing.mode=fixed"}})
	if err != nil {
		t.Fatal(err)
	}
	scriptMenu(sim)
	if err := sim.RunTicks(120); err != nil {
		t.Fatal(err)
	}
	want, err := sim.App.Hash()
	if err != nil {
		t.Fatal(err)
	}
	wantState := *ecs.GetResource[played](sim.App.World())
	if wantState != (played{Starts: 3, Volume: 7, Name: "Ada"}) {
		t.Fatalf("the session played %+v, want 3 starts (button, J, click), volume 7, name Ada", wantState)
	}
	var ru *ui.UI
	rep, err := frameworktest.NewReplay(menuGame(&ru), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.RunTicks(1 << 20); err != nil {
		t.Fatalf("replay: %v", err)
	}
	got, err := rep.App.Hash()
	if err != nil {
		t.Fatal(err)
	}
	if got.Total != want.Total || rep.Ticks() != 120 {
		t.Fatalf("replay: %d ticks, hash %x; want 120 and %x", rep.Ticks(), got.Total, want.Total)
	}
	if gotState := *ecs.GetResource[played](rep.App.World()); gotState != wantState {
		t.Fatalf("replay played %+v, want %+v", gotState, wantState)
	}
}

// TestMenuUnderSyncTest runs the same play in sync-test mode: every tick
// is rolled back and run again, firing the widgets' actions again, and
// every hash must match.
func TestMenuUnderSyncTest(t *testing.T) {
	var u *ui.UI
	sim, err := frameworktest.New(menuGame(&u), frameworktest.Options{SyncTest: 4, Sets: []string{"timing.mode=fixed"}})
	if err != nil {
		t.Fatal(err)
	}
	scriptMenu(sim)
	if err := sim.RunTicks(120); err != nil {
		t.Fatal(err)
	}
	st, _ := sim.SyncTestStats()
	if st.Checked == 0 {
		t.Fatalf("sync-test checked nothing: %+v", st)
	}
	if got := ecs.GetResource[played](sim.App.World()); got.Starts != 3 || got.Volume != 7 {
		t.Fatalf("played %+v under sync-test, want 3 starts and volume 7", *got)
	}
}
