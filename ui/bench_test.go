package ui_test

import (
	"strconv"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/ui"
)

// BenchmarkTick measures a tick of a menu of 9 widgets and of one of 100
// (ten rows of ten buttons), idle and with the focus moving every tick.
func BenchmarkTick(b *testing.B) {
	grid := func(g *game, bl *ui.Builder) {
		root := bl.Add(ecs.Entity{}, ui.VStack().At(0.5, 0.5))
		for r := range 10 {
			row := bl.Add(root, ui.HStack())
			for c := range 10 {
				bl.Add(row, ui.Button(strconv.Itoa(r*10+c), g.start).Sized(20, 12))
			}
		}
	}
	for _, m := range []struct {
		name string
		g    func(b *testing.B) *game
	}{
		{"9", func(b *testing.B) *game { return newGame(b) }},
		{"100", func(b *testing.B) *game { return newGameWith(b, nil, grid) }},
	} {
		for _, moving := range []bool{false, true} {
			name := m.name + "/idle"
			if moving {
				name = m.name + "/navigating"
			}
			b.Run(name, func(b *testing.B) {
				g := m.g(b)
				recs := [2][]input.Record{
					{{Kind: input.RecordPress, Button: input.KeyDown}, {Kind: input.RecordRelease, Button: input.KeyDown}},
					{{Kind: input.RecordPress, Button: input.KeyUp}, {Kind: input.RecordRelease, Button: input.KeyUp}},
				}
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					var rs []input.Record
					if moving {
						rs = recs[i%2]
						for k := range rs {
							rs[k].Time = g.now + 1
						}
					}
					g.run(b, rs)
					i++
				}
			})
		}
	}
}
