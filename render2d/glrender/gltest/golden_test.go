//go:build !js

package gltest_test

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

// solid returns a w x h image filled with c.
func solid(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// withPixels returns a copy of img with the first n pixels (row order) set
// to c.
func withPixels(img *image.RGBA, n int, c color.RGBA) *image.RGBA {
	out := image.NewRGBA(img.Rect)
	copy(out.Pix, img.Pix)
	w := img.Rect.Dx()
	for i := 0; i < n; i++ {
		out.SetRGBA(img.Rect.Min.X+i%w, img.Rect.Min.Y+i/w, c)
	}
	return out
}

func TestDiff(t *testing.T) {
	base := solid(20, 10, color.RGBA{100, 100, 100, 255})
	shifted := image.NewRGBA(image.Rect(5, 7, 25, 17))
	copy(shifted.Pix, base.Pix)
	near := color.RGBA{103, 97, 100, 255}
	off := color.RGBA{104, 100, 100, 255}
	tests := []struct {
		name      string
		got, want *image.RGBA
		tol       int
		frac      float64
		wantErr   string // substring; "" means no error
	}{
		{"identical", base, base, 0, 0, ""},
		{"within tolerance everywhere", withPixels(base, 200, near), base, 3, 0, ""},
		{"one channel past tolerance", withPixels(base, 1, off), base, 3, 0, "1 of 200 pixels differ by more than 3 (first at (0,0)"},
		{"alpha counts", withPixels(base, 1, color.RGBA{100, 100, 100, 251}), base, 3, 0, "1 of 200 pixels"},
		{"at the allowed fraction", withPixels(base, 1, off), base, 3, 0.005, ""},
		{"past the allowed fraction", withPixels(base, 2, off), base, 3, 0.005, "2 of 200 pixels"},
		{"size", solid(20, 11, color.RGBA{}), base, 3, 1, "size (20,11), want (20,10)"},
		{"offset bounds compare by position", shifted, base, 0, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := gltest.Diff(tt.got, tt.want, tt.tol, tt.frac)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Diff = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Diff = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

// recorder is a testing.TB that records failures; Fatal ends the calling
// goroutine like the real one.
type recorder struct {
	testing.TB
	t      *testing.T
	errors []string
	fatal  bool
}

func (r *recorder) Helper()         {}
func (r *recorder) TempDir() string { return r.t.TempDir() }
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.fatal = true
	runtime.Goexit()
}

// compare runs CompareGolden against a recorder on its own goroutine.
func compare(t *testing.T, dir, name string, img *image.RGBA, update bool) *recorder {
	r := &recorder{t: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		gltest.CompareGolden(r, dir, name, img, update, 3, 0.005)
	}()
	<-done
	return r
}

func TestCompareGolden(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "testdata")
	img := solid(20, 10, color.RGBA{10, 20, 30, 255})

	if r := compare(t, dir, "missing", img, false); !r.fatal || len(r.errors) != 1 || !strings.Contains(r.errors[0], "-update") {
		t.Errorf("missing golden: fatal %v, errors %q; want one fatal error mentioning -update", r.fatal, r.errors)
	}
	if r := compare(t, dir, "solid", img, true); len(r.errors) != 0 {
		t.Fatalf("update: errors %q, want none", r.errors)
	}
	back, err := gltest.ReadPNG(filepath.Join(dir, "solid.png"))
	if err != nil {
		t.Fatal(err)
	}
	if err := gltest.Diff(back, img, 0, 0); err != nil {
		t.Errorf("written golden differs from the image: %v", err)
	}
	if r := compare(t, dir, "solid", img, false); len(r.errors) != 0 {
		t.Errorf("same image: errors %q, want none", r.errors)
	}
	bad := withPixels(img, 2, color.RGBA{200, 20, 30, 255})
	r := compare(t, dir, "solid", bad, false)
	if r.fatal || len(r.errors) != 1 {
		t.Fatalf("differing image: fatal %v, errors %q; want one non-fatal error", r.fatal, r.errors)
	}
	if !strings.Contains(r.errors[0], "2 of 200 pixels") {
		t.Errorf("error %q does not count the differing pixels", r.errors[0])
	}
	i := strings.Index(r.errors[0], "written to ")
	if i < 0 {
		t.Fatalf("error %q does not name the written image", r.errors[0])
	}
	out := strings.TrimSuffix(strings.Fields(r.errors[0][i+len("written to "):])[0], ";")
	got, err := gltest.ReadPNG(out)
	if err != nil {
		t.Fatalf("reading the written image: %v", err)
	}
	if err := gltest.Diff(got, bad, 0, 0); err != nil {
		t.Errorf("written image differs from the one compared: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "solid.png")); err != nil {
		t.Errorf("golden gone after a failed compare: %v", err)
	}
}
