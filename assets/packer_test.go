package assets_test

import (
	"image"
	"math/rand/v2"
	"testing"

	"github.com/metronome-go/metronome/assets"
)

func TestPackerNoOverlap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := assets.NewPacker(256, 256)
	var placed []image.Rectangle
	area := 0
	for i := 0; i < 2000; i++ {
		w, h := 1+rng.IntN(40), 1+rng.IntN(40)
		at, ok := p.Pack(w, h)
		if !ok {
			continue
		}
		r := image.Rectangle{Min: at, Max: at.Add(image.Pt(w, h))}
		if !r.In(image.Rect(0, 0, 256, 256)) {
			t.Fatalf("rectangle %v outside the area", r)
		}
		for _, q := range placed {
			if r.Overlaps(q) {
				t.Fatalf("rectangle %v overlaps %v", r, q)
			}
		}
		placed = append(placed, r)
		area += w * h
	}
	if p.Used() != area {
		t.Errorf("Used: got %d, want %d", p.Used(), area)
	}
	if fill := float64(area) / (256 * 256); fill < 0.75 {
		t.Errorf("fill after 2000 random offers: %.2f, want at least 0.75", fill)
	}
}

func TestPackerEdges(t *testing.T) {
	tests := []struct {
		name string
		w, h int
		ok   bool
	}{
		{"exact", 64, 32, true},
		{"too wide", 65, 1, false},
		{"too tall", 1, 33, false},
		{"zero", 0, 5, false},
		{"negative", -1, 5, false},
	}
	for _, tt := range tests {
		p := assets.NewPacker(64, 32)
		if _, ok := p.Pack(tt.w, tt.h); ok != tt.ok {
			t.Errorf("%s: Pack(%d, %d) ok = %v, want %v", tt.name, tt.w, tt.h, ok, tt.ok)
		}
	}
	// Four quarters fill the area exactly, then nothing fits until Reset.
	p := assets.NewPacker(64, 64)
	for i := 0; i < 4; i++ {
		if _, ok := p.Pack(32, 32); !ok {
			t.Fatalf("quarter %d did not fit", i)
		}
	}
	if _, ok := p.Pack(1, 1); ok {
		t.Errorf("1x1 fit into a full area")
	}
	p.Reset()
	if at, ok := p.Pack(64, 64); !ok || at != (image.Point{}) {
		t.Errorf("after Reset: got %v, %v; want (0,0), true", at, ok)
	}
}

func TestNewPackerPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("NewPacker(0, 10) did not panic")
		}
	}()
	assets.NewPacker(0, 10)
}
