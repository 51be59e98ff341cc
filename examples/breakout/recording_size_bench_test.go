package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

// BenchmarkRecordingSize records 36,000 ticks of Breakout played by
// random keys, as BenchmarkInspectSeek does, and reports the recording's
// bytes a tick (header, checkpoints, presents and chunk frames included):
// the cost of each tick's fields, such as the frames presented since the
// previous tick, in a real game's recording.
//
//	go test ./examples/breakout -run '^$' -bench RecordingSize -benchtime 1x
func BenchmarkRecordingSize(b *testing.B) {
	const ticks = 36000
	for range b.N {
		path := filepath.Join(b.TempDir(), "size.rec")
		sim, err := frameworktest.New(newGame(), frameworktest.Options{Record: path, Sets: small})
		if err != nil {
			b.Fatal(err)
		}
		sim.Fakes.Renderer.Discard = true
		r := rand.New(rand.NewPCG(45, 1))
		keys := []input.Button{input.KeyLeft, input.KeyD, input.KeySpace}
		for at := time.Duration(0); at < ticks*time.Second/60; at += time.Duration(100+r.IntN(900)) * time.Millisecond {
			sim.Input.Tap(sim.At(at), keys[r.IntN(len(keys))], time.Duration(20+r.IntN(600))*time.Millisecond)
		}
		if err := sim.RunTicks(ticks); err != nil {
			b.Fatal(err)
		}
		if err := sim.Close(); err != nil {
			b.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.Size())/ticks, "B/tick")
		b.ReportMetric(float64(sim.Presents())/ticks, "presents/tick")
	}
}
