package ecs_test

import (
	"math"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// playScript runs a script of ticks (T) and frames (F) on a over a
// recorder and returns the frames in order. Tick n (from 1) runs the
// systems with Time.Number n.
func playScript(t *testing.T, a *ecs.App, rec *rendertest.Recorder, script string) []*render2d.Frame {
	t.Helper()
	var frames []*render2d.Frame
	n := uint64(0)
	for _, c := range strings.Fields(script) {
		switch c {
		case "T":
			n++
			if err := a.Update(tick(n, 0)); err != nil {
				t.Fatalf("tick %d: %v", n, err)
			}
		case "F":
			frames = append(frames, prepareWith(t, a, rec))
		default:
			t.Fatalf("script %q: unknown step %q", script, c)
		}
	}
	return frames
}

// packetByTint finds the packet of pass p with tint c (sprites are told
// apart by their tints).
func packetByTint(t *testing.T, f *render2d.Frame, pass int, c render2d.Color) render2d.DrawPacket2D {
	t.Helper()
	for _, p := range f.Passes[pass].Packets {
		if p.Tint == c {
			return p
		}
	}
	t.Fatalf("pass %d has no packet of tint %v", pass, c)
	return render2d.DrawPacket2D{}
}

// TestExtractionInterpolation: each packet carries where its entity was at
// the previous frame extracted (Prev) and where it is now, for every way an
// entity can come, go, jump or be seen.
func TestExtractionInterpolation(t *testing.T) {
	unset := render2d.Placement{}
	at := func(x, y float32) render2d.Placement {
		return render2d.Placement{Position: geom.Vec2{X: x, Y: y}, Scale: geom.Vec2{X: 1, Y: 1}, Tint: red, Set: true}
	}
	// transforms calls fn on the moving (red) sprite.
	transforms := func(ctx *ecs.Sys, fn func(e ecs.Entity, tr *ecs.Transform)) {
		q := ecs.NewFilter2[ecs.Transform, speed](ctx.World).Query()
		for q.Next() {
			if tr, v := q.Get(); v.X != 0 {
				fn(q.Entity(), tr)
			}
		}
	}
	tests := []struct {
		name   string
		script string
		// tick runs in every tick; n is the tick's number.
		tick func(ctx *ecs.Sys, n uint64)
		// want is the red packet's previous placement in the last frame
		// and the x it is drawn at; pass is the pass it is read from.
		want    render2d.Placement
		wantX   float32
		cameras int
	}{
		{name: "moved", script: "F T F", want: at(10, 20), wantX: 11},
		{name: "first frame", script: "T F", want: unset, wantX: 11},
		{name: "no frame between ticks: from the last frame extracted", script: "F T T T F", want: at(10, 20), wantX: 13},
		{name: "from the frame just before, not an older one", script: "F T F T F", want: at(11, 20), wantX: 12},
		{name: "two frames without a tick", script: "F T F F", want: at(11, 20), wantX: 11},
		{name: "teleported", script: "F T F", tick: func(ctx *ecs.Sys, n uint64) {
			transforms(ctx, func(_ ecs.Entity, tr *ecs.Transform) { tr.Teleport() })
		}, want: unset, wantX: 11},
		{name: "teleported a frame earlier", script: "F T F T F", tick: func(ctx *ecs.Sys, n uint64) {
			if n == 1 {
				transforms(ctx, func(_ ecs.Entity, tr *ecs.Transform) { tr.Teleport() })
			}
		}, want: at(11, 20), wantX: 12},
		{name: "teleported, no frame in between", script: "F T T F", tick: func(ctx *ecs.Sys, n uint64) {
			if n == 1 {
				transforms(ctx, func(_ ecs.Entity, tr *ecs.Transform) { tr.Teleport() })
			}
		}, want: unset, wantX: 12},
		{name: "not interpolated", script: "F T F", tick: func(ctx *ecs.Sys, n uint64) {
			transforms(ctx, func(_ ecs.Entity, tr *ecs.Transform) { tr.SetInterpolation(false) })
		}, want: unset, wantX: 11},
		{name: "written whole with Set", script: "F T F", tick: func(ctx *ecs.Sys, n uint64) {
			transforms(ctx, func(e ecs.Entity, tr *ecs.Transform) { ecs.Set(ctx.Commands, e, ecs.At(50, 20)) })
		}, want: unset, wantX: 50},
		{name: "tint changed", script: "F T F", tick: func(ctx *ecs.Sys, n uint64) {
			q := ecs.NewFilter1[ecs.Sprite](ctx.World).Query()
			for q.Next() {
				if s := q.Get(); s.Tint == red {
					s.Tint = render2d.Color{R: 1, A: 0.5}
				}
			}
		}, want: at(10, 20), wantX: 11},
		{name: "off screen at the previous frame", script: "F T F", tick: func(ctx *ecs.Sys, n uint64) {
			transforms(ctx, func(_ ecs.Entity, tr *ecs.Transform) { tr.Position.X += 1000 })
		}, want: at(-990, 20), wantX: 11},
		{name: "hidden at the previous frame", script: "F T F", tick: func(ctx *ecs.Sys, n uint64) {
			q := ecs.NewFilter1[ecs.Sprite](ctx.World).Query()
			for q.Next() {
				q.Get().Hidden = false
			}
		}, want: at(10, 20), wantX: 11},
		{name: "two cameras: the same previous placement in both passes", script: "F T F T F", cameras: 2, want: at(11, 20), wantX: 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t, ecs.Options{})
			a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
				x := float32(10)
				switch tt.name {
				case "off screen at the previous frame":
					x = -990
				}
				spawnSprite(ctx.Commands, x, 20, 0, speed{X: 50}, red)
				spawnSprite(ctx.Commands, 100, 100, 0, speed{}, blue)
				for range tt.cameras {
					c := ctx.Commands.Spawn()
					ecs.With(c, ecs.At(0, 0))
					ecs.With(c, ecs.Camera{})
				}
			}})
			if tt.name == "hidden at the previous frame" {
				a.AddSystem(ecs.Startup, ecs.System{Name: "hide", Run: func(ctx *ecs.Sys) {
					q := ecs.NewFilter1[ecs.Sprite](ctx.World).Query()
					for q.Next() {
						q.Get().Hidden = true
					}
				}})
			}
			a.AddSystem(ecs.Update, moveSystem())
			if tt.tick != nil {
				a.AddSystem(ecs.Update, ecs.System{Name: "case", Run: func(ctx *ecs.Sys) { tt.tick(ctx, ctx.Time.Number) }})
			}
			if err := a.InitSimulation(nil); err != nil {
				t.Fatal(err)
			}
			frames := playScript(t, a, rendertest.NewRecorder(320, 240, 1024), tt.script)
			last := frames[len(frames)-1]
			passes := max(tt.cameras, 1)
			if len(last.Passes) != passes {
				t.Fatalf("passes: got %d, want %d", len(last.Passes), passes)
			}
			for pass := range passes {
				tint := red
				if tt.name == "tint changed" {
					tint = render2d.Color{R: 1, A: 0.5}
				}
				p := packetByTint(t, last, pass, tint)
				if p.Prev != tt.want {
					t.Errorf("pass %d: previous placement %+v, want %+v", pass, p.Prev, tt.want)
				}
				if got := p.Transform.Position; !near2(got, geom.Vec2{X: tt.wantX, Y: 20}) {
					t.Errorf("pass %d: current position %+v, want x=%v", pass, got, tt.wantX)
				}
				if b := packetByTint(t, last, pass, blue); len(frames) > 1 && !strings.HasPrefix(tt.script, "T") && b.Prev != (render2d.Placement{Position: geom.Vec2{X: 100, Y: 100}, Scale: geom.Vec2{X: 1, Y: 1}, Tint: blue, Set: true}) {
					t.Errorf("pass %d: the still sprite's previous placement %+v, want where it stands", pass, b.Prev)
				}
			}
		})
	}
}

// TestExtractionRecycledEntity: a new entity on a despawned one's index is
// drawn where it is, not slid from where its predecessor was.
func TestExtractionRecycledEntity(t *testing.T) {
	a := newApp(t, ecs.Options{})
	var first ecs.Entity
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		spawnSprite(ctx.Commands, 10, 10, 0, speed{}, red)
	}})
	sprites := ecs.NewFilter1[ecs.Sprite](a.World())
	a.AddSystem(ecs.Update, ecs.System{Name: "replace", Run: func(ctx *ecs.Sys) {
		q := sprites.Query()
		for q.Next() {
			first = q.Entity()
			ctx.Commands.Despawn(first)
		}
		spawnSprite(ctx.Commands, 200, 200, 0, speed{}, green)
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	frames := playScript(t, a, rendertest.NewRecorder(320, 240, 1024), "F T F")
	var second ecs.Entity
	q := sprites.Query()
	for q.Next() {
		second = q.Entity()
	}
	if second.ID() != first.ID() || second == first {
		t.Fatalf("the test needs a recycled index: got %v after %v", second, first)
	}
	if p := packetByTint(t, frames[1], 0, green); p.Prev.Set {
		t.Errorf("the new entity has the previous placement %+v of the one it replaced", p.Prev)
	}
}

// TestExtractionAcrossArchetypes: placements are remembered by entity, so
// entities that move between archetypes, or whose archetype is emptied
// around them, keep theirs.
func TestExtractionAcrossArchetypes(t *testing.T) {
	a := newApp(t, ecs.Options{})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for i := range 300 {
			p := ctx.Commands.Spawn()
			ecs.With(p, ecs.At(float32(i%100), float32(i/100)))
			ecs.With(p, speed{X: 50, Y: float32(i % 7)})
			ecs.With(p, ecs.Sprite{Size: geom.Vec2{X: 1, Y: 1}, Tint: render2d.Color{R: float32(i) / 300, A: 1}})
			switch i % 4 {
			case 1:
				ecs.With(p, health{i})
			case 3:
				ecs.With(p, position{}) // this archetype is emptied below
			}
		}
	}})
	a.AddSystem(ecs.Update, moveSystem())
	doomed := ecs.NewFilter1[position](a.World())
	healthy := ecs.NewFilter1[health](a.World())
	a.AddSystem(ecs.PostUpdate, ecs.System{Name: "reshuffle", Run: func(ctx *ecs.Sys) {
		q := doomed.Query()
		for q.Next() {
			ctx.Commands.Despawn(q.Entity())
		}
		h := healthy.Query()
		for h.Next() {
			ecs.Remove[health](ctx.Commands, h.Entity()) // moves to another archetype
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	frames := playScript(t, a, rendertest.NewRecorder(320, 240, 1024), "F T F")
	ps := frames[1].Passes[0].Packets
	if len(ps) != 225 {
		t.Fatalf("packets: got %d, want 225", len(ps))
	}
	for _, p := range ps {
		i := int(math.Round(float64(p.Tint.R * 300)))
		want := geom.Vec2{X: float32(i%100) + 1, Y: float32(i/100) + float32(i%7)*0.02}
		prev := geom.Vec2{X: float32(i % 100), Y: float32(i / 100)}
		if !near2(p.Transform.Position, want) || !p.Prev.Set || !near2(p.Prev.Position, prev) {
			t.Fatalf("sprite %d: at %+v from %+v, want at %+v from %+v", i, p.Transform.Position, p.Prev, want, prev)
		}
	}
}

// TestExtractionCameras: a pass carries its camera's previous placement,
// zoom included; a following camera moves exactly as its target, so the
// target holds still on screen at every alpha, and jumps with it.
func TestExtractionCameras(t *testing.T) {
	type tickFn func(ctx *ecs.Sys, cam, target ecs.Entity)
	tests := []struct {
		name     string
		follow   bool
		tick     tickFn
		wantPrev render2d.CameraPlacement
		wantPos  geom.Vec2
	}{
		{"still", false, nil, render2d.CameraPlacement{Position: geom.Vec2{X: 5, Y: 5}, Zoom: 2, Set: true}, geom.Vec2{X: 5, Y: 5}},
		{"panned, turned and zoomed", false, func(ctx *ecs.Sys, cam, _ ecs.Entity) {
			m := ecs.NewMap[ecs.Transform](ctx.World)
			tr := m.Get(cam)
			tr.Position.X += 10
			tr.Rotation = 0.5
			cams := ecs.NewMap[ecs.Camera](ctx.World)
			cams.Get(cam).Zoom = 4
		}, render2d.CameraPlacement{Position: geom.Vec2{X: 5, Y: 5}, Zoom: 2, Set: true}, geom.Vec2{X: 15, Y: 5}},
		{"teleported", false, func(ctx *ecs.Sys, cam, _ ecs.Entity) {
			m := ecs.NewMap[ecs.Transform](ctx.World)
			tr := m.Get(cam)
			tr.Position.X += 10
			tr.Teleport()
		}, render2d.CameraPlacement{}, geom.Vec2{X: 15, Y: 5}},
		// The target moves by 1 a tick from (100, 50); the camera sits 5, 5 off it.
		{"following", true, nil, render2d.CameraPlacement{Position: geom.Vec2{X: 105, Y: 55}, Zoom: 2, Set: true}, geom.Vec2{X: 106, Y: 55}},
		{"following a teleported target", true, func(ctx *ecs.Sys, _, target ecs.Entity) {
			m := ecs.NewMap[ecs.Transform](ctx.World)
			tr := m.Get(target)
			tr.Position.Y += 100
			tr.Teleport()
		}, render2d.CameraPlacement{Position: geom.Vec2{X: 106, Y: 155}, Zoom: 2, Set: true}, geom.Vec2{X: 106, Y: 155}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t, ecs.Options{})
			var cam, target ecs.Entity
			var pendCam, pendTarget ecs.Pending
			a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
				pendTarget = ctx.Commands.Spawn()
				ecs.With(pendTarget, ecs.At(100, 50))
				ecs.With(pendTarget, ecs.Sprite{Size: geom.Vec2{X: 4, Y: 4}, Tint: red})
				ecs.With(pendTarget, speed{X: 50})
				pendCam = ctx.Commands.Spawn()
				ecs.With(pendCam, ecs.At(5, 5))
			}})
			a.AddSystem(ecs.Startup, ecs.System{Name: "camera", Run: func(ctx *ecs.Sys) {
				cam, _ = ctx.Commands.Resolve(pendCam)
				target, _ = ctx.Commands.Resolve(pendTarget)
				c := ecs.Camera{Anchor: geom.Vec2{X: 0.5, Y: 0.5}, Zoom: 2}
				if tt.follow {
					c.Follow = target
				}
				ecs.Add(ctx.Commands, cam, c)
			}})
			a.AddSystem(ecs.Update, moveSystem())
			if tt.tick != nil {
				a.AddSystem(ecs.Update, ecs.System{Name: "case", Run: func(ctx *ecs.Sys) { tt.tick(ctx, cam, target) }})
			}
			if err := a.InitSimulation(nil); err != nil {
				t.Fatal(err)
			}
			frames := playScript(t, a, rendertest.NewRecorder(320, 240, 1024), "F T F")
			if frames[0].Passes[0].PrevCamera.Set {
				t.Errorf("first frame: previous camera %+v, want unset", frames[0].Passes[0].PrevCamera)
			}
			p := frames[1].Passes[0]
			if p.PrevCamera != tt.wantPrev || !near2(p.Camera.Position, tt.wantPos) {
				t.Errorf("camera at %+v from %+v, want at %+v from %+v", p.Camera.Position, p.PrevCamera, tt.wantPos, tt.wantPrev)
			}
			if !tt.follow {
				return
			}
			// The followed sprite is at the same screen point at every alpha:
			// its world position minus the camera's.
			s := packetByTint(t, frames[1], 0, red)
			var first geom.Vec2
			for i, alpha := range []float32{0, 0.3, 0.7, 1} {
				c := p.ResolvedCamera(alpha).Position
				w := s.Resolved(alpha).Transform.Position
				d := geom.Vec2{X: w.X - c.X, Y: w.Y - c.Y}
				if i == 0 {
					first = d
				} else if !near2(d, first) {
					t.Errorf("alpha %v: the target is %+v from the camera, at alpha 0 %+v", alpha, d, first)
				}
			}
		})
	}
}

// TestExtractionTextMovesAsOne: the glyphs of a moved, turned and scaled
// text carry, as their previous placements, exactly where the previous
// frame drew them.
func TestExtractionTextMovesAsOne(t *testing.T) {
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	font, err := lib.DefaultFont(16)
	if err != nil {
		t.Fatal(err)
	}
	rec := rendertest.NewRecorder(320, 240, 4096)
	a := newApp(t, ecs.Options{Assets: lib})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.At(100, 50))
		ecs.With(p, ecs.Text{Font: font, Content: "Hi there", Color: green})
	}})
	texts := ecs.NewFilter1[ecs.Text](a.World())
	a.AddSystem(ecs.Update, ecs.System{Name: "swing", Run: func(ctx *ecs.Sys) {
		q := ecs.NewFilter1[ecs.Transform](ctx.World).Query()
		for q.Next() {
			tr := q.Get()
			tr.Position.X += 20
			tr.Rotation += 0.4
			tr.Scale.X *= 1.5
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	// Rasterise and upload the glyphs first, so every frame has them all.
	if err := a.PrepareFrame(render2d.NewFrameWriter(&render2d.Frame{})); err != nil {
		t.Fatal(err)
	}
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	frames := playScript(t, a, rec, "T F T F")
	if texts.Count() != 1 {
		t.Fatal("the text is gone")
	}
	before, after := frames[0].Passes[0].Packets, frames[1].Passes[0].Packets
	if len(before) != len(after) || len(after) < 7 {
		t.Fatalf("glyphs: %d then %d, want the same number, at least 7", len(before), len(after))
	}
	for i := range after {
		g := after[i].Resolved(0)
		b := before[i]
		if !near2(g.Transform.Position, b.Transform.Position) || math.Abs(float64(g.Transform.Rotation-b.Transform.Rotation)) > 1e-5 ||
			!near2(geom.Vec2{X: g.Size.X * g.Transform.Scale.X, Y: g.Size.Y * g.Transform.Scale.Y}, geom.Vec2{X: b.Size.X * b.Transform.Scale.X, Y: b.Size.Y * b.Transform.Scale.Y}) {
			t.Errorf("glyph %d at alpha 0: %+v size %+v, want where the previous frame drew it: %+v size %+v", i, g.Transform, g.Size, b.Transform, b.Size)
		}
		if r := after[i].Resolved(1); r.Transform != after[i].Transform {
			t.Errorf("glyph %d at alpha 1: %+v, want its current %+v", i, r.Transform, after[i].Transform)
		}
	}
}
