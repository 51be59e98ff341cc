package ecs_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// TestHandBuiltTickIsOrdinary gives the App ticks built as literals, the way
// a game's unit test does: the zero value of every flag must mean an
// ordinary tick, so cosmetic systems run on it (issue 14, defect 3), and
// only an explicit Quiet or Coarse skips them.
func TestHandBuiltTickIsOrdinary(t *testing.T) {
	tests := []struct {
		name string
		tick runtime.TickContext
		want bool
	}{
		{"delta only", runtime.TickContext{Update: timing.Update{Delta: 16 * time.Millisecond}}, true},
		{"fixed, final", runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: 10 * time.Millisecond, Final: true}}, true},
		{"quiet", runtime.TickContext{Update: timing.Update{Delta: 10 * time.Millisecond, Quiet: true}}, false},
		{"coarse", runtime.TickContext{Update: timing.Update{Delta: 10 * time.Millisecond, Coarse: true}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app, err := ecs.NewApp(ecs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ran := false
			app.AddSystem(ecs.Update, ecs.System{Name: "sparkle", Cosmetic: true, Run: func(*ecs.Sys) { ran = true }})
			if err := app.InitSimulation(nil); err != nil {
				t.Fatal(err)
			}
			if err := app.Update(&tt.tick); err != nil {
				t.Fatal(err)
			}
			if ran != tt.want {
				t.Errorf("cosmetic system ran: got %v, want %v", ran, tt.want)
			}
		})
	}
}
