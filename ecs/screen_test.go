package ecs_test

import (
	"image"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

var bars = render2d.Color{R: 0.125, G: 0.125, B: 0.16, A: 1}

// windowTick is tick 0 in a window of win window units and fb pixels.
func windowTick(win, fb input.Size) *runtime.TickContext {
	tk := tick(0, 1)
	tk.Window = input.Window{Size: win, Framebuffer: fb}
	return tk
}

func sz(w, h int) input.Size { return input.Size{Width: w, Height: h} }

func rect(x, y, w, h float32) geom.Rect { return geom.Rect{X: x, Y: y, W: w, H: h} }

// screenApp is an App on screen s with a world camera over the whole
// logical screen, a minimap camera in its top-right corner and, when
// target is not zero, a camera drawing into that offscreen target.
func screenApp(t *testing.T, s render2d.Screen, target render2d.TargetHandle) *ecs.App {
	t.Helper()
	a := newApp(t, ecs.Options{})
	if err := a.SetScreen(s); err != nil {
		t.Fatalf("SetScreen: %v", err)
	}
	a.AddSystem(ecs.Startup, ecs.System{Name: "cameras", Run: func(ctx *ecs.Sys) {
		world := ctx.Commands.Spawn()
		ecs.With(world, ecs.At(0, 0))
		ecs.With(world, ecs.Camera{})
		mini := ctx.Commands.Spawn()
		ecs.With(mini, ecs.At(0, 0))
		ecs.With(mini, ecs.Camera{Viewport: rect(240, 0, 80, 45), Zoom: 0.25, Order: 1})
		if !target.IsZero() {
			off := ctx.Commands.Spawn()
			ecs.With(off, ecs.At(0, 0))
			ecs.With(off, ecs.Camera{Target: target, Viewport: rect(0, 0, 16, 16), Order: 2})
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatalf("InitSimulation: %v", err)
	}
	return a
}

// TestScreenLaysOutCameras: under a logical screen every frame clears the
// whole window to the screen's colour and gives each window camera its
// viewport in framebuffer pixels, from the layout of the tick's window,
// and its logical size; an offscreen camera keeps its target's pixels.
func TestScreenLaysOutCameras(t *testing.T) {
	logical := func(mode render2d.Scaling) render2d.Screen {
		return render2d.Screen{Width: 320, Height: 180, Scaling: mode, ClearColor: bars}
	}
	tests := []struct {
		name            string
		screen          render2d.Screen
		win, fb         input.Size
		world, mini     geom.Rect
		worldSz, miniSz geom.Vec2
		noLogicalScreen bool
	}{
		{"letterbox, exact", logical(render2d.ScaleLetterbox), sz(1280, 720), sz(1280, 720),
			rect(0, 0, 1280, 720), rect(960, 0, 320, 180), geom.Vec2{X: 320, Y: 180}, geom.Vec2{X: 80, Y: 45}, false},
		{"letterbox, bars left and right", logical(render2d.ScaleLetterbox), sz(1600, 720), sz(1600, 720),
			rect(160, 0, 1280, 720), rect(1120, 0, 320, 180), geom.Vec2{X: 320, Y: 180}, geom.Vec2{X: 80, Y: 45}, false},
		{"letterbox, odd width", logical(render2d.ScaleLetterbox), sz(1001, 720), sz(1001, 720),
			rect(0, 78, 1001, 563), rect(751, 78, 250, 141), geom.Vec2{X: 320, Y: 180}, geom.Vec2{X: 80, Y: 45}, false},
		{"integer, factor 3 in a window one pixel short of 4", logical(render2d.ScaleInteger), sz(1279, 720), sz(1279, 720),
			rect(159, 90, 960, 540), rect(879, 90, 240, 135), geom.Vec2{X: 320, Y: 180}, geom.Vec2{X: 80, Y: 45}, false},
		{"stretch", logical(render2d.ScaleStretch), sz(1000, 1000), sz(1000, 1000),
			rect(0, 0, 1000, 1000), rect(750, 0, 250, 250), geom.Vec2{X: 320, Y: 180}, geom.Vec2{X: 80, Y: 45}, false},
		{"resize, high density", render2d.Screen{Scaling: render2d.ScaleResize, ClearColor: bars}, sz(640, 360), sz(1280, 720),
			rect(0, 0, 1280, 720), rect(480, 0, 160, 90), geom.Vec2{X: 640, Y: 360}, geom.Vec2{X: 80, Y: 45}, false},
		{"no logical screen: as given, in framebuffer pixels", render2d.Screen{ClearColor: bars}, sz(640, 360), sz(1280, 720),
			geom.Rect{}, rect(240, 0, 80, 45), geom.Vec2{}, geom.Vec2{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := rendertest.NewRecorder(tt.fb.Width, tt.fb.Height, 1024)
			target, _, err := rec.CreateRenderTarget(16, 16, render2d.TextureOptions{})
			if err != nil {
				t.Fatal(err)
			}
			a := screenApp(t, tt.screen, target)
			if err := a.Update(windowTick(tt.win, tt.fb)); err != nil {
				t.Fatal(err)
			}
			f := prepareWith(t, a, rec)
			if !f.Clear || f.ClearColor != bars {
				t.Errorf("frame clear %v %v, want the screen's colour %v", f.Clear, f.ClearColor, bars)
			}
			if len(f.Passes) != 3 {
				t.Fatalf("%d passes, want the world, the minimap and the offscreen camera", len(f.Passes))
			}
			for i, want := range []struct {
				viewport geom.Rect
				size     geom.Vec2
			}{{tt.world, tt.worldSz}, {tt.mini, tt.miniSz}, {rect(0, 0, 16, 16), geom.Vec2{}}} {
				c := f.Passes[i].Camera
				if c.Viewport != want.viewport || c.Size != want.size {
					t.Errorf("pass %d: viewport %+v size %v, want %+v size %v", i, c.Viewport, c.Size, want.viewport, want.size)
				}
			}
			if f.Passes[1].Camera.Zoom != 0.25 {
				t.Errorf("minimap zoom %v, want 0.25 (logical units per world unit, unscaled)", f.Passes[1].Camera.Zoom)
			}
			// The bars are the clear colour; the recorder applies clears.
			img, err := rec.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, 1, 1))
			if err != nil {
				t.Fatal(err)
			}
			if got := img.RGBAAt(0, 0); got.R != 32 || got.G != 32 || got.B != 41 || got.A != 255 {
				t.Errorf("window corner %v, want the bars' colour", got)
			}
		})
	}
}

// TestScreenCullsInLogicalUnits: culling measures the view in logical
// units, not in the framebuffer's pixels.
func TestScreenCullsInLogicalUnits(t *testing.T) {
	a := newApp(t, ecs.Options{})
	if err := a.SetScreen(render2d.Screen{Width: 320, Height: 180}); err != nil {
		t.Fatal(err)
	}
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		spawnSprite(ctx.Commands, 316, 176, 0, speed{}, red)   // in the bottom-right corner
		spawnSprite(ctx.Commands, 330, 90, 0, speed{}, blue)   // right of the logical screen, though inside the framebuffer's 1600 pixels
		spawnSprite(ctx.Commands, 100, 200, 0, speed{}, green) // below it
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Update(windowTick(sz(1600, 900), sz(1600, 900))); err != nil {
		t.Fatal(err)
	}
	f := prepareWith(t, a, rendertest.NewRecorder(1600, 900, 1024))
	if len(f.Passes) != 1 || len(f.Passes[0].Packets) != 1 || f.Passes[0].Packets[0].Tint != red {
		t.Fatalf("frame %+v, want one default pass with the red sprite only", f.Passes)
	}
	if got := f.Passes[0].Camera; got.Viewport != rect(0, 0, 1600, 900) || got.Size != (geom.Vec2{X: 320, Y: 180}) {
		t.Errorf("default view %+v, want the whole 1600x900 framebuffer showing 320x180", got)
	}
	if got := a.Stats().Extract.Culled; got != 2 {
		t.Errorf("culled %d, want 2", got)
	}
}

// TestScreenMinimised: a framebuffer of no area lays out to nothing: no
// window pass, the offscreen one still drawn, the frame still cleared.
func TestScreenMinimised(t *testing.T) {
	rec := rendertest.NewRecorder(0, 0, 1024)
	target, _, err := rec.CreateRenderTarget(16, 16, render2d.TextureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := screenApp(t, render2d.Screen{Width: 320, Height: 180, ClearColor: bars}, target)
	if err := a.Update(windowTick(sz(0, 0), sz(0, 0))); err != nil {
		t.Fatal(err)
	}
	f := prepareWith(t, a, rec)
	if len(f.Passes) != 1 || f.Passes[0].Target != target || !f.Clear {
		t.Errorf("frame with %d passes (first %+v), clear %v; want the offscreen pass alone and a clear", len(f.Passes), f.Passes, f.Clear)
	}
}

func TestSetScreenValidates(t *testing.T) {
	a := newApp(t, ecs.Options{})
	good := render2d.Screen{Width: 320, Height: 180, Scaling: render2d.ScaleInteger}
	if err := a.SetScreen(good); err != nil {
		t.Fatal(err)
	}
	if err := a.SetScreen(render2d.Screen{Width: 320, Scaling: render2d.ScaleResize}); err == nil {
		t.Fatal("SetScreen of an invalid screen succeeded")
	}
	if got := a.Screen(); got != good {
		t.Errorf("after a refused SetScreen the screen is %+v, want %+v unchanged", got, good)
	}
}

// TestScreenToWorld converts window points (the cursor's coordinates)
// through cameras turned, zoomed, anchored, following an entity, on
// logical screens in high-density windows, and back; each conversion
// agrees with the frame extraction draws: the world point maps to the
// framebuffer pixel the recorded camera puts it at.
func TestScreenToWorld(t *testing.T) {
	cams := []struct {
		name string
		at   ecs.Transform
		cam  ecs.Camera
	}{
		{"default view", ecs.Transform{}, ecs.Camera{}},
		{"centred, zoomed and turned", ecs.Transform{Position: geom.Vec2{X: 100, Y: -20}, Rotation: 0.6, Scale: geom.Vec2{X: 1, Y: 1}}, ecs.Camera{Anchor: geom.Vec2{X: 0.5, Y: 0.5}, Zoom: 2.5}},
		{"in a logical viewport, following", ecs.Transform{Position: geom.Vec2{X: 3, Y: 4}, Rotation: -2, Scale: geom.Vec2{X: 1, Y: 1}}, ecs.Camera{Anchor: geom.Vec2{X: 0.25, Y: 1}, Zoom: 0.5, Viewport: rect(160, 20, 150, 100)}},
	}
	screens := []struct {
		name    string
		screen  render2d.Screen
		win, fb input.Size
	}{
		{"letterbox in a high-density window", render2d.Screen{Width: 320, Height: 180}, sz(800, 360), sz(1600, 720)},
		{"integer, odd window", render2d.Screen{Width: 320, Height: 180, Scaling: render2d.ScaleInteger}, sz(1279, 721), sz(1279, 721)},
		{"stretch", render2d.Screen{Width: 320, Height: 180, Scaling: render2d.ScaleStretch}, sz(1000, 1000), sz(1000, 1000)},
		{"resize, high density", render2d.Screen{Scaling: render2d.ScaleResize}, sz(640, 360), sz(1280, 720)},
		{"no logical screen, high density", render2d.Screen{}, sz(640, 360), sz(1280, 720)},
	}
	for _, sc := range screens {
		for ci, cm := range cams {
			t.Run(sc.name+"/"+cm.name, func(t *testing.T) {
				a := newApp(t, ecs.Options{})
				if err := a.SetScreen(sc.screen); err != nil {
					t.Fatal(err)
				}
				var cam ecs.Entity
				if ci > 0 {
					a.AddSystem(ecs.Startup, ecs.System{Name: "camera", Run: func(ctx *ecs.Sys) {
						leader := ctx.Commands.Spawn()
						ecs.With(leader, ecs.At(40, 30))
						p := ctx.Commands.Spawn()
						ecs.With(p, cm.at)
						c := cm.cam
						if ci == 2 {
							c.Follow = leader.Entity()
						}
						ecs.With(p, c)
					}})
					a.AddSystem(ecs.Startup, ecs.System{Name: "find", Run: func(ctx *ecs.Sys) {
						q := ecs.NewFilter1[ecs.Camera](ctx.World).Query()
						for q.Next() {
							cam = q.Entity()
						}
					}})
				}
				points := []geom.Vec2{{X: 0, Y: 0}, {X: float32(sc.win.Width) / 2, Y: float32(sc.win.Height) / 2}, {X: 123.25, Y: 77.5}, {X: float32(sc.win.Width), Y: float32(sc.win.Height)}}
				worlds := make([]geom.Vec2, len(points))
				a.AddSystem(ecs.Update, ecs.System{Name: "pick", Run: func(ctx *ecs.Sys) {
					for i, p := range points {
						w, ok := ctx.ScreenToWorld(cam, p)
						if !ok {
							t.Fatalf("ScreenToWorld(%v, %v) failed", cam, p)
						}
						back, ok := ctx.WorldToScreen(cam, w)
						if !ok || !near(back, p, 2e-3) {
							t.Errorf("window %v -> world %v -> window %v, %v", p, w, back, ok)
						}
						worlds[i] = w
					}
				}})
				if err := a.InitSimulation(nil); err != nil {
					t.Fatal(err)
				}
				if err := a.Update(windowTick(sc.win, sc.fb)); err != nil {
					t.Fatal(err)
				}
				f := prepareWith(t, a, rendertest.NewRecorder(sc.fb.Width, sc.fb.Height, 1024))
				drawn := f.Passes[0].Camera
				sx, sy := float32(sc.fb.Width)/float32(sc.win.Width), float32(sc.fb.Height)/float32(sc.win.Height)
				for i, p := range points {
					got := drawn.WorldToTarget(worlds[i], sc.fb.Width, sc.fb.Height)
					if want := (geom.Vec2{X: p.X * sx, Y: p.Y * sy}); !near(got, want, 5e-3) {
						t.Errorf("window point %v: world %v is drawn at framebuffer %v, want %v", p, worlds[i], got, want)
					}
				}
			})
		}
	}
}

func near(a, b geom.Vec2, tol float64) bool {
	return math.Abs(float64(a.X-b.X)) <= tol*math.Max(1, math.Abs(float64(b.X))) &&
		math.Abs(float64(a.Y-b.Y)) <= tol*math.Max(1, math.Abs(float64(b.Y)))
}

// TestScreenToWorldValues pins conversions a player can check by eye, and
// the cases that cannot convert.
func TestScreenToWorldValues(t *testing.T) {
	a := newApp(t, ecs.Options{})
	if err := a.SetScreen(render2d.Screen{Width: 320, Height: 180}); err != nil {
		t.Fatal(err)
	}
	var centred, offscreen, dead ecs.Entity
	a.AddSystem(ecs.Startup, ecs.System{Name: "cameras", Run: func(ctx *ecs.Sys) {
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.Transform{Position: geom.Vec2{X: 500, Y: 500}, Rotation: math.Pi / 2, Scale: geom.Vec2{X: 1, Y: 1}})
		ecs.With(p, ecs.Camera{Anchor: geom.Vec2{X: 0.5, Y: 0.5}, Zoom: 2})
		o := ctx.Commands.Spawn()
		ecs.With(o, ecs.At(0, 0))
		ecs.With(o, ecs.Camera{Target: render2d.TargetHandle{ID: 1, Gen: 1}, Disabled: true})
		d := ctx.Commands.Spawn()
		ecs.With(d, ecs.At(0, 0))
	}})
	a.AddSystem(ecs.Startup, ecs.System{Name: "find", Run: func(ctx *ecs.Sys) {
		q := ecs.NewFilter2[ecs.Transform, ecs.Camera](ctx.World).Query()
		for q.Next() {
			if _, c := q.Get(); c.Target.IsZero() {
				centred = q.Entity()
			} else {
				offscreen = q.Entity()
			}
		}
		q2 := ecs.NewFilter1[ecs.Transform](ctx.World).Without(ecs.TypeOf[ecs.Camera]()).Query()
		for q2.Next() {
			dead = q2.Entity() // alive, but no camera
		}
	}})
	type conv struct {
		name     string
		cam      *ecs.Entity
		window   geom.Vec2
		world    geom.Vec2
		ok       bool
		inverted bool // WorldToScreen(world) = window
	}
	var zero ecs.Entity
	tests := []conv{
		// An 800x360 window of 1600x720 pixels: the 320x180 screen is
		// 1280x720 pixels at 160 from the left, 80 window units.
		{"HUD: the logical screen's corner", &zero, geom.Vec2{X: 80, Y: 0}, geom.Vec2{X: 0, Y: 0}, true, true},
		{"HUD: its far corner", &zero, geom.Vec2{X: 720, Y: 360}, geom.Vec2{X: 320, Y: 180}, true, true},
		{"HUD: in the left bar", &zero, geom.Vec2{X: 40, Y: 180}, geom.Vec2{X: -20, Y: 90}, true, true},
		{"the window's centre is the camera", &centred, geom.Vec2{X: 400, Y: 180}, geom.Vec2{X: 500, Y: 500}, true, true},
		// 10 window units right of the centre: 5 logical units, 2.5 world
		// units at zoom 2. Turned a quarter, the camera shows the world
		// counter-clockwise: what lies at +y in the world appears right of
		// the centre.
		{"turned a quarter", &centred, geom.Vec2{X: 410, Y: 180}, geom.Vec2{X: 500, Y: 502.5}, true, true},
		{"an offscreen camera", &offscreen, geom.Vec2{}, geom.Vec2{}, false, false},
		{"an entity that is no camera", &dead, geom.Vec2{}, geom.Vec2{}, false, false},
	}
	var pendingOK, converted bool
	a.AddSystem(ecs.Update, ecs.System{Name: "convert", Run: func(ctx *ecs.Sys) {
		if converted {
			return // the first tick's window only
		}
		converted = true
		for _, tt := range tests {
			got, ok := ctx.ScreenToWorld(*tt.cam, tt.window)
			if ok != tt.ok || ok && !near(got, tt.world, 1e-5) {
				t.Errorf("%s: ScreenToWorld(%v) = %v, %v; want %v, %v", tt.name, tt.window, got, ok, tt.world, tt.ok)
			}
			if tt.inverted {
				if back, ok := ctx.WorldToScreen(*tt.cam, tt.world); !ok || !near(back, tt.window, 1e-5) {
					t.Errorf("%s: WorldToScreen(%v) = %v, %v; want %v", tt.name, tt.world, back, ok, tt.window)
				}
			}
		}
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.Camera{})
		_, pendingOK = ctx.ScreenToWorld(p.Entity(), geom.Vec2{})
		if l := ctx.Layout(); l.Viewport != rect(160, 0, 1280, 720) {
			t.Errorf("Layout() viewport %+v, want 160, 0, 1280x720", l.Viewport)
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Update(windowTick(sz(800, 360), sz(1600, 720))); err != nil {
		t.Fatal(err)
	}
	if pendingOK {
		t.Error("ScreenToWorld through a camera still to be spawned succeeded")
	}
	var minimised bool
	a.AddSystem(ecs.Update, ecs.System{Name: "minimised", Run: func(ctx *ecs.Sys) {
		_, minimised = ctx.ScreenToWorld(ecs.Entity{}, geom.Vec2{})
	}})
	if err := a.Update(windowTick(sz(0, 0), sz(0, 0))); err != nil {
		t.Fatal(err)
	}
	if minimised {
		t.Error("ScreenToWorld in a window of no area succeeded")
	}
}

// TestScreenFollowsResizes runs the App on the runtime with the runtime
// test kit's display resized three times, in both run modes: the frames
// rendered show the world camera's viewport following the framebuffer,
// letterboxed each time.
func TestScreenFollowsResizes(t *testing.T) {
	for _, mode := range []runtime.Mode{runtime.Sequential, runtime.Concurrent} {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				a := newApp(t, ecs.Options{})
				if err := a.SetScreen(render2d.Screen{Width: 320, Height: 180, ClearColor: bars}); err != nil {
					t.Fatal(err)
				}
				a.AddSystem(ecs.Startup, ecs.System{Name: "camera", Run: func(ctx *ecs.Sys) {
					p := ctx.Commands.Spawn()
					ecs.With(p, ecs.At(0, 0))
					ecs.With(p, ecs.Camera{})
				}})
				a.AddSystem(ecs.Update, ecs.System{Name: "stop", Run: func(ctx *ecs.Sys) {
					if ctx.Time.Elapsed >= 400*time.Millisecond {
						ctx.RequestStop()
					}
				}})
				clock := runtimetest.NewBubbleClock()
				opts := runtime.DefaultOptions()
				opts.Mode = mode
				opts.Clock = clock
				opts.Timing.Mode = timing.FixedMode
				opts.Timing.FixedStep = 20 * time.Millisecond
				ctx, fakes := runtimetest.NewAdapters(clock)
				ctx.Input = nil
				fakes.Display.Set(func(s *runtime.WindowState) { s.Size, s.Framebuffer = sz(1280, 720), sz(1280, 720) })
				fakes.Display.
					Resize(clock.At(100*time.Millisecond), sz(1600, 720), sz(1600, 720)).
					Resize(clock.At(200*time.Millisecond), sz(1001, 900), sz(1001, 900)).
					Resize(clock.At(300*time.Millisecond), sz(640, 360), sz(1280, 720))
				rt, err := runtime.New(a, ctx, opts)
				if err != nil {
					t.Fatal(err)
				}
				if err := rt.Run(); err != nil {
					t.Fatalf("Run: %v", err)
				}
				want := []geom.Rect{rect(0, 0, 1280, 720), rect(160, 0, 1280, 720), rect(0, 168, 1001, 563), rect(0, 0, 1280, 720)}
				var seen []geom.Rect
				for i, f := range fakes.Renderer.Frames {
					if !f.Clear || f.ClearColor != bars || len(f.Passes) != 1 {
						t.Fatalf("frame %d: clear %v %v, %d passes; want the bars' colour and one pass", i, f.Clear, f.ClearColor, len(f.Passes))
					}
					if c := f.Passes[0].Camera; c.Size != (geom.Vec2{X: 320, Y: 180}) {
						t.Fatalf("frame %d: view size %v, want 320x180", i, c.Size)
					}
					if v := f.Passes[0].Camera.Viewport; len(seen) == 0 || seen[len(seen)-1] != v {
						seen = append(seen, v)
					}
				}
				if len(seen) != len(want) {
					t.Fatalf("viewports in the order rendered %+v, want %+v", seen, want)
				}
				for i := range want {
					if seen[i] != want[i] {
						t.Errorf("viewport %d: %+v, want %+v", i, seen[i], want[i])
					}
				}
				sizes := fakes.Renderer.FramebufferSizes()
				if n := len(sizes); n == 0 || sizes[n-1] != sz(1280, 720) {
					t.Errorf("framebuffer sizes set %v, want the last resize's 1280x720 last", sizes)
				}
			})
		})
	}
}
