package rendertest

import (
	"errors"
	"image"
	"image/color"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// TestRenderer runs the conformance suite every [render2d.Renderer]
// passes: handle lifetimes and generations, argument validation, frame
// validation that reports every problem, offscreen targets, clears read
// back through ReadPixels (the frame's clear of the whole window as well as
// each pass's), cameras drawing world points where
// [render2d.Camera.WorldToTarget] says (turned, zoomed, in viewports, with
// a logical size stretched over them), interpolation (packets and cameras between their
// previous and current placements, at several alphas, resolved as
// [render2d.DrawPacket2D.Resolved] and [render2d.PassDesc.ResolvedCamera]
// say: read back as pixels from a renderer that draws, and through
// [Recorder.ShownAt] from the recorder, which does not rasterise), and
// Close.
//
// newRenderer returns a fresh renderer whose default framebuffer is at
// least 32x32 pixels; the suite closes it. Call TestRenderer on the
// renderer's thread (for GL, the thread with the current context).
func TestRenderer(t *testing.T, newRenderer func(t *testing.T) render2d.Renderer) {
	run := func(name string, fn func(t *testing.T, r render2d.Renderer)) {
		t.Run(name, func(t *testing.T) {
			r := newRenderer(t)
			defer r.Close()
			fn(t, r)
		})
	}
	run("Textures", testTextures)
	run("TextureValidation", testTextureValidation)
	run("UpdateTexture", testUpdateTexture)
	run("TextureWithoutPixels", testTextureWithoutPixels)
	run("Materials", testMaterials)
	run("FrameValidation", testFrameValidation)
	run("Targets", testTargets)
	run("ClearReadBack", testClearReadBack)
	run("FrameClear", testFrameClear)
	run("CameraMapping", testCameraMapping)
	run("Interpolation", testInterpolation)
	run("Shapes", testShapes)
	run("Close", testClose)
}

func solid(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

func testTextures(t *testing.T, r render2d.Renderer) {
	if got := r.MaxTextureSize(); got < 1024 {
		t.Errorf("MaxTextureSize() = %d, want at least 1024", got)
	}
	a, err := r.CreateTexture(solid(3, 5, color.RGBA{255, 0, 0, 255}), render2d.TextureOptions{})
	if err != nil {
		t.Fatalf("CreateTexture: %v", err)
	}
	if a.IsZero() {
		t.Fatal("CreateTexture returned the zero handle")
	}
	if w, h, err := r.TextureSize(a); err != nil || w != 3 || h != 5 {
		t.Errorf("TextureSize = %d, %d, %v; want 3, 5, nil", w, h, err)
	}
	b, err := r.CreateTexture(solid(1, 1, color.RGBA{}), render2d.TextureOptions{Filter: render2d.FilterNearest, Wrap: render2d.WrapRepeat})
	if err != nil {
		t.Fatalf("CreateTexture with options: %v", err)
	}
	if a == b {
		t.Fatalf("two textures share handle %v", a)
	}
	if err := r.ReleaseTexture(a); err != nil {
		t.Fatalf("ReleaseTexture: %v", err)
	}
	for name, err := range map[string]error{
		"ReleaseTexture twice":      r.ReleaseTexture(a),
		"ReleaseTexture zero":       r.ReleaseTexture(render2d.TextureHandle{}),
		"ReleaseTexture never made": r.ReleaseTexture(render2d.TextureHandle{ID: 1 << 30, Gen: 1}),
		"UpdateTexture released":    r.UpdateTexture(a, 0, 0, solid(1, 1, color.RGBA{})),
	} {
		if !errors.Is(err, render2d.ErrStaleHandle) {
			t.Errorf("%s: got %v, want ErrStaleHandle", name, err)
		}
	}
	if _, _, err := r.TextureSize(a); !errors.Is(err, render2d.ErrStaleHandle) {
		t.Errorf("TextureSize of a released texture: got %v, want ErrStaleHandle", err)
	}
	c, err := r.CreateTexture(solid(2, 2, color.RGBA{}), render2d.TextureOptions{})
	if err != nil {
		t.Fatalf("CreateTexture after release: %v", err)
	}
	if c == a {
		t.Errorf("a new texture reused released handle %v, want a new generation", a)
	}
	if err := r.Render(frameWith(render2d.Sprite(a, geom.Rect{}, geom.Vec2{}, geom.Vec2{X: 1, Y: 1}))); !errors.Is(err, render2d.ErrStaleHandle) {
		t.Errorf("Render with a released texture: got %v, want ErrStaleHandle", err)
	}
	if err := r.Render(frameWith(render2d.Sprite(c, geom.Rect{}, geom.Vec2{}, geom.Vec2{X: 1, Y: 1}))); err != nil {
		t.Errorf("Render with a live texture: %v", err)
	}
}

func testTextureValidation(t *testing.T, r render2d.Renderer) {
	max := r.MaxTextureSize()
	tests := []struct {
		name string
		img  *image.RGBA
		opts render2d.TextureOptions
	}{
		{"nil image", nil, render2d.TextureOptions{}},
		{"empty image", image.NewRGBA(image.Rect(0, 0, 0, 4)), render2d.TextureOptions{}},
		{"too wide", &image.RGBA{Rect: image.Rect(0, 0, max+1, 1), Stride: 4 * (max + 1)}, render2d.TextureOptions{}},
		{"bad filter", solid(1, 1, color.RGBA{}), render2d.TextureOptions{Filter: 9}},
		{"bad wrap", solid(1, 1, color.RGBA{}), render2d.TextureOptions{Wrap: 9}},
	}
	for _, tt := range tests {
		h, err := r.CreateTexture(tt.img, tt.opts)
		if err == nil {
			t.Errorf("%s: CreateTexture = %v, nil; want an error", tt.name, h)
		}
	}
}

// testTextureWithoutPixels creates a texture from bounds alone (an atlas
// page whose texels come later, in bands), fills it with UpdateTexture and
// refuses an image with too few pixels for its bounds.
func testTextureWithoutPixels(t *testing.T, r render2d.Renderer) {
	h, err := r.CreateTexture(&image.RGBA{Rect: image.Rect(0, 0, 16, 8)}, render2d.TextureOptions{})
	if err != nil {
		t.Fatalf("CreateTexture without pixels: %v", err)
	}
	if w, ht, err := r.TextureSize(h); err != nil || w != 16 || ht != 8 {
		t.Errorf("TextureSize: %dx%d, %v; want 16x8", w, ht, err)
	}
	for y := 0; y < 8; y += 4 {
		if err := r.UpdateTexture(h, 0, y, solid(16, 4, color.RGBA{0, 255, 0, 255})); err != nil {
			t.Errorf("UpdateTexture of band %d: %v", y/4, err)
		}
	}
	short := &image.RGBA{Rect: image.Rect(0, 0, 4, 4), Stride: 16, Pix: make([]uint8, 20)}
	if _, err := r.CreateTexture(short, render2d.TextureOptions{}); err == nil {
		t.Error("CreateTexture with 20 bytes of pixels for 4x4 texels succeeded")
	}
}

func testUpdateTexture(t *testing.T, r render2d.Renderer) {
	h, err := r.CreateTexture(solid(8, 8, color.RGBA{}), render2d.TextureOptions{})
	if err != nil {
		t.Fatalf("CreateTexture: %v", err)
	}
	tests := []struct {
		name    string
		x, y    int
		w, h    int
		wantErr bool
	}{
		{"whole", 0, 0, 8, 8, false},
		{"corner", 6, 6, 2, 2, false},
		{"past right", 7, 0, 2, 1, true},
		{"past bottom", 0, 8, 1, 1, true},
		{"negative", -1, 0, 1, 1, true},
	}
	for _, tt := range tests {
		err := r.UpdateTexture(h, tt.x, tt.y, solid(tt.w, tt.h, color.RGBA{0, 255, 0, 255}))
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: UpdateTexture(%d, %d, %dx%d) error = %v, want error %v", tt.name, tt.x, tt.y, tt.w, tt.h, err, tt.wantErr)
		}
	}
	// A sub-image whose bounds do not start at the origin is read from its
	// own bounds.
	sub := solid(4, 4, color.RGBA{0, 0, 255, 255}).SubImage(image.Rect(1, 1, 3, 3)).(*image.RGBA)
	if err := r.UpdateTexture(h, 0, 0, sub); err != nil {
		t.Errorf("UpdateTexture with a sub-image: %v", err)
	}
}

func testMaterials(t *testing.T, r render2d.Renderer) {
	m, err := r.CreateMaterial(render2d.MaterialDesc{Name: "invert", Shade: "return vec4((1.0 - texel.rgb) * texel.a, texel.a) * tint.a;"})
	if err != nil {
		t.Fatalf("CreateMaterial: %v", err)
	}
	p := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{}, geom.Vec2{X: 4, Y: 4})
	p.Material = m
	p.Params = [4]float32{1, 2, 3, 4}
	if err := r.Render(frameWith(p)); err != nil {
		t.Errorf("Render with a material: %v", err)
	}
	if _, err := r.CreateMaterial(render2d.MaterialDesc{}); err == nil {
		t.Error("CreateMaterial with an empty description succeeded, want an error")
	}
	if err := r.ReleaseMaterial(m); err != nil {
		t.Fatalf("ReleaseMaterial: %v", err)
	}
	if err := r.ReleaseMaterial(m); !errors.Is(err, render2d.ErrStaleHandle) {
		t.Errorf("ReleaseMaterial twice: got %v, want ErrStaleHandle", err)
	}
	if err := r.Render(frameWith(p)); !errors.Is(err, render2d.ErrStaleHandle) {
		t.Errorf("Render with a released material: got %v, want ErrStaleHandle", err)
	}
}

func frameWith(ps ...render2d.DrawPacket2D) *render2d.Frame {
	return &render2d.Frame{Passes: []render2d.Pass{{Packets: ps}}}
}

func testFrameValidation(t *testing.T, r render2d.Renderer) {
	if err := r.Render(&render2d.Frame{}); err != nil {
		t.Errorf("Render of an empty frame: %v", err)
	}
	good := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{}, geom.Vec2{X: 2, Y: 2})
	badTex := good
	badTex.Texture = render2d.TextureHandle{ID: 1 << 30, Gen: 3}
	badBlend := good
	badBlend.Blend = render2d.BlendModeCount
	f := &render2d.Frame{Passes: []render2d.Pass{
		{Packets: []render2d.DrawPacket2D{good, badTex, good}},
		{PassDesc: render2d.PassDesc{Camera: render2d.Camera{Zoom: -1}}, Packets: []render2d.DrawPacket2D{badBlend}},
		{PassDesc: render2d.PassDesc{Target: render2d.TargetHandle{ID: 1 << 30, Gen: 1}}},
	}}
	err := r.Render(f)
	if err == nil {
		t.Fatal("Render of a frame with four problems succeeded")
	}
	var packets, passes []string
	var walk func(error)
	walk = func(err error) {
		var pe *render2d.PacketError
		var se *render2d.PassError
		switch {
		case errors.As(err, &pe) && err == error(pe):
			packets = append(packets, pe.Error())
			return
		case errors.As(err, &se) && err == error(se):
			passes = append(passes, se.Error())
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	if len(packets) != 2 || len(passes) != 2 {
		t.Errorf("Render reported %d packet and %d pass problems, want 2 and 2 (every problem at once); error:\n%v", len(packets), len(passes), err)
	}
}

func testTargets(t *testing.T, r render2d.Renderer) {
	target, tex, err := r.CreateRenderTarget(16, 8, render2d.TextureOptions{})
	if err != nil {
		t.Fatalf("CreateRenderTarget: %v", err)
	}
	if target.IsZero() || tex.IsZero() {
		t.Fatalf("CreateRenderTarget returned zero handles %v, %v", target, tex)
	}
	if w, h, err := r.TextureSize(tex); err != nil || w != 16 || h != 8 {
		t.Errorf("TextureSize of the target's texture = %d, %d, %v; want 16, 8, nil", w, h, err)
	}
	if err := r.ReleaseTexture(tex); err == nil {
		t.Error("ReleaseTexture of a target's texture succeeded; it belongs to the target")
	}
	draw := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{}, geom.Vec2{X: 4, Y: 4})
	use := render2d.Sprite(tex, geom.Rect{}, geom.Vec2{}, geom.Vec2{X: 16, Y: 8})
	ok := &render2d.Frame{Passes: []render2d.Pass{
		{PassDesc: render2d.PassDesc{Target: target, Clear: true}, Packets: []render2d.DrawPacket2D{draw}},
		{Packets: []render2d.DrawPacket2D{use}},
	}}
	if err := r.Render(ok); err != nil {
		t.Errorf("Render drawing into a target and then sampling it: %v", err)
	}
	loop := &render2d.Frame{Passes: []render2d.Pass{{PassDesc: render2d.PassDesc{Target: target}, Packets: []render2d.DrawPacket2D{use}}}}
	if err := r.Render(loop); err == nil {
		t.Error("Render of a pass sampling its own target succeeded, want an error")
	}
	if _, _, err := r.CreateRenderTarget(0, 8, render2d.TextureOptions{}); err == nil {
		t.Error("CreateRenderTarget(0, 8) succeeded, want an error")
	}
	if err := r.ReleaseRenderTarget(target); err != nil {
		t.Fatalf("ReleaseRenderTarget: %v", err)
	}
	if err := r.ReleaseRenderTarget(target); !errors.Is(err, render2d.ErrStaleHandle) {
		t.Errorf("ReleaseRenderTarget twice: got %v, want ErrStaleHandle", err)
	}
	if _, _, err := r.TextureSize(tex); !errors.Is(err, render2d.ErrStaleHandle) {
		t.Errorf("TextureSize of a released target's texture: got %v, want ErrStaleHandle", err)
	}
	if err := r.Render(ok); !errors.Is(err, render2d.ErrStaleHandle) {
		t.Errorf("Render into a released target: got %v, want ErrStaleHandle", err)
	}
}

// near reports whether two colours differ by at most 2 per channel.
func near(a, b color.RGBA) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= 2 && int(y)-int(x) <= 2 }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B) && d(a.A, b.A)
}

func testClearReadBack(t *testing.T, r render2d.Renderer) {
	target, _, err := r.CreateRenderTarget(8, 8, render2d.TextureOptions{})
	if err != nil {
		t.Fatalf("CreateRenderTarget: %v", err)
	}
	f := &render2d.Frame{Passes: []render2d.Pass{
		{PassDesc: render2d.PassDesc{Clear: true, ClearColor: render2d.Color{R: 1, G: 0.5, B: 0, A: 1}}},
		{PassDesc: render2d.PassDesc{Clear: true, ClearColor: render2d.Color{R: 0, G: 0, B: 1, A: 1}, Camera: render2d.Camera{Viewport: geom.Rect{X: 8, Y: 0, W: 8, H: 8}}}},
		{PassDesc: render2d.PassDesc{Target: target, Clear: true, ClearColor: render2d.Color{R: 0, G: 1, B: 0, A: 0.5}}},
	}}
	if err := r.Render(f); err != nil {
		t.Fatalf("Render: %v", err)
	}
	tests := []struct {
		name   string
		target render2d.TargetHandle
		at     image.Point
		want   color.RGBA
	}{
		{"window left", render2d.TargetHandle{}, image.Pt(2, 10), color.RGBA{255, 128, 0, 255}},
		{"window viewport", render2d.TargetHandle{}, image.Pt(10, 2), color.RGBA{0, 0, 255, 255}},
		{"window below viewport", render2d.TargetHandle{}, image.Pt(10, 12), color.RGBA{255, 128, 0, 255}},
		{"target, premultiplied", target, image.Pt(3, 3), color.RGBA{0, 128, 0, 128}},
	}
	for _, tt := range tests {
		img, err := r.ReadPixels(tt.target, image.Rectangle{Min: tt.at, Max: tt.at.Add(image.Pt(1, 1))})
		if err != nil {
			t.Errorf("%s: ReadPixels: %v", tt.name, err)
			continue
		}
		if got := img.RGBAAt(0, 0); !near(got, tt.want) {
			t.Errorf("%s: pixel at %v = %v, want %v", tt.name, tt.at, got, tt.want)
		}
	}
	if _, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, 1<<20, 1)); err == nil {
		t.Error("ReadPixels outside the framebuffer succeeded, want an error")
	}
}

func testClose(t *testing.T, r render2d.Renderer) {
	h, err := r.CreateTexture(solid(1, 1, color.RGBA{}), render2d.TextureOptions{})
	if err != nil {
		t.Fatalf("CreateTexture: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("second Close: %v, want nil", err)
	}
	if _, err := r.CreateTexture(solid(1, 1, color.RGBA{}), render2d.TextureOptions{}); !errors.Is(err, render2d.ErrClosed) {
		t.Errorf("CreateTexture after Close: got %v, want ErrClosed", err)
	}
	if err := r.ReleaseTexture(h); !errors.Is(err, render2d.ErrClosed) {
		t.Errorf("ReleaseTexture after Close: got %v, want ErrClosed", err)
	}
	if err := r.Render(&render2d.Frame{}); !errors.Is(err, render2d.ErrClosed) {
		t.Errorf("Render after Close: got %v, want ErrClosed", err)
	}
}
