//go:build !race

package ecs_test

import (
	"testing"

	"github.com/metronome-go/metronome/render2d"
)

func TestParticleStepAndDrawAllocateNothing(t *testing.T) {
	a := particleApp(t, 4, sparks(true), 512, true)
	var f render2d.Frame
	fw := render2d.NewFrameWriter(&f)
	n := uint64(1)
	run(t, a, 1, 20)
	_ = a.PrepareFrame(fw)
	allocs := testing.AllocsPerRun(50, func() {
		n++
		_ = a.Update(tick(20+n, 0))
		f.Reset()
		_ = a.PrepareFrame(fw)
	})
	if allocs != 0 {
		t.Fatalf("tick and frame with particles: got %v allocations, want 0", allocs)
	}
}
