//go:build duel_drift

package main

import (
	"os"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
)

// A build with the duel_drift tag, run with DUEL_DRIFT=1, adds a point to
// the first player's score every tick from the second second on: its
// world hash differs from its peers', as a game whose simulation is not
// deterministic would. The desync test builds it; no shipped build has it.
func init() {
	testDrift = func(s *framework.Setup, r *Round) {
		if os.Getenv("DUEL_DRIFT") != "1" {
			return
		}
		n := 0
		s.App.AddSystem(ecs.Update, ecs.System{Name: "drift", Gameplay: true, Run: func(*ecs.Sys) {
			if n++; n > 120 {
				r.Score[0]++
			}
		}})
	}
}
