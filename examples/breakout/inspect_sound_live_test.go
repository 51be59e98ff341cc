//go:build !js

package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/inspect"
)

// A game inspected as it plays: /api/timeline lists the sounds each tick
// asked for, as the recording's replay does, from the follower's own
// tapped player; the game's sounds go to its mixer as without the
// inspector (every one placed).
func TestInspectorLiveTimelineListsTheSounds(t *testing.T) {
	const ticks = 600
	live := inspect.NewLive()
	sim, err := frameworktest.New(newGame(), frameworktest.Options{RecordTo: live, Sound: true, Sets: []string{"game.demo=true"}})
	if err != nil {
		t.Fatal(err)
	}
	followed := make(chan error, 1)
	go func() { followed <- framework.InspectLive(newGame(), live, inspect.Options{}) }()
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
	live.Close()
	if err := <-followed; err != nil {
		t.Fatal(err)
	}
	if len(played) < 3 {
		t.Fatalf("the demo played sounds on %d ticks: too few to test", len(played))
	}
	h, err := inspect.NewLiveHandler(live, inspect.ServerOptions{Name: "live"})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/timeline", nil))
	var tl struct{ Ticks []inspect.Tick }
	if err := json.Unmarshal(rec.Body.Bytes(), &tl); rec.Code != http.StatusOK || err != nil {
		t.Fatalf("/api/timeline: %d %v %.200s", rec.Code, err, rec.Body)
	}
	if len(tl.Ticks) < ticks-1 {
		t.Fatalf("the live timeline has %d ticks, want %d", len(tl.Ticks), ticks)
	}
	got := 0
	for _, tk := range tl.Ticks {
		n := 0
		for _, s := range tk.Sounds {
			if s.Kind == "play" && s.Name != "" {
				n++
			}
		}
		if n != played[tk.Number] {
			t.Errorf("tick %d lists %d plays; the game played %d", tk.Number, n, played[tk.Number])
		}
		got += n
	}
	if got != int(last) {
		t.Errorf("the live timeline lists %d plays; the game played %d", got, last)
	}
	if st := sim.Mixer().Stats(); st.Placed+st.Late+st.Dropped != last {
		t.Errorf("the game's mixer took %d sounds (%+v); the game played %d", st.Placed+st.Late+st.Dropped, st, last)
	}
}
