package render2d_test

import (
	"fmt"

	"github.com/metronome-go/metronome/render2d"
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
		pw.Draw(render2d.Sprite(render2d.TextureHandle{}, render2d.Rect{}, render2d.Vec2{X: float32(10 * i)}, render2d.Vec2{X: 8, Y: 8}))
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
