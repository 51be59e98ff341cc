//go:build !race

package render2d_test

import (
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// TestSteadyStateAllocatesNothing runs the whole publication cycle (begin,
// write two passes with previous placements, set the span, publish,
// acquire with recycling and a release hook, set the present and resolve)
// once the slots have grown, and requires zero allocations.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	released := 0
	for _, mode := range []render2d.SlotMode{render2d.Sequential, render2d.Concurrent} {
		s := render2d.NewSlots(mode, render2d.SlotOptions{Release: func(f *render2d.Frame) { released += f.PacketCount() }})
		var batches []render2d.Batch
		cycle := func() {
			w, ok := s.Begin()
			if !ok {
				t.Fatal("Begin failed in a lock-step cycle")
			}
			pw := w.BeginPass(render2d.PassDesc{Clear: true})
			for i := range 500 {
				p := render2d.DrawPacket2D{Texture: render2d.TextureHandle{ID: uint32(1 + i/100%2), Gen: 1}, Layer: int16(-i)}
				p.Prev = p.Placement()
				pw.Draw(p)
			}
			pw.SortByLayer()
			w.BeginPass(render2d.PassDesc{}).Append(50)
			w.Frame().Span = render2d.Span{Start: 0, End: 10, Step: 10}
			s.Publish(w)
			f, _ := s.Acquire()
			f.PresentAt(15)
			_ = f.Passes[0].Packets[0].Resolved(f.Present.Alpha)
			_ = f.Passes[0].ResolvedCamera(f.Present.Alpha)
			for i := range f.Passes {
				batches = render2d.AppendBatches(batches[:0], f.Passes[i].Packets)
			}
			_ = render2d.ValidateFrame(f, fakeRes{})
		}
		for range 4 {
			cycle() // grow every slot
		}
		if got := testing.AllocsPerRun(100, cycle); got != 0 {
			t.Errorf("mode %d: %v allocations per frame cycle, want 0", mode, got)
		}
	}
	if released == 0 {
		t.Error("release hook never saw a packet")
	}
}

// TestScreenMathAllocatesNothing: laying out a screen, placing viewports,
// converting points both ways and setting the frame's clear, all done
// every frame, allocate nothing.
func TestScreenMathAllocatesNothing(t *testing.T) {
	var f render2d.Frame
	w := render2d.NewFrameWriter(&f)
	s := render2d.Screen{Width: 320, Height: 180, Scaling: render2d.ScaleInteger}
	var sink geom.Vec2
	got := testing.AllocsPerRun(100, func() {
		f.Reset()
		w.SetClear(render2d.Black)
		l := s.Layout(1001, 720, 1001, 720)
		c := render2d.Camera{Viewport: l.Place(geom.Rect{}), Size: l.Size, Zoom: 2, Rotation: 0.5, Anchor: geom.Vec2{X: 0.5, Y: 0.5}}
		p := c.WorldToTarget(geom.Vec2{X: 3, Y: 4}, 1001, 720)
		sink = c.TargetToWorld(p, 1001, 720)
		sink = l.ToLogical(l.FromLogical(sink))
	})
	if got != 0 {
		t.Errorf("%v allocations per frame, want 0", got)
	}
	_ = sink
}
