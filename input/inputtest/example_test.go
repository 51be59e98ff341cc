package inputtest_test

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/timing"
)

func ExampleScript() {
	ms := timing.Instant(time.Millisecond)
	src := inputtest.NewScript().
		Tap(2*ms, input.KeySpace, 3*time.Millisecond).
		Cursor(4*ms, 100, 80).
		Text(12*ms, "ok")
	var snap input.Snapshot
	for _, now := range []timing.Instant{10 * ms, 20 * ms} {
		src.Poll(now, &snap)
		fmt.Printf("poll at %v: %d records, cursor %v,%v\n", time.Duration(snap.Time), len(snap.Records), snap.State.CursorX, snap.State.CursorY)
		for _, r := range snap.Records {
			switch r.Kind {
			case input.RecordPress, input.RecordRelease:
				fmt.Println(" ", time.Duration(r.Time), r.Kind, r.Button)
			case input.RecordText:
				fmt.Println(" ", time.Duration(r.Time), r.Kind, string(r.Rune))
			default:
				fmt.Println(" ", time.Duration(r.Time), r.Kind)
			}
		}
	}
	// Output:
	// poll at 10ms: 3 records, cursor 100,80
	//   2ms press Space
	//   4ms cursor
	//   5ms release Space
	// poll at 20ms: 2 records, cursor 100,80
	//   12ms text o
	//   12ms text k
}
