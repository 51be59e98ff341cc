package main

import (
	"os"
	"testing"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/tilemap"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/geom"

	"github.com/metronome-go/metronome/input"
)

// TestStartsOnTheGround: the player starts at the map's start object and
// stands on the ground under it.
func TestStartsOnTheGround(t *testing.T) {
	sim := start(t)
	step(t, sim, 30)
	f := feet(t, sim)
	_, p := player(t, sim)
	t.Logf("feet at %v, grounded %v, coins %d/%d", f, p.Grounded, progress(sim).Coins, progress(sim).Total)
	if f.Y != 15*16 || !p.Grounded {
		t.Errorf("feet at %v, grounded %v; want standing on row 15 (y=240)", f, p.Grounded)
	}
}

// TestRunRight: holding D runs right at run_speed.
func TestRunRight(t *testing.T) {
	sim := start(t)
	step(t, sim, 5)
	x0 := feet(t, sim).X
	hold(sim, next(sim), input.KeyD, 60)
	step(t, sim, 30)
	if got := feet(t, sim).X - x0; got < 58 || got > 62 {
		t.Errorf("ran %v pixels in 30 ticks, want 60 (120 px/s)", got)
	}
}

// TestJumpOntoPlatform: run right, jump before the pit, and land on the
// brick platform above it (row 12, three tiles above the ground), where
// the coin above it is taken on the way.
func TestJumpOntoPlatform(t *testing.T) {
	sim := start(t)
	hold(sim, 1, input.KeyD, 200)
	stepUntil(t, sim, 200, "near the pit", func() bool { return feet(t, sim).X >= 196 })
	hold(sim, next(sim), input.KeySpace, 25)
	step(t, sim, 2)
	stepUntil(t, sim, 100, "grounded again", func() bool { _, p := player(t, sim); return p.Grounded })
	f := feet(t, sim)
	if f.Y != 12*16 || f.X < 14*16 || f.X > 17*16 {
		t.Errorf("landed with feet at %v, want on the platform at y=192, x in [224, 272]", f)
	}
}

// TestCoinCollected: the coin on the ground ahead of the start is taken by
// running through it: the count goes up, the coin's entity is gone, and
// the sparkle emitter has particles.
func TestCoinCollected(t *testing.T) {
	sim := start(t)
	step(t, sim, 1)
	before := len(objects(sim, coinClass))
	if before != progress(sim).Total || before == 0 {
		t.Fatalf("%d coins in the world, %d in the level", before, progress(sim).Total)
	}
	hold(sim, 1, input.KeyD, 200)
	stepUntil(t, sim, 200, "holding a coin", func() bool { return progress(sim).Coins == 1 })
	step(t, sim, 1)
	if got := len(objects(sim, coinClass)); got != before-1 {
		t.Errorf("coins in the world: got %d, want %d", got, before-1)
	}
	q := ecs.NewFilter1[ecs.Emitter](sim.App.World()).Query()
	defer q.Close()
	if !q.Next() || len(q.Get().Live()) == 0 {
		t.Error("no sparkles after taking a coin")
	}
}

// TestReachTheExit plays the level through with scripted input: D held
// all the way, and a jump (Space held 20 ticks) whenever the player
// stands before a wall or the edge of a pit, decided from the map's
// collision rectangles the way a player decides from the screen. The
// exit ends the level: the Cleared screen, whose jump press restarts it
// with every coin back. PLATFORMER_RECORD=file records the run (the
// README's screenshot is a frame of its replay).
func TestReachTheExit(t *testing.T) {
	opts := frameworktest.Options{Record: os.Getenv("PLATFORMER_RECORD")}
	if opts.Record != "" {
		// A replay lays frames out for the recorded window: record the
		// game's own size, for a screenshot.
		opts.Sets = []string{"window.width=960", "window.height=540"}
	}
	sim := startWith(t, opts)
	lv := testLevel(t)
	hold(sim, 1, input.KeyD, 100000)
	holding := 0
	stepUntil(t, sim, 3000, "at the exit", func() bool {
		if screen(sim) == Cleared {
			return true
		}
		tr, p := player(t, sim)
		holding--
		if p.Grounded && holding <= 0 && (lv.solidAt(boxAt(tr.Position).Translate(geom.V(4, -1))) ||
			!lv.solidAt(geom.R(tr.Position.X+playerHalfW+20, tr.Position.Y+playerHalfH, 1, 2))) {
			hold(sim, next(sim), input.KeySpace, 20)
			holding = 22
		}
		return false
	})
	p := progress(sim)
	t.Logf("exit reached after %d ticks of play, %d falls, %d of %d coins", p.Ticks, p.Falls, p.Coins, p.Total)
	if p.Falls != 0 {
		t.Errorf("%d falls on the way, want none", p.Falls)
	}
	// Play again: jump on the Cleared screen.
	hold(sim, next(sim)+30, input.KeySpace, 5)
	stepUntil(t, sim, 60, "playing again", func() bool { return screen(sim) == Playing })
	step(t, sim, 1)
	if got, want := len(objects(sim, coinClass)), progress(sim).Total; got != want || progress(sim).Coins != 0 {
		t.Errorf("after the restart: %d coins in the world, %d held; want %d and 0", got, progress(sim).Coins, want)
	}
}

// testLevel loads the level's collision rectangles for the tests' own
// decisions.
func testLevel(t *testing.T) *level {
	t.Helper()
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	lv, err := loadLevel(lib, "assets/level1.tmx")
	if err != nil {
		t.Fatal(err)
	}
	return lv
}

// solidAt reports whether box touches a solid rectangle of the level.
func (lv *level) solidAt(box geom.Rect) bool {
	for _, r := range lv.solid {
		if box.Intersects(r) {
			return true
		}
	}
	return false
}

// TestFallRespawns: running into the first pit without jumping ends in a
// fall, counted, and the player back at the start, standing.
func TestFallRespawns(t *testing.T) {
	sim := start(t)
	hold(sim, 1, input.KeyD, 120)
	stepUntil(t, sim, 400, "fallen", func() bool { return progress(sim).Falls == 1 })
	stepUntil(t, sim, 200, "grounded", func() bool { _, p := player(t, sim); return p.Grounded })
	lv := testLevel(t)
	if f := feet(t, sim); f != lv.start {
		t.Errorf("after the fall: feet at %v, want the start %v", f, lv.start)
	}
}

// TestCoyoteTime: a jump pressed a few ticks after running off a ledge
// still jumps; pressed later than coyote_time, it does not.
func TestCoyoteTime(t *testing.T) {
	for _, tc := range []struct {
		late  int // ticks after leaving the ledge
		jumps bool
	}{{2, true}, {5, true}, {12, false}} {
		sim := start(t)
		hold(sim, 1, input.KeyD, 400)
		stepUntil(t, sim, 200, "off the ledge", func() bool { _, p := player(t, sim); return sim.Ticks() > 5 && !p.Grounded })
		step(t, sim, tc.late-1)
		hold(sim, next(sim), input.KeySpace, 20)
		step(t, sim, 1)
		_, p := player(t, sim)
		if jumped := p.Vel.Y < 0; jumped != tc.jumps {
			t.Errorf("jump pressed %d ticks after the ledge: jumped %v (speed %v), want %v", tc.late, jumped, p.Vel.Y, tc.jumps)
		}
	}
}

// TestJumpBuffer: a jump pressed a few ticks before landing is kept and
// jumps on the landing tick.
func TestJumpBuffer(t *testing.T) {
	sim := start(t)
	step(t, sim, 10)
	hold(sim, next(sim), input.KeySpace, 30)
	step(t, sim, 1)
	if _, p := player(t, sim); p.Vel.Y >= 0 {
		t.Fatalf("no jump from the ground: speed %v", p.Vel.Y)
	}
	// Fall back, and press again 3 ticks before touching down.
	stepUntil(t, sim, 200, "falling low", func() bool {
		tr, p := player(t, sim)
		return p.Vel.Y > 0 && tr.Position.Y+playerHalfH >= 15*16-3*p.Vel.Y
	})
	hold(sim, next(sim), input.KeySpace, 20)
	stepUntil(t, sim, 10, "jumping again", func() bool { _, p := player(t, sim); return p.Vel.Y < 0 })
}

// TestCameraFollows: the level's camera keeps the player in the middle of
// the view once the level scrolls, and never shows past the map's left
// edge.
func TestCameraFollows(t *testing.T) {
	sim := start(t)
	step(t, sim, 2)
	if c := camera(t, sim); c.X != viewW/2 {
		t.Errorf("at the start the camera is at x=%v, want %v (the map's left edge at the view's)", c.X, viewW/2)
	}
	hold(sim, next(sim), input.KeyD, 300)
	stepUntil(t, sim, 200, "near the pit", func() bool { return feet(t, sim).X >= 196 })
	hold(sim, next(sim), input.KeySpace, 25)
	stepUntil(t, sim, 200, "past the first screen's middle", func() bool { return feet(t, sim).X > viewW/2+60 })
	tr, _ := player(t, sim)
	if progress(sim).Falls != 0 {
		t.Fatalf("player at %v after %d falls: want past the pit without one", tr.Position, progress(sim).Falls)
	}
	if c := camera(t, sim); c.X != tr.Position.X {
		t.Errorf("camera at x=%v, player at %v: want the camera on the player", c.X, tr.Position.X)
	}
}

// camera returns the level camera's position.
func camera(t *testing.T, sim *frameworktest.Sim) geom.Vec2 {
	t.Helper()
	q := ecs.NewFilter2[ecs.Transform, LevelCamera](sim.App.World()).Query()
	defer q.Close()
	if !q.Next() {
		t.Fatal("no level camera")
	}
	tr, _ := q.Get()
	return tr.Position
}

// TestLevel reads the level as the game does: its solid tiles merged into
// far fewer rectangles, its coins, its start on the ground.
func TestLevel(t *testing.T) {
	lv := testLevel(t)
	tiles := 0
	for _, r := range lv.solid {
		tiles += int(r.W/16) * int(r.H/16)
	}
	t.Logf("%d solid tiles in %d rectangles, %d coins, start at %v", tiles, len(lv.solid), lv.coins, lv.start)
	if len(lv.solid) == 0 || len(lv.solid)*3 > tiles {
		t.Errorf("%d solid tiles in %d rectangles: want at least three tiles a rectangle", tiles, len(lv.solid))
	}
	if lv.coins != 11 || lv.start != geom.V(40, 240) {
		t.Errorf("%d coins, start at %v; want 11 and (40, 240)", lv.coins, lv.start)
	}
}

// TestMapDrawnAndCulled: the map's layers reach the frame as chunks, and
// the chunks outside the camera's view are left out: at the start the
// view holds the first two of the five chunks a layer has across.
func TestMapDrawnAndCulled(t *testing.T) {
	sim := start(t)
	step(t, sim, 3)
	st := ecs.GetResource[ecs.TileMaps](sim.App.World()).Stats()
	t.Logf("map drawing: %+v", st)
	if st.Chunks == 0 || st.Tiles == 0 || st.Culled == 0 {
		t.Errorf("map drawing %+v: want chunks drawn and chunks culled", st)
	}
}

// TestCoinsSpin: the coins show the frames of the coin tile's Tiled
// animation (300 ms face on, 150 ms turned) by game time.
func TestCoinsSpin(t *testing.T) {
	sim := start(t)
	regionAt := func() (n int, src geom.Rect) {
		q := ecs.NewFilter2[ecs.Sprite, tilemap.Object](sim.App.World()).Query()
		for q.Next() {
			if s, o := q.Get(); o.Class == coinClass {
				n++
				src = s.Source
			}
		}
		return n, src
	}
	step(t, sim, 6) // 100 ms
	n, first := regionAt()
	step(t, sim, 15) // 350 ms
	_, turned := regionAt()
	step(t, sim, 9) // 500 ms: the next period's first frame
	_, again := regionAt()
	if n == 0 || first == turned || again != first {
		t.Errorf("%d coins; frames at 100, 350 and 500 ms: %v, %v, %v; want the face, the turned coin, the face", n, first, turned, again)
	}
}
