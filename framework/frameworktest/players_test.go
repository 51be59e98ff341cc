package frameworktest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
)

// presses is the world of setupPlayersGame: each player's presses.
type presses struct{ N [2]int32 }

// setupPlayersGame is a game of two players that takes the Players
// resource in its Setup, keeps the pointer and counts each player's
// presses in its world through it.
func setupPlayersGame() framework.Game {
	net := &framework.Net{Players: 2, Networks: []rollback.Network{netplay.UDPNetwork()}}
	return framework.Game{Net: net, Setup: func(s *framework.Setup) error {
		players := ecs.GetResource[rollback.Players](s.App.World())
		if players == nil {
			return errors.New("no Players resource in Setup")
		}
		var errs []error
		for p, k := range []input.Button{input.KeySpace, input.KeyA} {
			a, err := s.Actions.Register(string(rune('x'+p)), k)
			errs = append(errs, err)
			net.Seats = append(net.Seats, []input.Action{a})
		}
		count := &presses{}
		ecs.AddStateResource(s.App.World(), count)
		s.App.AddSystem(ecs.Update, ecs.System{Name: "count", Gameplay: true, Run: func(*ecs.Sys) {
			for p := range players.Len() {
				count.N[p] += int32(players.Input(p)[0].Presses)
			}
		}})
		return errors.Join(errs...)
	}}
}

// The framework adds the one Players resource before the game's Setup,
// so Setup can take it by itself, and the
// resource it took is the one every mode fills: two seats at one
// keyboard, and a match, whose session fills the same resource.
func TestSetupTakesThePlayersResource(t *testing.T) {
	const tick = time.Second / 60
	sets := []string{"timing.mode=fixed", "audio.enabled=false", "net.delay=2"}
	t.Run("local", func(t *testing.T) {
		sim, err := frameworktest.New(setupPlayersGame(), frameworktest.Options{Sets: sets})
		if err != nil {
			t.Fatal(err)
		}
		defer sim.Close()
		for i := range 3 {
			sim.Input.Tap(sim.At(time.Duration(10+20*i)*tick), input.KeySpace, 2*tick)
		}
		sim.Input.Tap(sim.At(30*tick), input.KeyA, 2*tick)
		if err := sim.RunTicks(90); err != nil {
			t.Fatal(err)
		}
		if got := ecs.GetResource[presses](sim.App.World()).N; got != [2]int32{3, 1} {
			t.Errorf("presses %v, want [3 1]", got)
		}
	})
	t.Run("match", func(t *testing.T) {
		peers, err := frameworktest.Match(setupPlayersGame, frameworktest.MatchOptions{
			Options: frameworktest.Options{Sets: append(sets, "runtime.frame_cap=60", "window.vsync=false", "net.hash_every=10")},
			For:     3 * time.Second,
			Script: func(peer int, sim *frameworktest.Sim) {
				for i := range 2 + peer {
					sim.Input.Tap(sim.At(time.Duration(20+30*i)*tick), input.KeySpace, 2*tick)
				}
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range peers {
			if got := ecs.GetResource[presses](p.App.World()).N; got != [2]int32{2, 3} {
				t.Errorf("peer %d counted presses %v, want [2 3]", i, got)
			}
		}
	})
}
