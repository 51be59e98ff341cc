package inspect_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/inspect"
)

// A recording opened in the seek engine: jump to a tick, back to an
// earlier one, and see what the seek ran.
func ExampleReplay_Seek() {
	dir, _ := os.MkdirTemp("", "inspect")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "game.rec")
	cfg := config.Default()
	_ = cfg.Set("timing.mode=fixed")
	sim, _ := frameworktest.New(testGame(), frameworktest.Options{Config: &cfg, Record: path})
	sim.Input.Tap(sim.At(time.Second), input.KeyRight, time.Second)
	if err := sim.RunTicks(600); err != nil {
		fmt.Println(err)
		return
	}

	rep, err := framework.InspectReplay(testGame(), path, inspect.Options{KeyframeEvery: 100})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, tick := range []uint64{450, 460, 120} {
		if err := rep.Seek(tick); err != nil {
			fmt.Println(err)
			return
		}
		s := rep.LastSeek()
		fmt.Printf("tick %d: from %d, %d ticks run\n", s.Tick, s.From, s.Resimulated)
	}
	fmt.Println(rep.Memory().Keyframes, "keyframes")
	// Output:
	// tick 450: from 400, 50 ticks run
	// tick 460: from 450, 10 ticks run
	// tick 120: from 100, 20 ticks run
	// 6 keyframes
}
