//go:build !js

package main

import (
	"path/filepath"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/inspect"
)

// The demo replayed under the inspector lists the sounds the game played
// at the ticks it played them: the recording run counts each tick's
// Sys.PlaySound requests (the Audio resource's Played), and the replay's
// timeline has as many "play" sounds on each of those ticks, named after
// the game's effects, and none on the others. A seek runs ticks again
// without adding theirs twice.
func TestInspectorTimelineListsTheSounds(t *testing.T) {
	const ticks = 900
	path, played, last := recordDemoSounds(t, ticks)
	rep, err := framework.InspectReplay(newGame(), path, inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		names := map[string]bool{"wall": true, "paddle": true, "brick": true, "power-up": true, "lost": true}
		got := 0
		for _, tk := range rep.Timeline(0, uint64(rep.Ticks())) {
			n := 0
			for _, s := range tk.Sounds {
				if s.Kind != "play" || !names[s.Name] || s.Voice == 0 || s.Bus != "effects" {
					t.Errorf("%s: tick %d has sound %+v; want a play of one of the game's effects on the effects bus", when, tk.Number, s)
				}
				n++
			}
			if n != played[tk.Number] {
				t.Errorf("%s: tick %d lists %d sounds; the game played %d", when, tk.Number, n, played[tk.Number])
			}
			got += n
		}
		if got != int(last) || rep.SoundCount() != got {
			t.Errorf("%s: the timeline lists %d sounds (SoundCount %d); the game played %d", when, got, rep.SoundCount(), last)
		}
	}
	check("after the replay")
	for _, tick := range []uint64{10, ticks / 2, ticks - 1} {
		if err := rep.Seek(tick); err != nil {
			t.Fatal(err)
		}
	}
	check("after seeks")
}

// recordDemoSounds records ticks of Breakout's demo and returns the
// recording, the number of sounds the game asked for on each tick that
// asked for some (the Audio resource's Played counter), and their total.
func recordDemoSounds(t *testing.T, ticks int) (string, map[uint64]int, uint64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "demo.rec")
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Record: path, Sound: true, Sets: []string{"game.demo=true"}})
	if err != nil {
		t.Fatal(err)
	}
	played := map[uint64]int{}
	var last uint64
	for range ticks {
		if err := sim.Step(1); err != nil {
			t.Fatal(err)
		}
		p := ecs.GetResource[ecs.Audio](sim.App.World()).Stats().Played
		if p != last {
			played[ecs.GetResource[ecs.Time](sim.App.World()).Number] = int(p - last)
		}
		last = p
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	if len(played) < 3 {
		t.Fatalf("the demo played sounds on %d ticks of %d: too few to test", len(played), ticks)
	}
	return path, played, last
}
