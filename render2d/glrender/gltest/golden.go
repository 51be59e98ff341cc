//go:build !js

package gltest

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// CompareGolden compares img with the golden image dir/name.png. A pixel
// matches when each of its four channels is within tol of the golden one;
// the test fails (Errorf) when more than frac of all pixels do not match or
// the sizes differ, and the image it got is then written to a temporary
// directory named in the message. With update set it writes img as the new
// golden (creating dir) and compares nothing. A missing or undecodable
// golden is fatal.
func CompareGolden(tb testing.TB, dir, name string, img *image.RGBA, update bool, tol int, frac float64) {
	tb.Helper()
	path := filepath.Join(dir, name+".png")
	if update {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			tb.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := ReadPNG(path)
	if err != nil {
		tb.Fatalf("reading golden image (run go test -update to create it): %v", err)
	}
	if err := Diff(img, want, tol, frac); err != nil {
		out := filepath.Join(tb.TempDir(), name+".png")
		var buf bytes.Buffer
		_ = png.Encode(&buf, img)
		_ = os.WriteFile(out, buf.Bytes(), 0o644)
		tb.Errorf("%s: %v (got image written to %s; run with -update and inspect the image if the change is intended)", path, err, out)
	}
}

// ReadPNG decodes the PNG file at path into an RGBA image of the same
// bounds.
func ReadPNG(path string) (*image.RGBA, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := image.NewRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out, nil
}

// Diff reports an error when got and want differ in size, or when more than
// frac of their pixels have a channel differing by more than tol. The error
// counts the differing pixels and names the first one (in row order).
func Diff(got, want *image.RGBA, tol int, frac float64) error {
	if got.Bounds().Size() != want.Bounds().Size() {
		return fmt.Errorf("size %v, want %v", got.Bounds().Size(), want.Bounds().Size())
	}
	bad, first := 0, image.Point{-1, -1}
	var g0, w0 color.RGBA
	gm, wm := got.Bounds().Min, want.Bounds().Min
	w, h := got.Bounds().Dx(), got.Bounds().Dy()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			g, wa := got.RGBAAt(gm.X+x, gm.Y+y), want.RGBAAt(wm.X+x, wm.Y+y)
			if far(g.R, wa.R, tol) || far(g.G, wa.G, tol) || far(g.B, wa.B, tol) || far(g.A, wa.A, tol) {
				if bad == 0 {
					first, g0, w0 = image.Pt(x, y), g, wa
				}
				bad++
			}
		}
	}
	if float64(bad) > frac*float64(w*h) {
		return fmt.Errorf("%d of %d pixels differ by more than %d (first at %v: got %v, want %v)", bad, w*h, tol, first, g0, w0)
	}
	return nil
}

func far(a, b uint8, tol int) bool {
	d := int(a) - int(b)
	return d > tol || d < -tol
}
