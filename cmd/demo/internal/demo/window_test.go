package demo_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
)

// TestFullscreenKey: each press of the fullscreen action asks the display
// to switch from the mode the window reports; the action can be rebound;
// a refusal shows on the panel's status line.
func TestFullscreenKey(t *testing.T) {
	tests := []struct {
		name string
		sets []string
		keys []input.Button
		want []bool
	}{
		{"F11 twice", nil, []input.Button{input.KeyF11, input.KeyF11}, []bool{true, false}},
		{"rebound to F10", []string{"input.bindings.fullscreen=F10"}, []input.Button{input.KeyF11, input.KeyF10}, []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, sim := newSim(t, demo.Options{Sprites: 5, Seed: 6}, tt.sets...)
			for i, k := range tt.keys {
				tap(sim, time.Duration(200+300*i)*time.Millisecond, k)
			}
			if err := sim.RunTicks(60); err != nil {
				t.Fatal(err)
			}
			if got := sim.Display.FullscreenCalls(); !slices.Equal(got, tt.want) {
				t.Errorf("SetFullscreen calls: got %v, want %v", got, tt.want)
			}
		})
	}
	t.Run("refused", func(t *testing.T) {
		g, sim := newSim(t, demo.Options{Sprites: 5, Seed: 6})
		sim.Display.Hook = func(method string) error {
			if method == "SetFullscreen" {
				return errors.New("no monitor")
			}
			return nil
		}
		tap(sim, 200*time.Millisecond, input.KeyF11)
		if err := sim.RunTicks(30); err != nil {
			t.Fatal(err)
		}
		if got := g.Panel().Status(); !strings.Contains(got, "fullscreen: refused") || !strings.Contains(got, "no monitor") {
			t.Errorf("panel status: got %q, want the refusal", got)
		}
	})
}

// TestFocusRowSwitchesLive: the panel's focus row changes the runtime's
// focus policy while the session runs.
func TestFocusRowSwitchesLive(t *testing.T) {
	g, sim := newSim(t, demo.Options{Sprites: 5, Seed: 6})
	defer sim.Close()
	if err := sim.Step(3); err != nil {
		t.Fatal(err)
	}
	p := g.Panel()
	for i := range p.Rows() {
		if p.Name(i) == "when unfocused" {
			p.Select(i)
		}
	}
	if err := p.Change(+1); err != nil {
		t.Fatal(err)
	}
	if got := sim.Runtime.FocusPolicy(); got != runtime.FocusPause {
		t.Errorf("runtime focus policy: got %v, want pause", got)
	}
	if err := sim.Step(3); err != nil {
		t.Fatal(err)
	}
}
