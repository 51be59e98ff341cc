package render2d_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/render2d"
)

func TestScreenLayout(t *testing.T) {
	const none = -1 // the window's size is not used
	tests := []struct {
		name       string
		screen     render2d.Screen
		fbW, fbH   int
		winW, winH int
		want       render2d.Layout
	}{
		{"no logical size: the framebuffer", render2d.Screen{}, 1280, 720, none, none,
			render2d.Layout{Size: v(1280, 720), Viewport: r(0, 0, 1280, 720), Scale: v(1, 1)}},
		{"letterbox, exact fit", lb(320, 180), 1280, 720, none, none,
			render2d.Layout{Size: v(320, 180), Viewport: r(0, 0, 1280, 720), Scale: v(4, 4)}},
		{"letterbox, wider window: bars left and right", lb(320, 180), 1600, 720, none, none,
			render2d.Layout{Size: v(320, 180), Viewport: r(160, 0, 1280, 720), Scale: v(4, 4)}},
		{"letterbox, taller window: bars above and below", lb(320, 180), 1280, 1000, none, none,
			render2d.Layout{Size: v(320, 180), Viewport: r(0, 140, 1280, 720), Scale: v(4, 4)}},
		{"letterbox, odd width: a fractional factor, odd bar pixel at the bottom", lb(320, 180), 1001, 720, none, none,
			render2d.Layout{Size: v(320, 180), Viewport: r(0, 78, 1001, 563), Scale: v(1001.0/320, 563.0/180)}},
		{"letterbox, smaller than the logical screen", lb(320, 180), 100, 100, none, none,
			render2d.Layout{Size: v(320, 180), Viewport: r(0, 22, 100, 56), Scale: v(100.0/320, 56.0/180)}},
		{"integer, exact fit", is(320, 180), 1280, 720, none, none,
			render2d.Layout{Size: v(320, 180), Viewport: r(0, 0, 1280, 720), Scale: v(4, 4)}},
		{"integer, one pixel short of 4: factor 3", is(320, 180), 1279, 720, none, none,
			render2d.Layout{Size: v(320, 180), Viewport: r(159, 90, 960, 540), Scale: v(3, 3)}},
		{"integer, room to spare at 6", is(320, 180), 2000, 1100, none, none,
			render2d.Layout{Size: v(320, 180), Viewport: r(40, 10, 1920, 1080), Scale: v(6, 6)}},
		{"integer, odd bars: the odd pixel right and below", is(160, 144), 801, 601, none, none,
			render2d.Layout{Size: v(160, 144), Viewport: r(80, 12, 640, 576), Scale: v(4, 4)}},
		{"integer, height decides", is(160, 144), 2000, 300, none, none,
			render2d.Layout{Size: v(160, 144), Viewport: r(840, 6, 320, 288), Scale: v(2, 2)}},
		{"integer, smaller than the logical screen: letterboxed below 1", is(320, 180), 300, 200, none, none,
			render2d.Layout{Size: v(320, 180), Viewport: r(0, 15, 300, 169), Scale: v(300.0/320, 169.0/180)}},
		{"stretch", render2d.Screen{Width: 320, Height: 180, Scaling: render2d.ScaleStretch}, 1000, 1000, none, none,
			render2d.Layout{Size: v(320, 180), Viewport: r(0, 0, 1000, 1000), Scale: v(1000.0/320, 1000.0/180)}},
		{"resize, high density", render2d.Screen{Scaling: render2d.ScaleResize}, 1280, 720, 640, 360,
			render2d.Layout{Size: v(640, 360), Viewport: r(0, 0, 1280, 720), Scale: v(2, 2)}},
		{"resize, window size unknown: the framebuffer's", render2d.Screen{Scaling: render2d.ScaleResize}, 800, 600, 0, 0,
			render2d.Layout{Size: v(800, 600), Viewport: r(0, 0, 800, 600), Scale: v(1, 1)}},
		{"no framebuffer (minimised)", lb(320, 180), 0, 0, none, none, render2d.Layout{}},
		{"no framebuffer, no logical size", render2d.Screen{}, 0, 600, none, none, render2d.Layout{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.screen.Layout(tt.fbW, tt.fbH, tt.winW, tt.winH); got != tt.want {
				t.Errorf("Layout(%d, %d, %d, %d):\n got %+v\nwant %+v", tt.fbW, tt.fbH, tt.winW, tt.winH, got, tt.want)
			}
		})
	}
}

func v(x, y float32) geom.Vec2       { return geom.Vec2{X: x, Y: y} }
func r(x, y, w, h float32) geom.Rect { return geom.Rect{X: x, Y: y, W: w, H: h} }
func lb(w, h int) render2d.Screen    { return render2d.Screen{Width: w, Height: h} }
func is(w, h int) render2d.Screen {
	return render2d.Screen{Width: w, Height: h, Scaling: render2d.ScaleInteger}
}
func near32(a, b, tol float32) bool { return float32(math.Abs(float64(a-b))) <= tol }
func nearVec(a, b geom.Vec2, tol float32) bool {
	return near32(a.X, b.X, tol) && near32(a.Y, b.Y, tol)
}

// TestScreenLayoutProperties sweeps window sizes, odd ones included, and
// checks what every letterboxed or integer-scaled layout must be: inside
// the framebuffer, centred (the bars on either side differ by at most one
// pixel, the odd one right or below), touching two opposite edges
// (letterbox) or at the largest whole factor that fits (integer), with the
// logical screen's aspect ratio kept to within a pixel.
func TestScreenLayoutProperties(t *testing.T) {
	for _, logical := range [][2]int{{320, 180}, {160, 144}, {256, 224}, {1, 1}, {641, 479}} {
		for fbW := 1; fbW <= 2100; fbW += 37 {
			for fbH := 1; fbH <= 1300; fbH += 29 {
				for _, mode := range []render2d.Scaling{render2d.ScaleLetterbox, render2d.ScaleInteger} {
					s := render2d.Screen{Width: logical[0], Height: logical[1], Scaling: mode}
					l := s.Layout(fbW, fbH, 0, 0)
					vp := l.Viewport
					where := func() string {
						return strings.Join([]string{mode.String(), " ", itoa(logical[0]), "x", itoa(logical[1]), " in ", itoa(fbW), "x", itoa(fbH)}, "")
					}
					left, right := vp.X, float32(fbW)-vp.X-vp.W
					top, bottom := vp.Y, float32(fbH)-vp.Y-vp.H
					if left < 0 || top < 0 || right < 0 || bottom < 0 {
						t.Fatalf("%s: viewport %+v leaves the framebuffer", where(), vp)
					}
					if d := right - left; d != 0 && d != 1 {
						t.Fatalf("%s: bars %v left and %v right, want centred", where(), left, right)
					}
					if d := bottom - top; d != 0 && d != 1 {
						t.Fatalf("%s: bars %v above and %v below, want centred", where(), top, bottom)
					}
					if vp.X != float32(int(vp.X)) || vp.W != float32(int(vp.W)) || vp.Y != float32(int(vp.Y)) || vp.H != float32(int(vp.H)) {
						t.Fatalf("%s: viewport %+v is not in whole pixels", where(), vp)
					}
					k := min(fbW/logical[0], fbH/logical[1])
					if mode == render2d.ScaleInteger && k >= 1 {
						if vp.W != float32(logical[0]*k) || vp.H != float32(logical[1]*k) || l.Scale != v(float32(k), float32(k)) {
							t.Fatalf("%s: viewport %+v scale %v, want factor %d (the largest that fits)", where(), vp, l.Scale, k)
						}
						continue
					}
					if vp.W != float32(fbW) && vp.H != float32(fbH) {
						t.Fatalf("%s: viewport %+v touches neither pair of edges", where(), vp)
					}
					if want := vp.W * float32(logical[1]) / float32(logical[0]); !near32(vp.H, want, 1) {
						t.Fatalf("%s: viewport %+v: height %v, want %v for the aspect ratio", where(), vp, vp.H, want)
					}
				}
			}
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestLayoutConversions(t *testing.T) {
	l := lb(320, 180).Layout(1600, 720, 0, 0) // 160-pixel bars left and right, scale 4
	tests := []struct {
		fb, logical geom.Vec2
	}{
		{v(160, 0), v(0, 0)},
		{v(1440, 720), v(320, 180)},
		{v(800, 360), v(160, 90)},
		{v(0, 0), v(-40, 0)}, // in the left bar: outside the logical screen
	}
	for _, tt := range tests {
		if got := l.ToLogical(tt.fb); got != tt.logical {
			t.Errorf("ToLogical(%v) = %v, want %v", tt.fb, got, tt.logical)
		}
		if got := l.FromLogical(tt.logical); got != tt.fb {
			t.Errorf("FromLogical(%v) = %v, want %v", tt.logical, got, tt.fb)
		}
	}
	if got := (render2d.Layout{}).ToLogical(v(3, 4)); got != (geom.Vec2{}) {
		t.Errorf("ToLogical on a layout of no area = %v, want the origin", got)
	}
	if got := (render2d.Layout{}).Place(r(240, 0, 80, 45)); got.W != 0 || got.H != 0 {
		t.Errorf("Place on a layout of no area = %+v, want no area", got)
	}
	odd := lb(320, 180).Layout(1001, 720, 0, 0)
	places := []struct {
		logical, want geom.Rect
	}{
		{geom.Rect{}, r(0, 78, 1001, 563)},
		{r(0, 0, 100, 180), r(0, 78, 313, 563)},
		{r(100, 0, 220, 180), r(313, 78, 688, 563)}, // shares the edge at 313 with its neighbour
		{r(10, 10, 20, 20), r(31, 109, 63, 63)},
	}
	for _, tt := range places {
		if got := odd.Place(tt.logical); got != tt.want {
			t.Errorf("Place(%+v) = %+v, want %+v", tt.logical, got, tt.want)
		}
	}
}

func TestScreenValidate(t *testing.T) {
	tests := []struct {
		name   string
		screen render2d.Screen
		want   []string // the fields reported, in order
	}{
		{"zero", render2d.Screen{}, nil},
		{"letterbox", lb(320, 180), nil},
		{"largest", render2d.Screen{Width: render2d.MaxScreenSize, Height: 1, Scaling: render2d.ScaleStretch, ClearColor: render2d.White}, nil},
		{"resize", render2d.Screen{Scaling: render2d.ScaleResize}, nil},
		{"too wide and negative", render2d.Screen{Width: render2d.MaxScreenSize + 1, Height: -1}, []string{"Screen.Width", "Screen.Height"}},
		{"one side", render2d.Screen{Width: 320}, []string{"Screen.Height"}},
		{"resize with a size", render2d.Screen{Width: 320, Height: 180, Scaling: render2d.ScaleResize}, []string{"Screen.Scaling"}},
		{"unknown scaling", render2d.Screen{Scaling: render2d.ScalingCount}, []string{"Screen.Scaling"}},
		{"colour", render2d.Screen{ClearColor: render2d.Color{R: 2, A: float32(math.NaN())}}, []string{"Screen.ClearColor"}},
		{"everything at once", render2d.Screen{Width: -4, Scaling: 9, ClearColor: render2d.Color{G: -1}}, []string{"Screen.Width", "Screen.Height", "Screen.Scaling", "Screen.ClearColor"}},
	}
	for _, tt := range tests {
		err := tt.screen.Validate()
		var got []string
		for _, e := range unjoin(err) {
			var oe *option.Error
			if !errors.As(e, &oe) || oe.Pkg != "render2d" || oe.Allowed == "" {
				t.Errorf("%s: %v is not an *option.Error of render2d stating what is allowed", tt.name, e)
				continue
			}
			got = append(got, oe.Field)
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%s: Validate reports %q (%v), want %q", tt.name, got, err, tt.want)
		}
	}
	msg := render2d.Screen{Width: 320, Height: 180, Scaling: render2d.ScaleResize}.Validate().Error()
	if want := `render2d: Screen.Scaling resize takes the logical size from the window, but a logical size of 320x180 is set; allowed: "resize" with no logical size, or "letterbox", "integer" or "stretch"`; msg != want {
		t.Errorf("message\n got %s\nwant %s", msg, want)
	}
}

func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func TestParseScaling(t *testing.T) {
	for s := range render2d.ScalingCount {
		got, err := render2d.ParseScaling(s.String())
		if err != nil || got != s {
			t.Errorf("ParseScaling(%q) = %v, %v; want %v", s.String(), got, err, s)
		}
	}
	_, err := render2d.ParseScaling("fit")
	if want := `render2d: unknown scaling "fit", want "letterbox", "integer", "stretch" or "resize"`; err == nil || err.Error() != want {
		t.Errorf("ParseScaling(fit) error %v, want %s", err, want)
	}
}
