package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework/frameworktest"
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
		tapAtRandom(sim, 45, 1, ticks*time.Second/60)
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
