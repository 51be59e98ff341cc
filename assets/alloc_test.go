//go:build !race

package assets_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// TestSteadyStateAllocations holds the per-frame paths to zero
// allocations once glyphs are cached and buffers have grown.
func TestSteadyStateAllocations(t *testing.T) {
	lib, f, rec := uploaded(t)
	sheet, err := lib.AddSheet("s", pattern(32, 16, 1), assets.SheetSpec{FrameWidth: 16, FrameHeight: 16,
		Animations: map[string]assets.Animation{"a": {Frames: []int{0, 1}, FrameTime: time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	frame0, err := lib.FrameImage(sheet, 0)
	if err != nil {
		t.Fatal(err)
	}
	dst, _, _ := lib.AppendText(nil, f, line200, assets.TextOptions{Width: 300})
	var frame render2d.Frame
	w := render2d.NewFrameWriter(&frame)
	pass := w.BeginPass(render2d.PassDesc{})
	_, _ = lib.DrawText(pass, f, line200, assets.TextOptions{})
	elapsed := time.Duration(0)
	tests := []struct {
		name string
		fn   func()
	}{
		{"AppendText 200 chars", func() { dst, _, _ = lib.AppendText(dst[:0], f, line200, assets.TextOptions{}) }},
		{"AppendText wrapped", func() {
			dst, _, _ = lib.AppendText(dst[:0], f, line200, assets.TextOptions{Width: 300, Align: assets.AlignRight})
		}},
		{"MeasureText", func() { _, _ = lib.MeasureText(f, line200, assets.TextOptions{}) }},
		{"DrawText", func() {
			frame.Reset()
			_, _ = lib.DrawText(w.BeginPass(render2d.PassDesc{}), f, line200, assets.TextOptions{})
		}},
		{"AnimationFrame", func() { elapsed += time.Millisecond; _, _ = lib.AnimationFrame(sheet, "a", elapsed) }},
		{"Frame", func() { _, _ = lib.Frame(sheet, 1) }},
		{"Region", func() { _, _ = lib.Region(frame0) }},
		{"Sprite", func() { _, _ = lib.Sprite(frame0, geom.Vec2{X: 1, Y: 2}) }},
		{"Upload with nothing new", func() { _ = lib.Upload(rec) }},
		{"UploadStep with nothing new", func() { _, _ = lib.UploadStep(rec) }},
		{"UploadStats", func() { _ = lib.UploadStats() }},
	}
	// A CFF-outline font shares the caches: cached layout allocates
	// nothing either.
	cff, err := lib.ParseFont("CFFTest.otf", cffData(t), 16)
	if err != nil {
		t.Fatal(err)
	}
	dst, _, _ = lib.AppendText(dst[:0], cff, cffLine200, assets.TextOptions{Width: 300})
	tests = append(tests, struct {
		name string
		fn   func()
	}{"AppendText 200 chars, CFF font", func() {
		dst, _, _ = lib.AppendText(dst[:0], cff, cffLine200, assets.TextOptions{Width: 300, Align: assets.AlignCenter})
	}})
	for _, tt := range tests {
		if got := testing.AllocsPerRun(100, tt.fn); got != 0 {
			t.Errorf("%s: %v allocations per run, want 0", tt.name, got)
		}
	}
}
