package demo_test

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// TestDashAndFireSounds: a dash and a shot each place their sound exactly
// at the span of the tick that made it plus the mixer's latency, as the
// harness's mixer renders it offline on the session's clock; the music
// loop is placed too, on its muted bus. The overlay shows the mixer's
// line.
func TestDashAndFireSounds(t *testing.T) {
	g, sim := newSimWith(t, demo.Options{Sprites: 10, Seed: 2}, frameworktest.Options{Sound: true},
		"timing.mode=fixed", "timing.rate=60", "audio.music_volume=0") // hear the effects alone
	// Note the span start of the ticks that dashed and fired.
	var dashes, shots []timing.Instant
	var seen demo.Player
	sim.App.AddSystem(ecs.PostUpdate, ecs.System{Name: "watch", Run: func(ctx *ecs.Sys) {
		_, p, ok := g.PlayerState()
		if !ok {
			return
		}
		if p.Dashes > seen.Dashes {
			dashes = append(dashes, ctx.Time.Start)
		}
		if p.Shots > seen.Shots {
			shots = append(shots, ctx.Time.Start)
		}
		seen = p
	}})
	tap(sim, 300*time.Millisecond, input.KeySpace)
	tap(sim, 700*time.Millisecond, input.KeyF)
	if err := sim.RunTicks(60); err != nil {
		t.Fatal(err)
	}
	if len(dashes) != 1 || len(shots) != 1 {
		t.Fatalf("got %d dashes and %d shots, want one each", len(dashes), len(shots))
	}
	if text := g.OverlayText(); !strings.Contains(text, "\naudio: latency 80 ms, voices ") {
		t.Errorf("overlay lacks the mixer's audio line:\n%s", text)
	}

	m := sim.Mixer()
	tl := m.Timeline()
	out := sim.Samples(time.Second + m.Options().Latency)
	left := make([]float32, len(out)/2)
	for i := range left {
		left[i] = out[2*i]
	}
	// Both effects start with a zero sample (their attack ramps up from
	// silence): the first sound is heard one frame after the placed one.
	var onsets []int64
	for i := 1; i < len(left); i++ {
		if left[i] != 0 && left[i-1] == 0 && (len(onsets) == 0 || int64(i) > onsets[len(onsets)-1]+4800) {
			onsets = append(onsets, int64(i-1))
		}
	}
	want := []int64{tl.Place(dashes[0]), tl.Place(shots[0])}
	if len(onsets) != 2 || onsets[0] != want[0] || onsets[1] != want[1] {
		t.Errorf("sounds start at frames %v, want %v (the dash's and the shot's tick spans plus 80 ms)", onsets, want)
	}
	st := m.Stats()
	if st.Placed != 3 || st.Late != 0 || st.Dropped != 0 {
		t.Errorf("placed/late/dropped: got %d/%d/%d, want 3/0/0 (dash, shot, music)", st.Placed, st.Late, st.Dropped)
	}
	if got := g.AudioStats(); got.Played != 2 || got.Started != 1 || got.Stopped != 1 || got.Errors != 0 {
		t.Errorf("ECS audio: got %d requests, %d sources started, %d stopped, %d errors (%v); want 2, 1 (the music), 1 (at shutdown), 0",
			got.Played, got.Started, got.Stopped, got.Errors, got.LastError)
	}
}

// TestSilentSound: without a mixer the demo runs silently, makes the same
// requests, and the overlay says why there is no sound.
func TestSilentSound(t *testing.T) {
	tests := []struct {
		name string
		sets []string
		want string
	}{
		{"no device", nil, "\naudio: off (this session has no sound output), requests 2 (silent)\n"},
		{"disabled", []string{"audio.enabled=false"}, "\naudio: off (audio.enabled = false), requests 2 (silent)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, sim := newSim(t, demo.Options{Sprites: 10, Seed: 2}, tt.sets...)
			tap(sim, 300*time.Millisecond, input.KeySpace)
			tap(sim, 700*time.Millisecond, input.KeyF)
			if err := sim.RunTicks(90); err != nil {
				t.Fatal(err)
			}
			if text := g.OverlayText(); !strings.Contains(text, tt.want) {
				t.Errorf("overlay lacks %q:\n%s", tt.want, text)
			}
		})
	}
}
