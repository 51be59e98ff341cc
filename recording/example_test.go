package recording_test

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/timing"
)

// Example records three ticks of a session, a space-bar press among their
// input and a checkpoint, and reads them back as a replay would.
func Example() {
	var file bytes.Buffer
	w, err := recording.NewWriter(&file, "game.rec", recording.Header{
		Framework: "(devel)", Game: "example.com/game", Mode: "sequential", Seed: 7,
	})
	if err != nil {
		panic(err)
	}
	const step = 16_666_667 * time.Nanosecond
	start := timing.Instant(5 * time.Second)
	for n := range 3 {
		t := recording.Tick{Update: timing.Update{
			Kind: timing.FixedUpdate, Delta: step, Number: uint64(n), Steps: 1, Final: true,
			Start: start + timing.Instant(n)*timing.Instant(step), End: start + timing.Instant(n+1)*timing.Instant(step),
		}}
		t.InputStart, t.InputEnd, t.Polls = t.Update.Start, t.Update.End, 4
		if n == 1 {
			t.Records = []input.Record{{Time: t.InputStart + 1000, Kind: input.RecordPress, Button: input.KeySpace}}
		}
		if err := w.Append(&t); err != nil {
			panic(err)
		}
	}
	err = w.Checkpoint(&recording.Checkpoint{Tick: 2, Hash: 0x5eed, Types: []recording.TypeHash{
		{Name: "example.com/game.Position", Hash: 0xbeef, Count: 3},
	}})
	if err != nil {
		panic(err)
	}
	if err := w.Close(nil); err != nil {
		panic(err)
	}
	fmt.Printf("%d bytes\n", file.Len())

	r, err := recording.NewReader(&file, "game.rec")
	if err != nil {
		panic(err)
	}
	h := r.Header()
	fmt.Printf("%s, seed %d, a checkpoint every %d ticks\n", h.Game, h.Seed, h.CheckpointEvery)
	for {
		it, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		switch v := it.(type) {
		case *recording.Tick:
			fmt.Printf("tick %d: %v %v, %d records\n", v.Update.Number, v.Update.Kind, v.Update.Delta, len(v.Records))
			for _, rec := range v.Records {
				fmt.Printf("  %v %v\n", rec.Kind, rec.Button)
			}
		case *recording.Checkpoint:
			fmt.Printf("checkpoint after tick %d: %#x, %s %#x (%d entities)\n",
				v.Tick, v.Hash, v.Types[0].Name, v.Types[0].Hash, v.Types[0].Count)
		case *recording.End:
			fmt.Printf("end: %d ticks, %d checkpoint, %v\n", v.Ticks, v.Checkpoints, v.Outcome)
		}
	}
	// Output:
	// 153 bytes
	// example.com/game, seed 7, a checkpoint every 60 ticks
	// tick 0: fixed 16.666667ms, 0 records
	// tick 1: fixed 16.666667ms, 1 records
	//   press Space
	// tick 2: fixed 16.666667ms, 0 records
	// checkpoint after tick 2: 0x5eed, example.com/game.Position 0xbeef (3 entities)
	// end: 3 ticks, 1 checkpoint, clean stop
}
