package rendertest_test

import (
	"fmt"
	"image"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
	"github.com/metronome-go/metronome/timing"
)

// Code under test draws through the render2d.Renderer interface; the test
// inspects what it recorded.
func ExampleRecorder() {
	r := rendertest.NewRecorder(64, 64, 4096)
	tex, _ := r.CreateTexture(image.NewRGBA(image.Rect(0, 0, 16, 16)), render2d.TextureOptions{})

	var f render2d.Frame
	pw := render2d.NewFrameWriter(&f).BeginPass(render2d.PassDesc{Clear: true, ClearColor: render2d.Black})
	pw.Draw(render2d.Sprite(tex, geom.Rect{}, geom.Vec2{X: 1, Y: 2}, geom.Vec2{X: 16, Y: 16}))
	if err := r.Render(&f); err != nil {
		fmt.Println(err)
	}
	_ = r.ReleaseTexture(tex)
	err := r.Render(&f) // the packet now names a released texture
	fmt.Println(len(r.Frames), "frame recorded;", r.Frames[0].Passes[0].Packets[0].Transform.Position)
	fmt.Println(err)
	// Output:
	// 1 frame recorded; {1 2}
	// render2d: pass 0 packet 0: render2d: stale or unknown handle: texture 1 gen 1
}

// A platform draws one frame at two presents; the test asks what was on
// screen at an instant between and after them.
func ExampleRecorder_ShownAt() {
	r := rendertest.NewRecorder(64, 64, 4096)
	var f render2d.Frame
	p := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: 40}, geom.Vec2{X: 4, Y: 4})
	p.Prev = p.Placement()
	p.Prev.Position.X = 20
	render2d.NewFrameWriter(&f).BeginPass(render2d.PassDesc{}).Draw(p)
	f.Span = render2d.Span{Start: 0, End: 100, Step: 100}
	for _, at := range []timing.Instant{125, 175} {
		f.PresentAt(at)
		if err := r.Render(&f); err != nil {
			fmt.Println(err)
		}
	}
	for _, at := range []timing.Instant{150, 300} {
		shown, _ := r.ShownAt(at)
		fmt.Println("at", int64(at), "the quad is at x", shown.Passes[0].Packets[0].Transform.Position.X)
	}
	// Output:
	// at 150 the quad is at x 25
	// at 300 the quad is at x 35
}
