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

func TestAppText(t *testing.T) {
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	font, err := lib.DefaultFont(16)
	if err != nil {
		t.Fatal(err)
	}
	rec := rendertest.NewRecorder(320, 240, 4096)
	tests := []struct {
		name     string
		rotation float32
	}{{"upright", 0}, {"quarter turn", math.Pi / 2}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t, ecs.Options{Assets: lib})
			a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
				label := ctx.Commands.Spawn()
				tr := ecs.At(100, 50)
				tr.Rotation = tt.rotation
				ecs.With(label, tr)
				ecs.With(label, ecs.Text{Font: font, Content: "Hi", Layer: 5, Color: green})
				off := ctx.Commands.Spawn()
				ecs.With(off, ecs.At(-1000, 50))
				ecs.With(off, ecs.Text{Font: font, Content: "far away"})
				hidden := ctx.Commands.Spawn()
				ecs.With(hidden, ecs.At(10, 10))
				ecs.With(hidden, ecs.Text{Font: font, Content: "hidden", Hidden: true})
				spawnSprite(ctx.Commands, 10, 10, 9, speed{}, red)
				spawnSprite(ctx.Commands, 20, 20, 1, speed{}, blue)
			}})
			if err := a.InitSimulation(nil); err != nil {
				t.Fatal(err)
			}
			if err := a.Update(tick(1, 0)); err != nil {
				t.Fatal(err)
			}
			// The first frame rasterises the glyphs; the upload puts them on
			// the GPU before the frame that is checked.
			var scratch render2d.Frame
			if err := a.PrepareFrame(render2d.NewFrameWriter(&scratch)); err != nil {
				t.Fatal(err)
			}
			if err := lib.Upload(rec); err != nil {
				t.Fatal(err)
			}
			f := prepareWith(t, a, rec)

			want, _, err := lib.AppendText(nil, font, "Hi", assets.TextOptions{Layer: 5, Color: green})
			if err != nil || len(want) != 2 {
				t.Fatalf("reference layout: %d glyphs, %v", len(want), err)
			}
			ps := f.Passes[0].Packets
			if got, wantN := len(ps), 4; got != wantN {
				t.Fatalf("packets: got %d, want %d (two sprites, two glyphs)", got, wantN)
			}
			if ps[0].Tint != blue || ps[3].Tint != red {
				t.Errorf("layer order: got tints %v first and %v last, want the layer 1 sprite first and the layer 9 one last", ps[0].Tint, ps[3].Tint)
			}
			sin, cos := math.Sincos(float64(tt.rotation))
			for i, g := range ps[1:3] {
				o := want[i].Transform.Position
				wantPos := geom.Vec2{X: 100 + float32(cos)*o.X - float32(sin)*o.Y, Y: 50 + float32(sin)*o.X + float32(cos)*o.Y}
				if !near2(g.Transform.Position, wantPos) || g.Transform.Rotation != tt.rotation || g.Layer != 5 || g.Source != want[i].Source {
					t.Errorf("glyph %d: got %+v at rotation %v layer %d, want %+v at rotation %v layer 5",
						i, g.Transform.Position, g.Transform.Rotation, g.Layer, wantPos, tt.rotation)
				}
			}
			st := a.Stats().Extract
			if st.Culled != 2 || st.TextErrors != 0 {
				t.Errorf("extract stats: got %+v, want 2 culled (far away, hidden), no text errors", st)
			}
		})
	}
}

func TestAppTextWithoutLibrary(t *testing.T) {
	a := newApp(t, ecs.Options{})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.At(0, 0))
		ecs.With(p, ecs.Text{Content: "no font"})
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	f := prepare(t, a)
	if n := f.PacketCount(); n != 0 {
		t.Errorf("packets: got %d, want 0", n)
	}
	st := a.Stats().Extract
	if st.TextErrors != 1 || st.LastTextError == nil || !strings.Contains(st.LastTextError.Error(), "Options.Assets") {
		t.Errorf("text errors: got %d (%v), want 1 naming Options.Assets", st.TextErrors, st.LastTextError)
	}
}

func TestSpriteOfRegion(t *testing.T) {
	r := assets.Region{Texture: render2d.TextureHandle{ID: 3, Gen: 1}, Source: geom.Rect{X: 16, Y: 0, W: 16, H: 24}}
	s := ecs.SpriteOf(r)
	if s.Texture != r.Texture || s.Source != r.Source || s.Size != (geom.Vec2{X: 16, Y: 24}) {
		t.Errorf("SpriteOf: got %+v, want the region's texture, source and a 16x24 size", s)
	}
	next := assets.Region{Texture: r.Texture, Source: geom.Rect{X: 32, W: 16, H: 24}}
	s.SetRegion(next)
	if s.Source != next.Source || s.Size != (geom.Vec2{X: 16, Y: 24}) {
		t.Errorf("SetRegion: got %+v, want the new source and the old size", s)
	}
}
