package main

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
)

// windFrom is the tick from which windyGame's copy parts from the duel.
const windFrom = 300

// windyGame is the duel with one system more, "wind", that nudges every
// ship a little from tick windFrom on: a copy of the game whose
// simulation computes differently, as another machine's might.
func windyGame() framework.Game {
	g := newGame()
	setup := g.Setup
	g.Setup = func(s *framework.Setup) error {
		if err := setup(s); err != nil {
			return err
		}
		ships := ecs.NewFilter2[ecs.Transform, Ship](s.App.World())
		s.App.AddSystem(ecs.Update, ecs.System{Name: "wind", Gameplay: true, Run: func(ctx *ecs.Sys) {
			if ctx.Time.Number < windFrom {
				return
			}
			for q := ships.Query(); q.Next(); {
				tr, _ := q.Get()
				tr.Position.X += 1.0 / 64
			}
		}})
		return nil
	}
	return g
}

// A match whose joiner runs the windy copy desyncs; --compare's
// bisection, each recording replayed by its own build, names the tick
// and the wind system, and the field it wrote.
func TestCompareNamesTheDivergingSystem(t *testing.T) {
	dir := t.TempDir()
	paths := []string{dir + "/host.rec", dir + "/joiner.rec"}
	const d = 10 * time.Second
	built := 0
	_, err := frameworktest.Match(func() framework.Game {
		// Match builds the game once to read its Net, then once per
		// peer: the third build is the joiner's.
		if built++; built == 3 {
			return windyGame()
		}
		return newGame()
	}, frameworktest.MatchOptions{
		Options: frameworktest.Options{Sets: []string{"runtime.frame_cap=60", "window.vsync=false", "net.delay=2", "net.hash_every=30"}},
		Net:     issueNet, For: d,
		Records: paths,
		Script:  func(peer int, sim *frameworktest.Sim) { randomSeat(sim, peer, int(d/tick), uint64(40+peer)) },
	})
	if err == nil || !strings.Contains(err.Error(), "desync") {
		t.Fatalf("the match: %v, want a desync", err)
	}
	start := time.Now()
	res, err := framework.BisectBuilds(newGame(), windyGame(), paths[0], paths[1])
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("from the recordings to the system in %v:\n%v", took, res)
	if !res.HasTick || res.Tick != windFrom {
		t.Fatalf("got %v; want the replays to part after tick %d", res, windFrom)
	}
	if !res.HasSystem || res.System != "wind" {
		t.Fatalf("got %v; want system wind named", res)
	}
	if len(res.SystemFields) == 0 || !strings.HasPrefix(res.SystemFields[0].Field, "ecs.Transform.Position.X") {
		t.Errorf("system fields %+v, want the ships' Transform.Position.X", res.SystemFields)
	}
}
