package ui_test

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/ui"
)

var update = flag.Bool("update", false, "rewrite testdata/layout.golden")

// TestLayoutAcrossMachines lays out a menu whose sizes are not exact in
// binary (anchors, offsets, gaps and paddings of tenths) on a screen whose
// size is odd, and compares every rectangle, bit for bit, with the layout
// computed on amd64 without fused multiply-adds (testdata/layout.golden;
// regenerate with -update). Widget rectangles are game state: a layout
// that differed on arm64 would make a recording made on one machine
// diverge on the other. scripts/cross.sh runs it on arm64 under qemu,
// where the layout before its products were rounded one by one failed.
func TestLayoutAcrossMachines(t *testing.T) {
	g := newGameWith(t, func(g *game) {
		if err := g.app.SetScreen(render2d.Screen{Width: 317, Height: 179}); err != nil {
			t.Fatal(err)
		}
	}, func(g *game, b *ui.Builder) {
		root := b.Add(ecs.Entity{}, ui.VStack().At(0.37, 0.61))
		root2 := b.Add(ecs.Entity{}, ui.HStack().At(0.9, 0.1))
		// Roots whose placement a fused multiply-add rounds differently.
		for i, c := range []struct{ ax, w float32 }{{0.37, 13.3}, {0.61, 12.8}, {0.9, 10.3}, {0.13, 12.5}} {
			r := b.Add(ecs.Entity{}, ui.VStack().At(c.ax, 0.5))
			b.Add(r, ui.Label(fmt.Sprint("root", i)).Sized(c.w, 5))
		}
		b.Add(root2, ui.Button("A", g.start).Sized(13.3, 7.7))
		b.Add(root2, ui.Button("B", g.start).Sized(11.1, 9.9))
		b.Add(root, ui.Slider("Volume", 5, 0, 7, 3, g.volume).Sized(101.7, 0))
		row := b.Add(root, ui.HStack())
		for _, s := range []string{"x", "y", "z"} {
			b.Add(row, ui.Button(s, g.start).Sized(33.3, 17.1))
		}
	})
	var got strings.Builder
	for _, name := range []string{"Volume", "x", "y", "z", "A", "B", "root0", "root1", "root2", "root3"} {
		_, w := g.widget(t, name)
		r := w.Rect
		fmt.Fprintf(&got, "%s %08x %08x %08x %08x\n", name, math.Float32bits(r.X), math.Float32bits(r.Y), math.Float32bits(r.W), math.Float32bits(r.H))
	}
	// Navigate across the rows and drag the slider to an uneven point.
	g.tap(t, input.KeyDown)
	g.tap(t, input.KeyRight)
	g.tap(t, input.KeyUp)
	_, vol := g.widget(t, "Volume")
	v := vol.Rect
	g.step(t, cursorAt(v.X+v.W*0.77, v.Y+1), input.Record{Kind: input.RecordPress, Button: input.MouseLeft})
	_, vol = g.widget(t, "Volume")
	fmt.Fprintf(&got, "focus %s volume %d\n", g.focus(), vol.Value)

	path := filepath.Join("testdata", "layout.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("layout differs from the one computed on amd64:\ngot:\n%s\nwant:\n%s", got.String(), want)
	}
}
