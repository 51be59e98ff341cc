package render2d_test

import (
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/internal/cputime"
	"github.com/metronome-go/metronome/render2d"
)

const benchSprites = 10000

// cpuNanos returns the process's user+system CPU time, so benchmarks can
// report CPU cost per sprite that does not grow when other processes
// compete for the machine's cores (wall time does).
func cpuNanos() int64 {
	d, _ := cputime.Process() // 0 where the system reports none
	return d.Nanoseconds()
}

func report(b *testing.B, cpu0 int64) {
	sprites := float64(b.N * benchSprites)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/sprites, "ns/sprite")
	b.ReportMetric(float64(cpuNanos()-cpu0)/sprites, "cpu-ns/sprite")
}

func benchPacket(i int) render2d.DrawPacket2D {
	return render2d.DrawPacket2D{
		Texture:   render2d.TextureHandle{ID: uint32(1 + i/2500%2), Gen: 1},
		Transform: render2d.Transform{Position: geom.Vec2{X: float32(i), Y: float32(i)}, Scale: geom.Vec2{X: 1, Y: 1}},
		Size:      geom.Vec2{X: 2, Y: 2},
		Tint:      render2d.White,
	}
}

// BenchmarkWriteAndBatch measures the CPU cost per sprite of a frame before
// the GPU: writing 10,000 packets (4 runs of 2,500 over two textures)
// through the FrameWriter, publishing, claiming with recycling, validating
// and splitting into batches. The target is under 30 ns/sprite.
// Compare with BenchmarkBaselineAppend from the same run.
func BenchmarkWriteAndBatch(b *testing.B) {
	s := render2d.NewSlots(render2d.Concurrent, render2d.SlotOptions{})
	var batches []render2d.Batch
	b.ReportAllocs()
	cpu0 := cpuNanos()
	for b.Loop() {
		w, _ := s.Begin()
		pw := w.BeginPass(render2d.PassDesc{Clear: true})
		for i := range benchSprites {
			pw.Draw(benchPacket(i))
		}
		s.Publish(w)
		f, _ := s.Acquire()
		if err := render2d.ValidateFrame(f, fakeRes{}); err != nil {
			b.Fatal(err)
		}
		batches = render2d.AppendBatches(batches[:0], f.Passes[0].Packets)
	}
	report(b, cpu0)
}

// BenchmarkWriteAppend is WriteAndBatch filling packets in place through
// PassWriter.Append.
func BenchmarkWriteAppend(b *testing.B) {
	s := render2d.NewSlots(render2d.Concurrent, render2d.SlotOptions{})
	var batches []render2d.Batch
	b.ReportAllocs()
	cpu0 := cpuNanos()
	for b.Loop() {
		w, _ := s.Begin()
		ps := w.BeginPass(render2d.PassDesc{Clear: true}).Append(benchSprites)
		for i := range ps {
			ps[i] = benchPacket(i)
		}
		s.Publish(w)
		f, _ := s.Acquire()
		if err := render2d.ValidateFrame(f, fakeRes{}); err != nil {
			b.Fatal(err)
		}
		batches = render2d.AppendBatches(batches[:0], f.Passes[0].Packets)
	}
	report(b, cpu0)
}

// BenchmarkBaselineAppend is the floor: appending the same packets to a
// reused plain slice, with no slots, validation or batching.
func BenchmarkBaselineAppend(b *testing.B) {
	var ps []render2d.DrawPacket2D
	b.ReportAllocs()
	cpu0 := cpuNanos()
	for b.Loop() {
		ps = ps[:0]
		for i := range benchSprites {
			ps = append(ps, benchPacket(i))
		}
	}
	report(b, cpu0)
}
