package render2d_test

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

// A simulation goroutine publishes frames while the graphics thread claims
// the newest one; here both sides take turns on one goroutine.
func ExampleSlots() {
	slots := render2d.NewSlots(render2d.Concurrent, render2d.SlotOptions{
		Release: func(f *render2d.Frame) { fmt.Println("recycled frame", f.Sequence) },
	})
	for i := range 3 {
		w, ok := slots.Begin() // simulation side
		if !ok {
			fmt.Println("no free slot: skipped")
			continue
		}
		pw := w.BeginPass(render2d.PassDesc{Clear: true, ClearColor: render2d.Black})
		pw.Draw(render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: float32(10 * i)}, geom.Vec2{X: 8, Y: 8}))
		slots.Publish(w)
	}
	f, fresh := slots.Acquire() // graphics thread
	fmt.Println("render frame", f.Sequence, "fresh", fresh, "packets", f.PacketCount())
	// Output:
	// recycled frame 1
	// recycled frame 2
	// render frame 3 fresh true packets 1
}

func ExampleAppendBatches() {
	atlas := render2d.TextureHandle{ID: 1, Gen: 1}
	font := render2d.TextureHandle{ID: 2, Gen: 1}
	packets := []render2d.DrawPacket2D{
		{Texture: atlas}, {Texture: atlas}, {Texture: atlas},
		{Texture: font}, {Texture: font},
		{Texture: atlas, Blend: render2d.BlendAdditive},
	}
	for _, b := range render2d.AppendBatches(nil, packets) {
		fmt.Println(b.Key.Texture, b.Key.Blend, "packets", b.First, "to", b.First+b.Count-1)
	}
	// Output:
	// texture 1 gen 1 alpha packets 0 to 2
	// texture 2 gen 1 alpha packets 3 to 4
	// texture 1 gen 1 additive packets 5 to 5
}

// A frame shows the final update of a 20 ms fixed step. The platform draws
// it again at every present, each time at the alpha of that instant; the
// packet's Prev says where its quad was when the update began.
func ExampleFrame_PresentAt() {
	var f render2d.Frame
	p := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: 100}, geom.Vec2{X: 8, Y: 8})
	p.Prev = render2d.Placement{Position: geom.Vec2{X: 80}, Scale: p.Transform.Scale, Tint: p.Tint, Set: true}
	render2d.NewFrameWriter(&f).BeginPass(render2d.PassDesc{}).Draw(p)
	ms := timing.Instant(time.Millisecond)
	f.Span = render2d.Span{Start: 1000 * ms, End: 1020 * ms, Step: 20 * time.Millisecond} // set by the runtime
	for _, at := range []timing.Instant{1020 * ms, 1025 * ms, 1036 * ms, 1050 * ms} {
		f.PresentAt(at) // by the platform, right before Render
		shown := f.Passes[0].Packets[0].Resolved(f.Present.Alpha)
		fmt.Printf("present at %d ms: alpha %.2f, x %.0f\n", int64(at/ms), f.Present.Alpha, shown.Transform.Position.X)
	}
	// Output:
	// present at 1020 ms: alpha 0.00, x 80
	// present at 1025 ms: alpha 0.25, x 85
	// present at 1036 ms: alpha 0.80, x 96
	// present at 1050 ms: alpha 1.00, x 100
}

// A 320x180 game in a 1000x700 window: letterboxed at a factor of 3.125
// with bars above and below, or integer-scaled at 3 with bars all round.
// Cameras drawing into the window take the layout's viewport and the
// logical size, so the world is drawn in logical units.
func ExampleScreen_Layout() {
	for _, scaling := range []render2d.Scaling{render2d.ScaleLetterbox, render2d.ScaleInteger} {
		s := render2d.Screen{Width: 320, Height: 180, Scaling: scaling, ClearColor: render2d.RGBA8(0x20, 0x20, 0x28, 0xff)}
		l := s.Layout(1000, 700, 1000, 700)
		cam := render2d.Camera{Viewport: l.Place(geom.Rect{}), Size: l.Size}
		fmt.Printf("%s: viewport %v, scale %v, logical (160, 90) at %v\n",
			scaling, l.Viewport, l.Scale.X, cam.WorldToTarget(geom.Vec2{X: 160, Y: 90}, 1000, 700))
	}
	// Output:
	// letterbox: viewport {0 68 1000 563}, scale 3.125, logical (160, 90) at {500 349.5}
	// integer: viewport {20 80 960 540}, scale 3, logical (160, 90) at {500 350}
}
