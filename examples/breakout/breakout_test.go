package main

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

// The tests run the game headless with frameworktest: the real runtime
// loop on virtual time, 120 exact ticks a second, scripted input, no
// window and no sleeping. Between steps a test may read and set the world,
// as a debugger would.

// TestServeAndScore starts a game with Space: the ball rests on the paddle
// for exactly the serve delay (120 ticks of 1 s), follows the paddle
// meanwhile, then leaves upwards and breaks a brick of the bottom row.
func TestServeAndScore(t *testing.T) {
	sim := start(t)
	tapAt(sim, 10, input.KeySpace)
	stepUntil(t, sim, 30, "serving", func() bool { return screen(sim) == Serve })
	served := sim.Ticks()

	// The ball sits on the middle of the paddle, and follows it.
	sim.Input.Press(sim.At(time.Duration(served)*tick), input.KeyRight)
	step(t, sim, 30)
	bt, bb, b := ball(t, sim)
	pt, pb := paddleOf(t, sim)
	if got, want := box(bt, bb).Center().X, box(pt, pb).Center().X; !near(got, want) {
		t.Errorf("serving: ball centre x %v, want the paddle's %v", got, want)
	}
	if got, want := bt.Position.Y+ballSize, pt.Position.Y; got != want {
		t.Errorf("serving: ball bottom %v, want the paddle's top %v", got, want)
	}
	if !b.Vel.IsZero() {
		t.Errorf("serving: ball velocity %v, want none before the launch", b.Vel)
	}
	sim.Input.Release(sim.At(time.Duration(sim.Ticks())*tick), input.KeyRight)

	// The launch comes exactly one second of ticks after the serve began.
	stepUntil(t, sim, 200, "launched", func() bool { _, _, b := ball(t, sim); return !b.Vel.IsZero() })
	if got := sim.Ticks() - served; got != 120 {
		t.Errorf("launch %d ticks after the serve began, want 120 (serve_delay 1s at 120 Hz)", got)
	}
	_, _, b = ball(t, sim)
	if got := b.Vel.Len(); math.Abs(float64(got)-420) > 1e-3 {
		t.Errorf("launch speed %v, want ball_speed 420", got)
	}

	stepUntil(t, sim, 240, "scoring", func() bool { return progress(sim).Score > 0 })
	p := progress(sim)
	if p.Score != 10 || p.Bricks != 71 {
		t.Errorf("after the first hit: score %d and %d bricks, want 10 (a bottom-row brick) and 71", p.Score, p.Bricks)
	}
	if _, _, b := ball(t, sim); b.Vel.Y <= 0 {
		t.Errorf("after the first hit the ball moves %v, want downwards", b.Vel)
	}
	step(t, sim, 1) // the HUD is written in PostUpdate of each tick
	if f := sim.LastFrame(); f == nil || len(f.Passes) == 0 || len(f.Passes[0].Packets) < 70 {
		t.Error("the last frame does not draw the wall of bricks")
	}
}

// TestBounces checks the geometry of single bounces: each case aims the
// ball so that it meets a wall or the paddle three quarters of the way
// through one tick, and checks where the tick leaves it and how it moves.
func TestBounces(t *testing.T) {
	const dt = 1.0 / 120
	// The paddle waits in the middle: x 428 to 532, top at 500. A hit at
	// offset f of the half-width (plus the ball's half) leaves at f*60°.
	angled := func(f float64) (vx, vy float64) {
		const steepest = 60 * math.Pi / 180 // the paddle's end sends the ball 60° from straight up
		return 480 * math.Sin(f*steepest), -480 * math.Cos(f*steepest)
	}
	a30x, a30y := angled(0.5)
	l45x, l45y := angled(-0.75)
	for _, c := range []struct {
		name         string
		x, y, vx, vy float32
		// want: the position after the tick and the velocity
		wx, wy, wvx, wvy float64
	}{
		{"right wall", 945, 350, 480, 240, 947, 352, -480, 240},
		{"left wall", 3, 350, -480, 240, 1, 352, 480, 240},
		{"top wall", 300, 51, 240, -480, 302, 49, 240, 480},
		{"corner", 945, 51, 480, -480, 947, 49, -480, 480},
		{"paddle centre", 474, 485, 0, 480, 474, 487, 0, -480},
		{"paddle right half", 503, 485, 0, 480, 503 + a30x*dt/4, 488 + a30y*dt/4, a30x, a30y},
		// The ball's centre 43.5 left of the paddle's: offset -0.75, 45°.
		{"paddle left end", 430.5, 485, 0, 480, 430.5 + l45x*dt/4, 488 + l45y*dt/4, l45x, l45y},
	} {
		t.Run(c.name, func(t *testing.T) {
			sim := playing(t)
			aim(t, sim, c.x, c.y, geom.V(c.vx, c.vy))
			step(t, sim, 1)
			tr, _, b := ball(t, sim)
			if !near(tr.Position.X, float32(c.wx)) || !near(tr.Position.Y, float32(c.wy)) {
				t.Errorf("position: got (%v, %v), want (%v, %v)", tr.Position.X, tr.Position.Y, c.wx, c.wy)
			}
			if !near(b.Vel.X, float32(c.wvx)) || !near(b.Vel.Y, float32(c.wvy)) {
				t.Errorf("velocity: got %v, want (%v, %v)", b.Vel, c.wvx, c.wvy)
			}
		})
	}
}

// TestFastBallNeverTunnels fires the ball straight up at 6000 px/s, 50
// pixels a tick: more than a brick (24) and the ball (12) together, so
// moving it tick by tick and testing overlap would jump over the bottom
// brick and hit the one behind it. The sweep finds the bottom brick.
func TestFastBallNeverTunnels(t *testing.T) {
	sim := playing(t, "game.ball_speed=6000")
	const x, y, speed = 513, 256, 6000 // under column 6, x 483 to 555
	bottom := geom.R(483, 222, brickW, brickH)
	behind := geom.R(483, 192, brickW, brickH)
	// The ball's boxes at the ends of the ticks never overlap the bottom
	// brick: without the sweep it would be skipped.
	for k := range 3 {
		at := geom.R(x, y-float32(k)*speed/120, ballSize, ballSize)
		if at.Intersects(bottom) {
			t.Fatalf("the test is no test: tick %d ends with the ball %v in the brick %v", k, at, bottom)
		}
	}
	aim(t, sim, x, y, geom.V(0, -speed))
	step(t, sim, 1)
	standing := bricksLeft(sim)
	if slices.Contains(standing, bottom) {
		t.Errorf("the bottom brick %v still stands: the ball passed through it", bottom)
	}
	if !slices.Contains(standing, behind) {
		t.Errorf("the brick behind %v is gone: the ball tunnelled to it", behind)
	}
	if p := progress(sim); p.Score != 10 || p.Bricks != 71 {
		t.Errorf("score %d, %d bricks; want 10 and 71", p.Score, p.Bricks)
	}
	tr, _, b := ball(t, sim)
	// 10 pixels up to the brick's bottom at 246, then 40 back down.
	if !near(tr.Position.Y, 286) || !near(b.Vel.Y, speed) {
		t.Errorf("after the hit: y %v moving %v, want y 286 moving (0, %v)", tr.Position.Y, b.Vel, speed)
	}
}

// TestPowerUp makes every brick drop a capsule, catches the first one
// with the paddle and checks that the paddle is wide for exactly
// wide_time (1 s: 120 ticks of play), also when a pause falls inside it.
func TestPowerUp(t *testing.T) {
	for _, pause := range []int{0, 90} {
		t.Run(fmt.Sprintf("paused %d ticks", pause), func(t *testing.T) {
			sim := playing(t, "game.power_up_chance=1", "game.wide_time=1s")
			aim(t, sim, 513, 300, geom.V(0, -420))
			stepUntil(t, sim, 60, "a brick broken", func() bool { return progress(sim).Score > 0 })
			// Park the ball out of the way and put the paddle under the
			// capsule, which falls from the brick's centre (x 519).
			aim(t, sim, 100, 350, geom.Vec2{})
			pt, _ := paddleOf(t, sim)
			pt.Position.X = 519 - paddleW/2
			stepUntil(t, sim, 400, "wide", func() bool { _, b := paddleOf(t, sim); return b.Size.X > paddleW })
			caught := sim.Ticks()
			pt, pb := paddleOf(t, sim)
			if pb.Size.X != paddleW*wideFactor || !near(pt.Position.X+pb.Size.X/2, 519) {
				t.Errorf("wide paddle: x %v width %v, want width %v about the same centre 519", pt.Position.X, pb.Size.X, paddleW*wideFactor)
			}
			paused := 0
			if pause > 0 {
				tapAt(sim, int(caught)+30, input.KeyP)
				tapAt(sim, int(caught)+30+pause, input.KeyP)
			}
			// Step to the last tick of the wide paddle, counting the
			// paused ticks on the way, then one more.
			for sim.Ticks() < caught+119+uint64(paused) {
				step(t, sim, 1)
				if screen(sim) == Paused {
					paused++
				}
			}
			if pause > 0 && paused < pause-2 {
				t.Fatalf("paused %d ticks, want about %d", paused, pause)
			}
			if _, b := paddleOf(t, sim); b.Size.X != paddleW*wideFactor {
				t.Errorf("%d ticks of play after the catch (%d paused): width %v, want still wide", 119, paused, b.Size.X)
			}
			step(t, sim, 1)
			if _, b := paddleOf(t, sim); b.Size.X != paddleW {
				t.Errorf("%d ticks of play after the catch (%d paused): width %v, want %v again", 120, paused, b.Size.X, paddleW)
			}
		})
	}
}

// TestPause pauses with P while serving and while playing: nothing of
// play moves, game time stands still, the serve countdown waits, and P
// resumes where the game stood.
func TestPause(t *testing.T) {
	sim := start(t)
	tapAt(sim, 10, input.KeySpace)
	stepUntil(t, sim, 30, "serving", func() bool { return screen(sim) == Serve })
	served := sim.Ticks()
	tapAt(sim, int(served)+20, input.KeyP)
	tapAt(sim, int(served)+80, input.KeyP)
	paused := stepCounting(t, sim, 100, Paused)
	stepUntil(t, sim, 200, "launched", func() bool { _, _, b := ball(t, sim); return !b.Vel.IsZero() })
	if got, want := sim.Ticks()-served, 120+uint64(paused); paused < 55 || got != want {
		t.Errorf("launch %d ticks after the serve began with %d paused, want 120 + the paused ticks", got, paused)
	}

	step(t, sim, 30)
	// Input scripted at the clock's reading reaches the next tick; the
	// screen it asks for starts with the tick after that.
	tapAt(sim, int(sim.Ticks()), input.KeyP)
	step(t, sim, 2)
	if got := screen(sim); got != Paused {
		t.Fatalf("two ticks after P: screen %v, want %v", got, Paused)
	}
	tr, _, _ := ball(t, sim)
	before := tr.Position
	game := ecs.GetResource[ecs.Time](sim.App.World()).Game
	step(t, sim, 120)
	if tr, _, _ := ball(t, sim); tr.Position != before {
		t.Errorf("paused: the ball moved from %v to %v", before, tr.Position)
	}
	if got := ecs.GetResource[ecs.Time](sim.App.World()).Game; got != game {
		t.Errorf("paused: game time went from %v to %v", game, got)
	}
	if s := sprite(t, sim); s.Tint != dimmed {
		t.Errorf("paused: the ball's tint %v, want dimmed %v", s.Tint, dimmed)
	}
	tapAt(sim, int(sim.Ticks()), input.KeyP)
	step(t, sim, 2)
	if got := screen(sim); got != Playing {
		t.Fatalf("two ticks after P again: screen %v, want %v", got, Playing)
	}
	step(t, sim, 1)
	if tr, _, _ := ball(t, sim); tr.Position == before {
		t.Error("resumed: the ball does not move")
	}
	if s := sprite(t, sim); s.Tint != (render2d.Color{}) {
		t.Errorf("resumed: the ball's tint %v, want none", s.Tint)
	}
}

// TestGameOver loses both balls of a two-life game: the first loss
// serves again, the second ends the game; Space starts a new one.
func TestGameOver(t *testing.T) {
	sim := playing(t, "game.lives=2")
	for lives := 1; lives >= 0; lives-- {
		aim(t, sim, 50, 350, geom.V(0, 600)) // far left of the paddle, falling
		stepUntil(t, sim, 100, "a ball lost", func() bool { return progress(sim).Lives == lives })
		want := Serve
		if lives == 0 {
			want = GameOver
		}
		step(t, sim, 1) // the new screen starts with the next tick
		if got := screen(sim); got != want {
			t.Fatalf("%d lives left: screen %v, want %v", lives, got, want)
		}
		if lives > 0 {
			stepUntil(t, sim, 200, "playing", func() bool { return screen(sim) == Playing })
		}
	}
	if s := sprite(t, sim); !s.Hidden {
		t.Error("game over: the ball is still drawn")
	}
	step(t, sim, 300)
	if got := screen(sim); got != GameOver {
		t.Fatalf("game over waits for Space, but the screen is %v", got)
	}
	tapAt(sim, int(sim.Ticks()), input.KeySpace)
	step(t, sim, 2)
	if got := screen(sim); got != Serve {
		t.Fatalf("two ticks after Space: screen %v, want %v", got, Serve)
	}
	if p := progress(sim); p.Lives != 2 || p.Score != 0 || p.Bricks != 72 || len(bricksLeft(sim)) != 72 {
		t.Errorf("new game: %d lives, score %d, %d bricks (%d standing); want 2, 0, 72", p.Lives, p.Score, p.Bricks, len(bricksLeft(sim)))
	}
}

// TestWin plays a level of one brick (rows and columns from --set) and
// breaks it: the game is won.
func TestWin(t *testing.T) {
	sim := playing(t, "game.rows=1", "game.columns=1")
	if got := bricksLeft(sim); len(got) != 1 || got[0] != geom.R(444, bricksTop, brickW, brickH) {
		t.Fatalf("a 1x1 level: bricks %v, want one centred at x 444", got)
	}
	aim(t, sim, 474, 150, geom.V(0, -420))
	stepUntil(t, sim, 100, "won", func() bool { return screen(sim) == Won })
	if p := progress(sim); p.Bricks != 0 || p.Score != 10 {
		t.Errorf("won with %d bricks and score %d, want 0 and 10", p.Bricks, p.Score)
	}
	step(t, sim, 1) // the HUD follows in PostUpdate
	if got := bannerText(t, sim); !strings.Contains(got, "won") {
		t.Errorf("banner %q, want the won message", got)
	}
}

// TestAxis checks that one action drives the paddle from the keys and
// the stick alike: D, Right and a full stick move it the same distance in
// the same ticks, and half a stick (through its dead zone) proportionally
// less.
func TestAxis(t *testing.T) {
	dz := input.GamepadLeftX.Bind().DeadZone
	for _, c := range []struct {
		name  string
		press func(sim *frameworktest.Sim, from, to timing.Instant)
		// want is the distance moved as a fraction of 720 px/s * 0.5 s.
		want float32
	}{
		{"D", keys(input.KeyD), 1},
		{"Right", keys(input.KeyRight), 1},
		{"A", keys(input.KeyA), -1},
		{"Left", keys(input.KeyLeft), -1},
		{"stick right", stick(1), 1},
		{"stick left", stick(-1), -1},
		{"stick half right", stick(0.5), (0.5 - dz) / (1 - dz)},
	} {
		t.Run(c.name, func(t *testing.T) {
			sim := start(t)
			tapAt(sim, 10, input.KeySpace)
			stepUntil(t, sim, 30, "serving", func() bool { return screen(sim) == Serve })
			pt, _ := paddleOf(t, sim)
			x0 := pt.Position.X
			from := sim.At(time.Duration(sim.Ticks()+5) * tick)
			c.press(sim, from, from+timing.Instant(500*time.Millisecond))
			step(t, sim, 100)
			pt, _ = paddleOf(t, sim)
			want := 360 * c.want
			if got := pt.Position.X - x0; math.Abs(float64(got-want)) > 0.01 {
				t.Errorf("moved %v, want %v", got, want)
			}
		})
	}
}

// keys holds b from one instant to another.
func keys(b input.Button) func(*frameworktest.Sim, timing.Instant, timing.Instant) {
	return func(sim *frameworktest.Sim, from, to timing.Instant) {
		sim.Input.Press(from, b).Release(to, b)
	}
}

// stick holds the left stick at v from one instant to another.
func stick(v float32) func(*frameworktest.Sim, timing.Instant, timing.Instant) {
	return func(sim *frameworktest.Sim, from, to timing.Instant) {
		sim.Input.Gamepad(from, true).Axis(from, input.GamepadLeftX, v).Axis(to, input.GamepadLeftX, 0)
	}
}

// script is the input of the determinism runs: a game with steering both
// ways, a pause and a stick push.
func script(sim *frameworktest.Sim, rightFor time.Duration) {
	at := func(d time.Duration) timing.Instant { return sim.At(d) }
	sim.Input.Tap(at(100*time.Millisecond), input.KeySpace, 20*time.Millisecond)
	sim.Input.Press(at(400*time.Millisecond), input.KeyD).Release(at(400*time.Millisecond+rightFor), input.KeyD)
	sim.Input.Press(at(1500*time.Millisecond), input.KeyLeft).Release(at(2300*time.Millisecond), input.KeyLeft)
	sim.Input.Tap(at(3*time.Second), input.KeyP, 30*time.Millisecond)
	sim.Input.Tap(at(3500*time.Millisecond), input.KeyP, 30*time.Millisecond)
	sim.Input.Gamepad(at(4*time.Second), true).Axis(at(4*time.Second), input.GamepadLeftX, 0.8).Axis(at(5*time.Second), input.GamepadLeftX, 0)
}

// TestDeterminism plays the same script twice, and once in concurrent
// mode, and gets the same world, down to the hash of every entity, the
// progress, the random source and the queues; a different script gets a
// different world. Then it records
// a session and replays it, as a bug report would be.
func TestDeterminism(t *testing.T) {
	const ticks = 900 // 7.5 s
	run := func(rightFor time.Duration, record string, sets ...string) uint64 {
		sim, err := frameworktest.New(newGame(), frameworktest.Options{Record: record, Sets: slices.Concat(small, sets)})
		if err != nil {
			t.Fatal(err)
		}
		script(sim, rightFor)
		if err := sim.RunTicks(ticks); err != nil {
			t.Fatal(err)
		}
		h, err := sim.App.Hash()
		if err != nil {
			t.Fatal(err)
		}
		if progress(sim).Score == 0 {
			t.Error("the scripted game scored nothing: it tests too little")
		}
		return h.Total
	}
	rec := filepath.Join(t.TempDir(), "session.rec")
	a, b := run(300*time.Millisecond, rec), run(300*time.Millisecond, "")
	if a != b {
		t.Errorf("the same script twice: world hashes %#x and %#x", a, b)
	}
	// Updates on their own goroutine (runtime.mode=concurrent) see the
	// same ticks and input, so they reach the same world.
	if c := run(300*time.Millisecond, "", "runtime.mode=concurrent"); c != a {
		t.Errorf("concurrent mode: world hash %#x, sequential %#x", c, a)
	}
	if c := run(310*time.Millisecond, ""); c == a {
		t.Errorf("a different script: the same world hash %#x", c)
	}

	replay, err := frameworktest.NewReplay(newGame(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := replay.RunTicks(1 << 30); err != nil { // to the recording's end, checking every stored hash
		t.Fatal(err)
	}
	h, err := replay.App.Hash()
	if err != nil {
		t.Fatal(err)
	}
	if replay.Ticks() != ticks || h.Total != a {
		t.Errorf("replay: %d ticks ending at hash %#x, want %d and %#x", replay.Ticks(), h.Total, ticks, a)
	}
}

// TestRebind rebinds start to Enter as a player's config.toml or --set
// would: the title names Enter, Space then does nothing and Enter starts
// the game. Without the override the title names the registered Space.
func TestRebind(t *testing.T) {
	sim := start(t, "input.bindings.start=Enter")
	tapAt(sim, 10, input.KeySpace)
	step(t, sim, 30)
	if got := screen(sim); got != Title {
		t.Fatalf("Space after rebinding start to Enter: screen %v, want title", got)
	}
	if got, want := bannerText(t, sim), "BREAKOUT\npress Enter"; got != want {
		t.Errorf("title after rebinding start to Enter: %q, want %q", got, want)
	}
	tapAt(sim, 40, input.KeyEnter)
	step(t, sim, 20)
	if got := screen(sim); got != Serve {
		t.Errorf("Enter after rebinding: screen %v, want serve", got)
	}
	def := start(t)
	step(t, def, 1)
	if got, want := bannerText(t, def), "BREAKOUT\npress Space"; got != want {
		t.Errorf("title with the registered bindings: %q, want %q", got, want)
	}
}

// TestCommandLine runs the game's main as the player would: --help prints
// the flags, and bad settings are refused before any window opens, every
// one named with its range.
func TestCommandLine(t *testing.T) {
	for _, c := range []struct {
		args   []string
		status int
		want   []string
	}{
		{[]string{"--help"}, 0, []string{"Usage", "-headless", "-screenshot", "-set"}},
		{[]string{"--set", "game.lives=12", "--set", "game.rows=0", "--set", "game.serve_delay=9s"}, 1,
			[]string{"game.lives = 12: out of range; allowed: 1 to 9", "game.rows = 0", "game.serve_delay"}},
		{[]string{"--set", "game.live=3"}, 1, []string{"game.live", "game.lives"}},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := framework.MainStatus(newGame(), c.args, &stdout, &stderr); got != c.status {
				t.Errorf("status %d, want %d; stderr:\n%s", got, c.status, stderr.String())
			}
			for _, w := range c.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
				}
			}
		})
	}
}

// TestDemo lets the computer play (game.demo, the screenshot's mode): it
// starts by itself and breaks bricks with no input at all.
func TestDemo(t *testing.T) {
	sim := start(t, "game.demo=true")
	step(t, sim, 900)
	if got := screen(sim); got == Title {
		t.Errorf("demo: still on the title screen after %d ticks", sim.Ticks())
	}
	if p := progress(sim); p.Score < 50 {
		t.Errorf("demo: score %d after 7.5 s, want at least 50", p.Score)
	}
}

// TestSettingsMatchConfig: the embedded config.toml, which a player reads,
// sets every key of the [game] table, to what defaultSettings says.
func TestSettingsMatchConfig(t *testing.T) {
	got := defaultSettings()
	cfg, err := config.Build(config.Layers{Game: &got, Embedded: configTOML})
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.DecodeGame(&got); err != nil {
		t.Fatal(err)
	}
	if want := defaultSettings(); got != want {
		t.Errorf("config.toml's [game] table gives %+v; defaultSettings %+v", got, want)
	}
	st := reflect.TypeFor[Settings]()
	for i := range st.NumField() {
		key := "game." + st.Field(i).Tag.Get("toml")
		if src := cfg.Source(key); src.Origin != config.FromEmbedded {
			t.Errorf("%s comes from %v; want config.toml to set it", key, src)
		}
	}
}

// TestDebugDrawing: with game.debug the frame carries a box for every
// body and the ball's circle and velocity on top of the game, drawn with
// ctx.Draw; without it, none.
func TestDebugDrawing(t *testing.T) {
	for _, debug := range []bool{false, true} {
		sim := playing(t, fmt.Sprintf("game.debug=%v", debug))
		step(t, sim, 5)
		bodies := ecs.NewFilter2[ecs.Transform, Body](sim.App.World()).Count()
		gizmos := 0
		for _, p := range sim.LastFrame().Passes[0].Packets {
			if p.IsShape() && p.Layer == ecs.GizmoLayer {
				gizmos++
			}
		}
		want := 0
		if debug {
			want = bodies + 2 // the boxes, the ball's circle and its velocity
		}
		if gizmos != want {
			t.Errorf("debug %v: %d debug shapes in the frame for %d bodies, want %d", debug, gizmos, bodies, want)
		}
	}
}
