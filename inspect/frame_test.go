package inspect_test

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
)

// artImage is the textured game's image: 8 by 4 texels, the left half
// red, the right half a translucent blue.
func artImage() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 8, 4))
	for y := range 4 {
		for x := range 8 {
			c := color.NRGBA{R: 255, A: 255}
			if x >= 4 {
				c = color.NRGBA{B: 255, A: 128}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// texturedGame draws the right half of artImage scaled to 40 by 40 at
// (100, 50), tinted yellow, a red circle of radius 10 at (20, 20) and a
// green 30 by 10 rectangle from (200, 100).
func texturedGame() framework.Game {
	return framework.Game{
		Title: "inspect textured",
		Seed:  3,
		Setup: func(s *framework.Setup) error {
			img, err := s.Assets.AddImage("art", artImage())
			if err != nil {
				return err
			}
			lib := s.Assets
			s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
				r, err := lib.Region(img)
				if err != nil {
					panic(err)
				}
				r.Source.X += 4
				r.Source.W = 4
				e := ctx.Commands.Spawn()
				ecs.With(e, ecs.At(100, 50))
				ecs.With(e, ecs.Sprite{Texture: r.Texture, Source: r.Source, Size: geom.Vec2{X: 40, Y: 40}, Tint: render2d.Color{R: 1, G: 1, A: 1}})
				c := ctx.Commands.Spawn()
				ecs.With(c, ecs.At(20, 20))
				ecs.With(c, ecs.Shape{Shape: shape.Circle(10), Color: render2d.Color{R: 1, A: 1}})
				b := ctx.Commands.Spawn()
				ecs.With(b, ecs.At(200, 100))
				ecs.With(b, ecs.Shape{Shape: shape.Rect(30, 10), Color: render2d.Color{G: 1, A: 1}})
			}})
			return nil
		},
	}
}

func openTextured(t *testing.T) *inspect.Replay {
	t.Helper()
	path := filepath.Join(t.TempDir(), "textured.rec")
	cfg := config.Default()
	if err := cfg.Set("timing.mode=fixed"); err != nil {
		t.Fatal(err)
	}
	sim, err := frameworktest.New(texturedGame(), frameworktest.Options{Config: &cfg, Record: path})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.RunTicks(20); err != nil {
		t.Fatal(err)
	}
	rep, err := framework.InspectReplay(texturedGame(), path, inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

type frameAnswer struct {
	Width, Height int
	Filter        string
	Items         string
	Quads         []struct {
		P   [8]float32
		C   [4]float32
		T   bool
		Tex uint32
		Gen uint32
		Src [4]float32
	}
	ShapeList []struct {
		C     [4]float32
		Tri   []float32
		Cov   []float32
		Discs []float32
	} `json:"shape_list"`
}

// The frame names each quad's texture and region, and /api/texture
// serves the pixels the game loaded; shapes come as triangles and discs.
func TestFrameCarriesTexturesAndShapes(t *testing.T) {
	rep := openTextured(t)
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var f frameAnswer
	get(t, h, "/api/frame?tick=10", 200, &f)
	if len(f.Quads) != 1 || len(f.ShapeList) != 2 || len(f.Items) != 3 {
		t.Fatalf("frame: %d quads, %d shapes, items %q; want 1 quad and 2 shapes", len(f.Quads), len(f.ShapeList), f.Items)
	}
	q := f.Quads[0]
	if !q.T || q.Tex == 0 || q.Src[2] != 4 || q.Src[3] != 4 || q.P != [8]float32{100, 50, 140, 50, 140, 90, 100, 90} {
		t.Errorf("the sprite's quad: %+v; want textured, a 4 by 4 source, at 100,50 40 by 40", q)
	}
	if f.Filter != "linear" {
		t.Errorf("filter %q, want linear (the default)", f.Filter)
	}
	var circle, rect = -1, -1
	for i, s := range f.ShapeList {
		switch {
		case len(s.Discs) == 3:
			circle = i
		case len(s.Tri) > 0:
			rect = i
		}
	}
	if circle < 0 || rect < 0 {
		t.Fatalf("shapes: %+v; want a disc and triangles", f.ShapeList)
	}
	if d := f.ShapeList[circle].Discs; d[0] != 20 || d[1] != 20 || d[2] < 9.99 || d[2] > 10.01 {
		t.Errorf("the circle: %v, want centre 20,20 radius 10", d)
	}
	lo, hi := [2]float32{1e9, 1e9}, [2]float32{-1e9, -1e9}
	tri := f.ShapeList[rect].Tri
	for i := 0; i+1 < len(tri); i += 2 {
		lo = [2]float32{min(lo[0], tri[i]), min(lo[1], tri[i+1])}
		hi = [2]float32{max(hi[0], tri[i]), max(hi[1], tri[i+1])}
	}
	if lo != [2]float32{200, 100} || hi != [2]float32{230, 110} {
		t.Errorf("the rectangle's triangles span %v to %v; want 200,100 to 230,110", lo, hi)
	}

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", fmt.Sprintf("/api/texture?id=%d&gen=%d", q.Tex, q.Gen), nil))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" {
		t.Fatalf("texture: status %d %s: %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	img, err := png.Decode(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	art := artImage()
	for _, p := range []image.Point{{0, 0}, {3, 3}, {4, 0}, {7, 3}} {
		got := color.NRGBAModel.Convert(img.At(int(q.Src[0])-4+p.X, int(q.Src[1])+p.Y)).(color.NRGBA)
		want := art.NRGBAAt(p.X, p.Y)
		if diff(got.R, want.R) > 1 || diff(got.G, want.G) > 1 || diff(got.B, want.B) > 1 || diff(got.A, want.A) > 1 {
			t.Errorf("texel %v of the image: %v, want %v", p, got, want)
		}
	}

	for _, c := range []struct {
		path   string
		status int
	}{
		{"/api/texture", 400},
		{"/api/texture?id=x", 400},
		{"/api/texture?id=1&gen=-1", 400},
		{"/api/texture?id=999&gen=1", 404},
	} {
		get(t, h, c.path, c.status, nil)
	}
}

func diff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
