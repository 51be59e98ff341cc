package handles_test

import (
	"errors"
	"image"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/internal/handles"
)

type res = handles.Resources[string, int, string]

func newRes() *res { return &res{Prefix: "fake", MaxSize: 64} }

func TestResourcesArgumentChecks(t *testing.T) {
	r := newRes()
	tex, err := r.CreateTexture(image.NewRGBA(image.Rect(0, 0, 8, 4)), render2d.TextureOptions{}, func() (string, error) { return "t", nil })
	if err != nil {
		t.Fatal(err)
	}
	noop := func(*handles.Texture[string]) error { return nil }
	tests := []struct {
		name string
		err  error
		want []string // every fragment must appear: all problems at once
	}{
		{"nil image", second(r.CreateTexture(nil, render2d.TextureOptions{}, nil)), []string{"fake: CreateTexture: image is nil"}},
		{"too large and bad options", second(r.CreateTexture(&image.RGBA{Rect: image.Rect(0, 0, 65, 0)}, render2d.TextureOptions{Filter: 7}, nil)),
			[]string{"width is 65, want 1 to 64", "height is 0, want 1 to 64", "Filter is 7"}},
		{"target size", third(r.CreateTarget(0, 99, render2d.TextureOptions{}, nil)),
			[]string{"fake: CreateRenderTarget: width is 0", "height is 99, want 1 to 64"}},
		{"update outside", r.UpdateTexture(tex, 7, 0, image.NewRGBA(image.Rect(0, 0, 2, 2)), noop), []string{"fake: UpdateTexture: region (7,0)-(9,2) is outside the 8x4 texture"}},
		{"update nil", r.UpdateTexture(tex, 0, 0, nil, noop), []string{"UpdateTexture: image is nil"}},
		{"read outside", third(r.ReadSource(render2d.TargetHandle{}, image.Rect(0, 0, 5, 5), 4, 4)), []string{"fake: ReadPixels: rectangle (0,0)-(5,5) is empty or outside the 4x4 target"}},
		{"bad material", second(r.CreateMaterial(render2d.MaterialDesc{}, nil)), []string{"Name is empty", "Shade is empty"}},
	}
	for _, tt := range tests {
		if tt.err == nil {
			t.Errorf("%s: got nil error, want one", tt.name)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(tt.err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", tt.name, tt.err, w)
			}
		}
	}
}

func second[A any](_ A, err error) error        { return err }
func third[A, B any](_ A, _ B, err error) error { return err }

func TestResourcesLifetimes(t *testing.T) {
	r := newRes()
	target, ttex, err := r.CreateTarget(4, 4, render2d.TextureOptions{}, func() (string, int, error) { return "tt", 7, nil })
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := r.TargetTexture(target); !ok || got != ttex {
		t.Errorf("TargetTexture(%v) = %v, %v; want %v, true", target, got, ok, ttex)
	}
	if err := r.ReleaseTexture(ttex, func(*string) { t.Error("freed a target's texture through ReleaseTexture") }); err == nil || !strings.Contains(err.Error(), "release the target instead") {
		t.Errorf("ReleaseTexture of a target's texture: got %v, want a refusal naming the target", err)
	}
	var freed []string
	if err := r.ReleaseTarget(target, func(g *int, tx *string) { freed = append(freed, *tx) }); err != nil {
		t.Fatal(err)
	}
	if len(freed) != 1 || freed[0] != "tt" {
		t.Errorf("ReleaseTarget freed %v, want [tt]", freed)
	}
	if err := r.ReleaseTarget(target, nil); !errors.Is(err, render2d.ErrStaleHandle) {
		t.Errorf("second ReleaseTarget: got %v, want ErrStaleHandle", err)
	}
	if r.HasTexture(ttex) {
		t.Error("a released target's texture is still live")
	}
	failed := errors.New("compile failed")
	if _, err := r.CreateMaterial(render2d.MaterialDesc{Name: "m", Shade: "x"}, func() (string, error) { return "", failed }); !errors.Is(err, failed) {
		t.Errorf("CreateMaterial with a failing build: got %v, want the build's error", err)
	}
	m, err := r.CreateMaterial(render2d.MaterialDesc{Name: "m", Shade: "x"}, func() (string, error) { return "prog", nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.CreateTexture(image.NewRGBA(image.Rect(0, 0, 1, 1)), render2d.TextureOptions{}, func() (string, error) { return "a", nil }); err != nil {
		t.Fatal(err)
	}
	var closed []string
	if !r.Close(nil, func(s *string) { closed = append(closed, *s) }, func(s *string) { closed = append(closed, *s) }) {
		t.Fatal("first Close reported already closed")
	}
	if strings.Join(closed, ",") != "a,prog" {
		t.Errorf("Close freed %v, want [a prog] (textures, then materials)", closed)
	}
	if r.Close(nil, nil, nil) {
		t.Error("second Close reported it closed something")
	}
	if r.HasMaterial(m) || r.Textures() != 0 {
		t.Error("entries survived Close")
	}
	if _, _, err := r.TextureSize(ttex); !errors.Is(err, render2d.ErrClosed) {
		t.Errorf("TextureSize after Close: got %v, want ErrClosed", err)
	}
}
