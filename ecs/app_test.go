package ecs_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

const step = 20 * time.Millisecond

// velocity in world units per second.
type speed struct{ X, Y float32 }

func newApp(t testing.TB, opts ecs.Options) *ecs.App {
	t.Helper()
	a, err := ecs.NewApp(opts)
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	return a
}

func moveSystem() ecs.System {
	var f *ecs.Filter2[ecs.Transform, speed]
	return ecs.System{Name: "move", Run: func(ctx *ecs.Sys) {
		if f == nil {
			f = ecs.NewFilter2[ecs.Transform, speed](ctx.World)
		}
		dt := float32(ctx.RunDeltaSeconds())
		q := f.Query()
		for q.Next() {
			t, v := q.Get()
			t.Position.X += v.X * dt
			t.Position.Y += v.Y * dt
		}
	}}
}

// tick builds the runtime's view of one fixed update.
func tick(n uint64, alpha float64) *runtime.TickContext {
	return &runtime.TickContext{
		Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: step, Number: n, Final: true},
		Timing: timing.Stats{Alpha: alpha},
		Window: input.Window{Size: input.Size{Width: 320, Height: 240}, Framebuffer: input.Size{Width: 320, Height: 240}},
	}
}

func spawnSprite(cmd *ecs.Commands, x, y float32, layer int16, v speed, tint render2d.Color) {
	p := cmd.Spawn()
	ecs.With(p, ecs.At(x, y))
	ecs.With(p, ecs.Sprite{Size: geom.Vec2{X: 4, Y: 4}, Origin: geom.Vec2{X: 2, Y: 2}, Layer: layer, Tint: tint})
	ecs.With(p, v)
}

// Tints tell the sprites apart in the recorded frame.
var (
	red    = render2d.Color{R: 1, A: 1}
	green  = render2d.Color{G: 1, A: 1}
	blue   = render2d.Color{B: 1, A: 1}
	yellow = render2d.Color{R: 1, G: 1, A: 1}
)

// prepare has the App prepare a frame, renders it with a recording
// renderer (which validates it) and returns the recorded copy.
func prepare(t *testing.T, a *ecs.App) *render2d.Frame {
	t.Helper()
	return prepareWith(t, a, rendertest.NewRecorder(320, 240, 1024))
}

// prepareWith is prepare with a recorder that already holds textures.
func prepareWith(t *testing.T, a *ecs.App, rec *rendertest.Recorder) *render2d.Frame {
	t.Helper()
	var f render2d.Frame
	if err := a.PrepareFrame(render2d.NewFrameWriter(&f)); err != nil {
		t.Fatalf("PrepareFrame: %v", err)
	}
	before := len(rec.Frames)
	if err := rec.Render(&f); err != nil {
		t.Fatalf("recording renderer refused the frame: %v", err)
	}
	if len(rec.Frames) != before+1 {
		t.Fatalf("recorded frames: got %d, want %d", len(rec.Frames), before+1)
	}
	return &rec.Frames[before]
}

func TestAppHeadlessGame(t *testing.T) {
	a := newApp(t, ecs.Options{Seed: 1})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		spawnSprite(ctx.Commands, 10, 10, 2, speed{X: 50}, red)       // moves 1 unit per tick
		spawnSprite(ctx.Commands, 20, 20, 1, speed{Y: 50}, green)     // lower layer: drawn first
		spawnSprite(ctx.Commands, -500, -500, 0, speed{}, blue)       // off screen: culled
		spawnSprite(ctx.Commands, 100, 100, 1, speed{X: -50}, yellow) // same layer as green, spawned later
		h := ctx.Commands.Spawn()
		ecs.With(h, ecs.At(50, 50))
		ecs.With(h, ecs.Sprite{Size: geom.Vec2{X: 4, Y: 4}, Hidden: true})
	}})
	a.AddSystem(ecs.Update, moveSystem())
	if err := a.InitSimulation(nil); err != nil {
		t.Fatalf("InitSimulation: %v", err)
	}
	for n := uint64(1); n <= 5; n++ {
		if n == 5 {
			prepare(t, a) // the frame the next one moves on from
		}
		if err := a.Update(tick(n, 0.25)); err != nil {
			t.Fatalf("Update %d: %v", n, err)
		}
	}

	// World state after five ticks of 20 ms.
	tm := ecs.GetResource[ecs.Time](a.World())
	if got, want := tm.Number, uint64(5); got != want {
		t.Errorf("Time.Tick: got %d, want %d", got, want)
	}
	if got, want := tm.Elapsed, 5*step; got != want {
		t.Errorf("Time.Elapsed: got %v, want %v", got, want)
	}
	positions := map[render2d.Color]geom.Vec2{}
	q := ecs.NewFilter2[ecs.Transform, ecs.Sprite](a.World()).Query()
	for q.Next() {
		tr, s := q.Get()
		positions[s.Tint] = tr.Position
	}
	for _, c := range []struct {
		tint render2d.Color
		want geom.Vec2
	}{{red, geom.Vec2{X: 15, Y: 10}}, {green, geom.Vec2{X: 20, Y: 25}}, {yellow, geom.Vec2{X: 95, Y: 100}}} {
		if got := positions[c.tint]; !near2(got, c.want) {
			t.Errorf("position of %v: got %+v, want %+v", c.tint, got, c.want)
		}
	}

	// The frame: one default pass, each packet at tick 5 with its place at
	// the frame before (tick 4), drawn here a quarter of the way between;
	// layer order with spawn order inside layer 1, the off-screen and
	// hidden sprites left out.
	f := prepare(t, a)
	if got, want := len(f.Passes), 1; got != want {
		t.Fatalf("passes: got %d, want %d", got, want)
	}
	want := []struct {
		tint  render2d.Color
		layer int16
		pos   geom.Vec2
	}{
		{green, 1, geom.Vec2{X: 20, Y: 24.25}},
		{yellow, 1, geom.Vec2{X: 95.75, Y: 100}},
		{red, 2, geom.Vec2{X: 14.25, Y: 10}},
	}
	ps := f.Passes[0].Packets
	if len(ps) != len(want) {
		t.Fatalf("packets: got %d, want %d", len(ps), len(want))
	}
	for i, w := range want {
		p := ps[i].Resolved(0.25)
		if !ps[i].Prev.Set {
			t.Errorf("packet %d: no previous placement", i)
		}
		if p.Tint != w.tint || p.Layer != w.layer || !near2(p.Transform.Position, w.pos) {
			t.Errorf("packet %d: got tint %v layer %d at %+v, want tint %v layer %d at %+v",
				i, p.Tint, p.Layer, p.Transform.Position, w.tint, w.layer, w.pos)
		}
		if got, want := p.Size, (geom.Vec2{X: 4, Y: 4}); got != want {
			t.Errorf("packet %d size: got %+v, want %+v", i, got, want)
		}
		if got, want := p.Transform.Origin, (geom.Vec2{X: 2, Y: 2}); got != want {
			t.Errorf("packet %d origin: got %+v, want %+v", i, got, want)
		}
	}
	st := a.Stats().Extract
	if st.Drawn != 3 || st.Culled != 2 || st.Passes != 1 {
		t.Errorf("extract stats: got %+v, want 3 drawn, 2 culled, 1 pass", st)
	}
	if err := a.DeinitSimulation(); err != nil {
		t.Errorf("DeinitSimulation: %v", err)
	}
}

func near2(a, b geom.Vec2) bool {
	return math.Abs(float64(a.X-b.X)) < 1e-3 && math.Abs(float64(a.Y-b.Y)) < 1e-3
}

func TestAppLayerOrderIsStableAcrossArchetypes(t *testing.T) {
	a := newApp(t, ecs.Options{})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for i := range 40 {
			p := ctx.Commands.Spawn()
			ecs.With(p, ecs.At(float32(i), 10))
			ecs.With(p, ecs.Sprite{Size: geom.Vec2{X: 1, Y: 1}, Layer: int16(3 - i%4)})
			if i%3 == 0 { // a second archetype interleaves the query order
				ecs.With(p, speed{})
			}
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	f := prepare(t, a)
	ps := f.Passes[0].Packets
	if len(ps) != 40 {
		t.Fatalf("packets: got %d, want 40", len(ps))
	}
	// Expected: query order (archetype without speed first, then with),
	// stably sorted by layer.
	var order []float32
	for layer := int16(0); layer <= 3; layer++ {
		for _, withSpeed := range []bool{false, true} {
			for i := range 40 {
				if int16(3-i%4) == layer && (i%3 == 0) == withSpeed {
					order = append(order, float32(i))
				}
			}
		}
	}
	for i := range ps {
		if got, want := ps[i].Transform.Position.X, order[i]; got != want {
			t.Fatalf("packet %d: got sprite %v, want sprite %v (layer %d)", i, got, want, ps[i].Layer)
		}
	}
}

func TestAppCameras(t *testing.T) {
	tests := []struct {
		name     string
		rotation float32
		wantIn   []float32 // x offsets from the camera that stay in the pass
	}{
		// Viewport 320x240 at zoom 2 shows 160x120 world units around the
		// camera; sprites of 4x4 about their centre reach 2.83 units out.
		{"upright", 0, []float32{0, 70, 81}},
		// A quarter turn shows 120 units across: 70 is now outside.
		{"quarter turn", math.Pi / 2, []float32{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t, ecs.Options{})
			a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
				cam := ctx.Commands.Spawn()
				tr := ecs.At(1000, 1000)
				tr.Rotation = tt.rotation
				ecs.With(cam, tr)
				ecs.With(cam, ecs.Camera{Anchor: geom.Vec2{X: 0.5, Y: 0.5}, Zoom: 2, Order: 1, Clear: true})
				// A second camera ordered first, and a disabled one.
				hud := ctx.Commands.Spawn()
				ecs.With(hud, ecs.At(0, 0))
				ecs.With(hud, ecs.Camera{Order: -1})
				off := ctx.Commands.Spawn()
				ecs.With(off, ecs.At(0, 0))
				ecs.With(off, ecs.Camera{Disabled: true})
				for _, dx := range []float32{0, 70, 81, 83, -200} {
					spawnSprite(ctx.Commands, 1000+dx, 1000, 0, speed{}, red)
				}
			}})
			if err := a.InitSimulation(nil); err != nil {
				t.Fatal(err)
			}
			if err := a.Update(tick(1, 0)); err != nil {
				t.Fatal(err)
			}
			f := prepare(t, a)
			if got, want := len(f.Passes), 2; got != want {
				t.Fatalf("passes: got %d, want %d", got, want)
			}
			if got := f.Passes[0].Camera.Position; got != (geom.Vec2{}) {
				t.Errorf("first pass camera: got %+v, want the Order -1 camera at the origin", got)
			}
			if len(f.Passes[0].Packets) != 0 {
				t.Errorf("first pass: got %d packets, want 0 (all sprites are near 1000,1000)", len(f.Passes[0].Packets))
			}
			p := f.Passes[1]
			if !p.Clear || p.Camera.Zoom != 2 || p.Camera.Rotation != tt.rotation || p.Camera.Position != (geom.Vec2{X: 1000, Y: 1000}) {
				t.Errorf("second pass: got %+v, want the main camera's values", p.PassDesc)
			}
			var got []float32
			for _, pk := range p.Packets {
				got = append(got, pk.Transform.Position.X-1000)
			}
			if !equalFloats(got, tt.wantIn) {
				t.Errorf("sprites kept (x offsets): got %v, want %v", got, tt.wantIn)
			}
		})
	}
}

func equalFloats(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-3 {
			return false
		}
	}
	return true
}

// TestAppInterpolatesAcrossQuietBurst: a frame prepared after a burst of
// ticks moves on from the frame before the burst, not from the burst's
// second-to-last tick.
func TestAppInterpolatesAcrossQuietBurst(t *testing.T) {
	a := newApp(t, ecs.Options{})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		spawnSprite(ctx.Commands, 0, 0, 0, speed{X: 50}, red)
	}})
	a.AddSystem(ecs.Update, moveSystem())
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	prepare(t, a)
	// A burst of three: two quiet ticks, then the final one.
	burst := []*runtime.TickContext{tick(1, 0), tick(2, 0), tick(3, 0.5)}
	burst[0].Quiet, burst[0].Final = true, false
	burst[1].Quiet, burst[1].Final = true, false
	for _, tk := range burst {
		if err := a.Update(tk); err != nil {
			t.Fatal(err)
		}
	}
	p := prepare(t, a).Passes[0].Packets[0]
	if !p.Prev.Set || p.Prev.Position.X != 0 || p.Transform.Position.X != 3 {
		t.Errorf("packet after the burst: at x=%v from %+v, want at 3 from x=0 (the frame before the burst)", p.Transform.Position.X, p.Prev)
	}
	if got, want := p.Resolved(0.5).Transform.Position.X, float32(1.5); got != want {
		t.Errorf("drawn halfway: got %v, want %v", got, want)
	}
}

func TestAppTeleportIsNotSmeared(t *testing.T) {
	a := newApp(t, ecs.Options{})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		spawnSprite(ctx.Commands, 10, 10, 0, speed{}, red)
	}})
	tr := ecs.NewFilter1[ecs.Transform](a.World())
	a.AddSystem(ecs.Update, ecs.System{Name: "jump", Run: func(ctx *ecs.Sys) {
		if ctx.Time.Number != 2 {
			return
		}
		q := tr.Query()
		for q.Next() {
			t := q.Get()
			t.Position = geom.Vec2{X: 200, Y: 200}
			t.Teleport()
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	for n := uint64(1); n <= 2; n++ {
		prepare(t, a)
		if err := a.Update(tick(n, 0.5)); err != nil {
			t.Fatal(err)
		}
	}
	p := prepare(t, a).Passes[0].Packets[0]
	if got, want := p.Resolved(0).Transform.Position, (geom.Vec2{X: 200, Y: 200}); got != want || p.Prev.Set {
		t.Errorf("teleported sprite drawn at %+v at alpha 0 (previous %+v), want %+v with no previous placement", got, p.Prev, want)
	}
}

func TestAppCosmeticSystems(t *testing.T) {
	tests := []struct {
		name      string
		ticks     []struct{ quiet, cosmetic bool }
		wantRuns  int
		wantDelta []time.Duration
	}{
		{"every tick", []struct{ quiet, cosmetic bool }{{false, true}, {false, true}}, 2, []time.Duration{step, step}},
		{"quiet burst", []struct{ quiet, cosmetic bool }{{true, true}, {true, true}, {false, true}}, 1, []time.Duration{3 * step}},
		{"coarse every third", []struct{ quiet, cosmetic bool }{{false, false}, {false, false}, {false, true}, {false, false}}, 1, []time.Duration{3 * step}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t, ecs.Options{})
			var deltas []time.Duration
			plain := 0
			a.AddSystem(ecs.Update, ecs.System{Name: "particles", Cosmetic: true, Run: func(ctx *ecs.Sys) {
				deltas = append(deltas, ctx.RunDelta())
			}})
			a.AddSystem(ecs.Update, ecs.System{Name: "physics", Run: func(*ecs.Sys) { plain++ }})
			for i, tk := range tt.ticks {
				tc := tick(uint64(i+1), 0)
				tc.Quiet, tc.Coarse, tc.Final = tk.quiet, !tk.cosmetic, !tk.quiet
				if err := a.Update(tc); err != nil {
					t.Fatal(err)
				}
			}
			if len(deltas) != tt.wantRuns {
				t.Fatalf("cosmetic runs: got %d, want %d", len(deltas), tt.wantRuns)
			}
			for i := range deltas {
				if deltas[i] != tt.wantDelta[i] {
					t.Errorf("cosmetic delta %d: got %v, want %v", i, deltas[i], tt.wantDelta[i])
				}
			}
			if plain != len(tt.ticks) {
				t.Errorf("plain system runs: got %d, want %d", plain, len(tt.ticks))
			}
			st := a.Systems()
			if got, want := st[0].Skipped, uint64(len(tt.ticks)-tt.wantRuns); got != want {
				t.Errorf("cosmetic skips: got %d, want %d", got, want)
			}
		})
	}
}

func TestAppStagesRunInOrderWithSyncPoints(t *testing.T) {
	a := newApp(t, ecs.Options{})
	var log []string
	rec := func(name string) ecs.System {
		return ecs.System{Name: name, Run: func(ctx *ecs.Sys) {
			log = append(log, name+":"+itoa(ecs.NewFilter1[speed](ctx.World).Count()))
			ecs.With(ctx.Commands.Spawn(), speed{})
		}}
	}
	a.AddSystem(ecs.PostUpdate, rec("post"))
	a.AddSystem(ecs.Update, rec("update1"))
	a.AddSystem(ecs.Shutdown, rec("shutdown"))
	a.AddSystem(ecs.PreUpdate, rec("pre"))
	a.AddSystem(ecs.Update, rec("update2"))
	a.AddSystem(ecs.Startup, rec("startup"))
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Update(tick(1, 0)); err != nil {
		t.Fatal(err)
	}
	if err := a.DeinitSimulation(); err != nil {
		t.Fatal(err)
	}
	// Each system sees the entity spawned by the one before it.
	want := "startup:0 pre:1 update1:2 update2:3 post:4 shutdown:5"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("run order: got %q, want %q", got, want)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func TestAppStructuralChangesInsideQueries(t *testing.T) {
	var errs []ecs.CommandError
	a := newApp(t, ecs.Options{OnCommandError: func(e ecs.CommandError) { errs = append(errs, e) }})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for i := range 10 {
			spawnSprite(ctx.Commands, float32(i), 0, 0, speed{X: 1}, red)
		}
	}})
	f := ecs.NewFilter2[ecs.Transform, speed](a.World())
	a.AddSystem(ecs.Update, ecs.System{Name: "reaper", Run: func(ctx *ecs.Sys) {
		q := f.Query()
		for q.Next() {
			e := q.Entity()
			ctx.Commands.Despawn(e)
			ctx.Commands.Despawn(e) // the second one finds it dead
			ecs.With(ctx.Commands.Spawn(), ecs.At(0, 0))
		}
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "leaky", Run: func(ctx *ecs.Sys) {
		q := ecs.NewFilter1[ecs.Transform](ctx.World).Query()
		q.Next() // leaves the loop without Close
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Update(tick(1, 0)); err != nil {
		t.Fatal(err)
	}
	if got, want := f.Count(), 0; got != want {
		t.Errorf("movers left: got %d, want %d", got, want)
	}
	if got, want := len(errs), 10; got != want {
		t.Fatalf("reported errors: got %d, want %d", got, want)
	}
	if got, want := errs[0].Source, "reaper"; got != want {
		t.Errorf("error source: got %q, want %q", got, want)
	}
	st := a.Stats()
	if got, want := st.Commands.DeadEntity, uint64(10); got != want {
		t.Errorf("DeadEntity: got %d, want %d", got, want)
	}
	if got, want := st.LeakedQueries, uint64(1); got != want {
		t.Errorf("LeakedQueries: got %d, want %d", got, want)
	}
	// The next tick runs on an unlocked world.
	if err := a.Update(tick(2, 0)); err != nil {
		t.Fatal(err)
	}
}

func TestAppFailStopsTheHook(t *testing.T) {
	a := newApp(t, ecs.Options{})
	boom := errors.New("boom")
	after := 0
	a.AddSystem(ecs.Update, ecs.System{Name: "fails", Run: func(ctx *ecs.Sys) { ctx.Fail(boom) }})
	a.AddSystem(ecs.PostUpdate, ecs.System{Name: "after", Run: func(*ecs.Sys) { after++ }})
	err := a.Update(tick(1, 0))
	if !errors.Is(err, boom) {
		t.Fatalf("Update: got %v, want an error wrapping %v", err, boom)
	}
	if got, want := err.Error(), `ecs: system "fails" in Update: boom`; got != want {
		t.Errorf("message: got %q, want %q", got, want)
	}
	if after != 0 {
		t.Errorf("systems after the failure ran %d times, want 0", after)
	}
}

func TestAppRequestStop(t *testing.T) {
	a := newApp(t, ecs.Options{})
	a.AddSystem(ecs.Update, ecs.System{Name: "quit", Run: func(ctx *ecs.Sys) {
		if ctx.Time.Number == 2 {
			ctx.RequestStop()
		}
	}})
	stop := runtime.NewStopSignal()
	for n := uint64(1); n <= 2; n++ {
		tc := tick(n, 0)
		tc.Stop = stop
		if err := a.Update(tc); err != nil {
			t.Fatal(err)
		}
		if got, want := stop.Requested(), n == 2; got != want {
			t.Errorf("after tick %d: stop requested %v, want %v", n, got, want)
		}
		if got, want := a.StopRequested(), n == 2; got != want {
			t.Errorf("after tick %d: App.StopRequested %v, want %v", n, got, want)
		}
	}
}

func TestAppRandomIsSeeded(t *testing.T) {
	draw := func(seed uint64) []uint64 {
		a := newApp(t, ecs.Options{Seed: seed})
		var out []uint64
		a.AddSystem(ecs.Update, ecs.System{Name: "roll", Run: func(ctx *ecs.Sys) {
			out = append(out, ctx.Rand.Uint64())
		}})
		for n := uint64(1); n <= 3; n++ {
			if err := a.Update(tick(n, 0)); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	a, b, c := draw(42), draw(42), draw(43)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, draw %d: got %d and %d", i, a[i], b[i])
		}
	}
	if a[0] == c[0] && a[1] == c[1] {
		t.Errorf("different seeds gave the same draws %v", a)
	}
}

func TestAddSystemPanicsOnProgrammerErrors(t *testing.T) {
	tests := []struct {
		name  string
		stage ecs.Stage
		sys   ecs.System
		want  string
	}{
		{"nil run", ecs.Update, ecs.System{Name: "x"}, `ecs: AddSystem: system "x" has a nil Run`},
		{"bad stage", ecs.Stage(99), ecs.System{Name: "y", Run: func(*ecs.Sys) {}}, `ecs: AddSystem: system "y": stage 99 is out of range [0, 5]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t, ecs.Options{})
			defer func() {
				if got := recoverString(recover()); got != tt.want {
					t.Errorf("panic: got %q, want %q", got, tt.want)
				}
			}()
			a.AddSystem(tt.stage, tt.sys)
		})
	}
}

func recoverString(v any) string {
	s, _ := v.(string)
	return s
}

func TestAppVariableTicksDrawCurrentState(t *testing.T) {
	a := newApp(t, ecs.Options{})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		spawnSprite(ctx.Commands, 0, 0, 0, speed{X: 50}, red)
	}})
	a.AddSystem(ecs.Update, moveSystem())
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	for n := uint64(0); n < 3; n++ {
		tc := tick(n, 0)
		tc.Kind, tc.Steps = timing.VariableUpdate, 0
		if err := a.Update(tc); err != nil {
			t.Fatal(err)
		}
	}
	// Alpha is 0 after a variable update; the frame must still show the
	// state after the last update, not the one before it.
	f := prepare(t, a)
	if got, want := f.Passes[0].Packets[0].Transform.Position.X, float32(3); got != want {
		t.Errorf("drawn position after variable ticks: got %v, want %v", got, want)
	}
}

func TestAppInputReachesSystems(t *testing.T) {
	actions := input.NewActions()
	jump := actions.MustRegister("jump", input.KeySpace)
	a := newApp(t, ecs.Options{})
	var log []string
	a.AddSystem(ecs.Update, ecs.System{Name: "player", Run: func(ctx *ecs.Sys) {
		res := ecs.GetResource[ecs.Input](ctx.World)
		switch {
		case ctx.Input == nil:
			log = append(log, "nil")
		case res.Tick != ctx.Input:
			log = append(log, "resource differs")
		default:
			log = append(log, fmt.Sprintf("presses=%d", ctx.Input.Presses(jump)))
		}
	}})
	var in input.Tick
	in.Fill(actions, 0, 100, input.State{}, []input.Record{
		{Time: 10, Kind: input.RecordPress, Button: input.KeySpace},
		{Time: 20, Kind: input.RecordRelease, Button: input.KeySpace},
		{Time: 30, Kind: input.RecordPress, Button: input.KeySpace},
	})
	withInput := tick(1, 0)
	withInput.Input = &in
	for _, tc := range []*runtime.TickContext{withInput, tick(2, 0)} {
		if err := a.Update(tc); err != nil {
			t.Fatal(err)
		}
	}
	// The second tick has no input: an idle one, never nil.
	if got, want := strings.Join(log, " "), "presses=2 presses=0"; got != want {
		t.Errorf("input seen by the system: got %q, want %q", got, want)
	}
	if res := ecs.GetResource[ecs.Input](a.World()); res.Tick != nil {
		t.Error("the input resource still holds the tick after Update returned")
	}
}

func TestAppNoInterpolation(t *testing.T) {
	a := newApp(t, ecs.Options{NoInterpolation: true})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		spawnSprite(ctx.Commands, 0, 0, 0, speed{X: 50}, red)
	}})
	a.AddSystem(ecs.Update, moveSystem())
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	// The runtime's span for a fixed step, as it sets it before
	// PrepareFrame.
	span := render2d.Span{Start: 100, End: 200, Step: step}
	frame := func() render2d.Frame {
		t.Helper()
		var f render2d.Frame
		f.Span = span
		if err := a.PrepareFrame(render2d.NewFrameWriter(&f)); err != nil {
			t.Fatal(err)
		}
		return f
	}
	tests := []struct {
		name     string
		interp   bool
		wantStep time.Duration
		wantPrev bool
	}{
		{"off from the options", false, 0, false},
		{"turned on: the first frame has nothing to move from", true, step, false},
		{"on", true, step, true},
		{"turned off", false, 0, false},
	}
	for i, tt := range tests {
		if i > 0 {
			a.SetInterpolation(tt.interp)
		}
		if a.Interpolation() != tt.interp {
			t.Fatalf("%s: Interpolation() = %v, want %v", tt.name, a.Interpolation(), tt.interp)
		}
		if err := a.Update(tick(uint64(i+1), 0.5)); err != nil {
			t.Fatal(err)
		}
		f := frame()
		p := f.Passes[0].Packets[0]
		if got, want := p.Transform.Position.X, float32(i+1); got != want {
			t.Errorf("%s: drawn at %v, want the current %v", tt.name, got, want)
		}
		if f.Span.Step != tt.wantStep || p.Prev.Set != tt.wantPrev {
			t.Errorf("%s: span step %v, previous placement %+v; want step %v, previous set %v", tt.name, f.Span.Step, p.Prev, tt.wantStep, tt.wantPrev)
		}
	}
}

// TestCameraCullingFollowsTheRenderersRotation pins the sign of the view
// rotation with an asymmetric anchor: render2d turns the world
// counter-clockwise on screen for a positive rotation, so with the camera
// at the top-left corner and a quarter turn, the screen shows world points
// to the left of and below the camera.
func TestCameraCullingFollowsTheRenderersRotation(t *testing.T) {
	a := newApp(t, ecs.Options{})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		cam := ctx.Commands.Spawn()
		tr := ecs.At(1000, 1000)
		tr.Rotation = math.Pi / 2
		ecs.With(cam, tr)
		ecs.With(cam, ecs.Camera{})
		spawnSprite(ctx.Commands, 1000-100, 1000+100, 0, speed{}, green) // on screen
		spawnSprite(ctx.Commands, 1000+100, 1000+100, 0, speed{}, red)   // off screen
		spawnSprite(ctx.Commands, 1000-100, 1000-100, 0, speed{}, blue)  // off screen
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Update(tick(0, 0)); err != nil {
		t.Fatal(err)
	}
	f := prepare(t, a)
	ps := f.Passes[0].Packets
	if len(ps) != 1 || ps[0].Tint != green {
		var tints []render2d.Color
		for _, p := range ps {
			tints = append(tints, p.Tint)
		}
		t.Errorf("visible sprites: got %v, want only the green one", tints)
	}
}
