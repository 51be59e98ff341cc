package assets_test

import (
	"errors"
	"image"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// sheetImage is a 4x2 grid of 8x8 cells with a 1-pixel margin and spacing,
// each cell filled with a colour that encodes its index.
func sheetImage() *image.RGBA {
	img := solid(1+4*9, 1+2*9, color.RGBA{255, 0, 255, 255}) // magenta gutters
	for i := 0; i < 8; i++ {
		x0, y0 := 1+(i%4)*9, 1+(i/4)*9
		for y := y0; y < y0+8; y++ {
			for x := x0; x < x0+8; x++ {
				img.SetRGBA(x, y, cellColor(i))
			}
		}
	}
	return img
}

func cellColor(i int) color.RGBA { return color.RGBA{uint8(20 * i), 100, 200, 255} }

func TestSheetFramesRegionsAnimations(t *testing.T) {
	fsys := fsWith(t, map[string]image.Image{"hero.png": sheetImage()})
	lib := newLib(t, small())
	spec := assets.SheetSpec{
		FrameWidth: 8, FrameHeight: 8, Margin: 1, Spacing: 1,
		Regions: map[string]image.Rectangle{"head": image.Rect(1, 1, 9, 5), "gutter": image.Rect(0, 0, 1, 1)},
		Animations: map[string]assets.Animation{
			"walk": {Frames: []int{4, 5, 6, 7}, FrameTime: 100 * time.Millisecond},
			"die":  {Frames: []int{0, 1}, FrameTime: 50 * time.Millisecond, Mode: assets.Once},
		},
	}
	s, err := lib.LoadSheet(fsys, "hero.png", spec)
	if err != nil {
		t.Fatal(err)
	}
	rec := rendertest.NewRecorder(8, 8, 4096)
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	if n, err := lib.FrameCount(s); n != 8 || err != nil {
		t.Fatalf("FrameCount: got %d, %v; want 8", n, err)
	}
	for i := 0; i < 8; i++ {
		r, err := lib.Frame(s, i)
		if err != nil {
			t.Fatalf("Frame(%d): %v", i, err)
		}
		if !samePixels(regionPixels(t, rec, r), solid(8, 8, cellColor(i))) {
			t.Errorf("frame %d: texels are not exactly cell %d (gutter bleeding in?)", i, i)
		}
	}
	head, err := lib.NamedRegion(s, "head")
	if err != nil || !samePixels(regionPixels(t, rec, head), solid(8, 4, cellColor(0))) {
		t.Errorf("region head: %v or wrong pixels", err)
	}
	tests := []struct {
		anim    string
		elapsed time.Duration
		frame   int
	}{
		{"walk", 0, 4},
		{"walk", 99 * time.Millisecond, 4},
		{"walk", 100 * time.Millisecond, 5},
		{"walk", 350 * time.Millisecond, 7},
		{"walk", 400 * time.Millisecond, 4},
		{"die", 10 * time.Second, 1},
	}
	for _, tt := range tests {
		r, err := lib.AnimationFrame(s, tt.anim, tt.elapsed)
		want, _ := lib.Frame(s, tt.frame)
		if err != nil || r != want {
			t.Errorf("AnimationFrame(%s, %v): got %v, %v; want frame %d %v", tt.anim, tt.elapsed, r, err, tt.frame, want)
		}
	}
	for name, call := range map[string]func() error{
		"unknown animation": func() error { _, err := lib.AnimationFrame(s, "fly", 0); return err },
		"unknown region":    func() error { _, err := lib.NamedRegion(s, "tail"); return err },
		"frame 8":           func() error { _, err := lib.Frame(s, 8); return err },
		"frame -1":          func() error { _, err := lib.Frame(s, -1); return err },
	} {
		if err := call(); !errors.Is(err, media.ErrInvalid) || !strings.Contains(err.Error(), "hero.png") {
			t.Errorf("%s: got %v, want ErrInvalid naming the sheet", name, err)
		}
	}
	frame0, _ := lib.FrameImage(s, 0)
	if err := lib.ReleaseSheet(s); err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"Frame":          func() error { _, err := lib.Frame(s, 0); return err },
		"AnimationFrame": func() error { _, err := lib.AnimationFrame(s, "walk", 0); return err },
		"frame image":    func() error { _, err := lib.Region(frame0); return err },
		"ReleaseSheet":   func() error { return lib.ReleaseSheet(s) },
	} {
		if err := call(); !errors.Is(err, assets.ErrStale) {
			t.Errorf("%s after ReleaseSheet: got %v, want ErrStale", name, err)
		}
	}
}

func TestSheetSpecValidate(t *testing.T) {
	spec := assets.SheetSpec{
		FrameWidth: 8, FrameHeight: 0, Margin: -1,
		Regions:    map[string]image.Rectangle{"out": image.Rect(30, 0, 50, 5), "empty": image.Rect(2, 2, 2, 9)},
		Animations: map[string]assets.Animation{"a": {FrameTime: 0}, "b": {Frames: []int{99}, FrameTime: time.Second, Mode: 9}},
	}
	err := spec.Validate(32, 16)
	for _, want := range []string{"FrameWidth and FrameHeight are 8x0", "Margin -1", `region "out"`, `region "empty"`, `animation "a" has no frames`, `animation "a" FrameTime is 0s`, `animation "b" Mode is 9`, `animation "b" frame 0 is grid frame 99`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: got %v, want it to mention %q", err, want)
		}
	}
	lib := newLib(t, small())
	before := lib.Stats()
	if _, err := lib.AddSheet("s.png", solid(32, 16, color.RGBA{}), spec); !errors.Is(err, media.ErrInvalid) || !strings.Contains(err.Error(), "s.png") {
		t.Errorf("AddSheet with a bad spec: got %v, want ErrInvalid naming the file", err)
	}
	if got := lib.Stats(); got != before {
		t.Errorf("failed AddSheet changed the library: %+v, want %+v", got, before)
	}
	if err := (assets.SheetSpec{FrameWidth: 40, FrameHeight: 8}).Validate(32, 16); err == nil || !strings.Contains(err.Error(), "no 40x8 frame fits") {
		t.Errorf("frame larger than the image: got %v", err)
	}
	if err := (assets.SheetSpec{FrameWidth: 8, FrameHeight: 8, FrameCount: 9}).Validate(32, 16); err == nil || !strings.Contains(err.Error(), "FrameCount is 9, want [0, 8]") {
		t.Errorf("FrameCount above the grid: got %v", err)
	}
}

func TestAnimationIndex(t *testing.T) {
	ms := time.Millisecond
	frames := []int{10, 11, 12, 13}
	tests := []struct {
		mode    assets.LoopMode
		elapsed time.Duration
		want    int
	}{
		{assets.Loop, -5 * ms, 0},
		{assets.Loop, 0, 0},
		{assets.Loop, 10 * ms, 1},
		{assets.Loop, 39 * ms, 3},
		{assets.Loop, 40 * ms, 0},
		{assets.Loop, 1000*ms + 20*ms, 2},
		{assets.Once, 30 * ms, 3},
		{assets.Once, time.Hour, 3},
		{assets.PingPong, 30 * ms, 3},
		{assets.PingPong, 40 * ms, 2},
		{assets.PingPong, 50 * ms, 1},
		{assets.PingPong, 60 * ms, 0},
		{assets.PingPong, 70 * ms, 1},
	}
	for _, tt := range tests {
		a := assets.Animation{Frames: frames, FrameTime: 10 * ms, Mode: tt.mode}
		if got := a.Index(tt.elapsed); got != tt.want {
			t.Errorf("mode %d at %v: got index %d, want %d", tt.mode, tt.elapsed, got, tt.want)
		}
		if got := a.IndexAtTick(int64(tt.elapsed/ms), 10); tt.elapsed >= 0 && got != tt.want {
			t.Errorf("mode %d at tick %d: got index %d, want %d", tt.mode, tt.elapsed/ms, got, tt.want)
		}
	}
	a := assets.Animation{Frames: frames, FrameTime: 10 * ms, Mode: assets.PingPong}
	if got, want := a.Duration(), 60*ms; got != want {
		t.Errorf("ping-pong duration: got %v, want %v", got, want)
	}
	once := assets.Animation{Frames: frames, FrameTime: 10 * ms, Mode: assets.Once}
	if once.Done(29*ms) || !once.Done(30*ms) {
		t.Errorf("Once.Done: want false at 29ms and true at 30ms")
	}
	if got := (assets.Animation{}).Frame(time.Second); got != 0 {
		t.Errorf("empty animation frame: got %d, want 0", got)
	}
}
