package rendertest_test

import (
	"fmt"
	"image"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// Code under test draws through the render2d.Renderer interface; the test
// inspects what it recorded.
func ExampleRecorder() {
	r := rendertest.NewRecorder(64, 64, 4096)
	tex, _ := r.CreateTexture(image.NewRGBA(image.Rect(0, 0, 16, 16)), render2d.TextureOptions{})

	var f render2d.Frame
	pw := render2d.NewFrameWriter(&f).BeginPass(render2d.PassDesc{Clear: true, ClearColor: render2d.Black})
	pw.Draw(render2d.Sprite(tex, render2d.Rect{}, render2d.Vec2{X: 1, Y: 2}, render2d.Vec2{X: 16, Y: 16}))
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
