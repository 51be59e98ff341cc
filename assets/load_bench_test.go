package assets_test

import (
	"testing"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// BenchmarkLoad500 loads 500 small PNGs, a sheet and a font: in the
// foreground (the baseline), and in the background on goroutines with the
// benchmark's goroutine as simulation owner and graphics thread. The ratio
// is the loader's overhead (hand-over, in-order placement) or its speed-up
// from parallel decoding.
func BenchmarkLoad500(b *testing.B) {
	fsys, files := bigSet(b, 500)
	b.Run("foreground", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			lib := newLib(b, assets.DefaultOptions())
			foreground(b, lib, fsys, files)
			if err := lib.Upload(rendertest.NewRecorder(8, 8, 4096)); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, parallel := range []int{1, 2} {
		b.Run("background-parallel-"+string(rune('0'+parallel)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				lib := newLib(b, assets.DefaultOptions())
				e := newFakeExec()
				ld, err := lib.StartLoad(e, fsys, files, assets.LoadOptions{Parallel: parallel})
				if err != nil {
					b.Fatal(err)
				}
				runLoad(b, e, ld, rendertest.NewRecorder(8, 8, 4096))
				if err := ld.Err(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
