//go:build !race

package ui_test

import (
	"testing"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/nullrender"
	"github.com/metronome-go/metronome/timing"
)

// TestTickAllocatesNothing: a tick of the UI allocates nothing, idle or
// navigating (the focus moving down and up, a slider stepping, the
// pointer moving over widgets), and neither does drawing a frame.
func TestTickAllocatesNothing(t *testing.T) {
	g := newGame(t)
	tap := func(b input.Button) []input.Record {
		return []input.Record{{Time: g.now + 1, Kind: input.RecordPress, Button: b}, {Time: g.now + 2, Kind: input.RecordRelease, Button: b}}
	}
	down, up, right, left := tap(input.KeyDown), tap(input.KeyUp), tap(input.GamepadDpadRight), tap(input.GamepadDpadLeft)
	moves := [][]input.Record{down, up, down, right, left, up}
	var cursor [2][]input.Record
	for i, y := range []float32{66, 90} {
		cursor[i] = []input.Record{cursorAt(170, y)}
	}
	restamp := func(rs []input.Record) []input.Record {
		for i := range rs {
			rs[i].Time = g.now + timing.Instant(i+1)
		}
		return rs
	}
	// Warm up: every path once, so scratch space has grown.
	for _, m := range moves {
		g.run(t, restamp(m))
	}
	frame := &render2d.Frame{}
	fw := render2d.NewFrameWriter(frame)
	prepare := func() {
		frame.Reset()
		if err := g.app.PrepareFrame(fw); err != nil {
			t.Fatal(err)
		}
	}
	prepare()
	if err := g.lib.Upload(nullrender.New()); err != nil {
		t.Fatal(err)
	}
	prepare()
	for _, tc := range []struct {
		name string
		run  func(i int)
	}{
		{"idle", func(int) { g.run(t, nil) }},
		{"navigating", func(i int) { g.run(t, restamp(moves[i%len(moves)])) }},
		{"pointing", func(i int) { g.run(t, restamp(cursor[i%2])) }},
		{"drawing", func(int) { prepare() }},
	} {
		i := 0
		tc.run(i) // the first run of each path outside the count
		if got := testing.AllocsPerRun(100, func() { i++; tc.run(i) }); got != 0 {
			t.Errorf("%s: %v allocations per tick, want 0", tc.name, got)
		}
	}
	if frame.PacketCount() == 0 {
		t.Fatal("the frame holds no packets: nothing was drawn")
	}
}
