package demo_test

import (
	"flag"
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

var syncTicks = flag.Int("synctest-ticks", 1500, "ticks of seeded random input TestSyncTest plays (the issue's figure is 100000)")

// TestSyncTest plays the demo's scene at its default bunny count with
// seeded random input (moves, dashes, shots) under sync-test (--synctest 2): every tick is run
// again twice, from a restored snapshot, to the same hash. go test -run
// TestSyncTest -synctest-ticks=100000 -v plays the 100,000.
func TestSyncTest(t *testing.T) {
	const depth = 2
	defaults, err := demo.ParseArgs(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	g, sim := newSimWith(t, demo.Options{Sprites: defaults.Sprites, Seed: 9}, frameworktest.Options{SyncTest: depth}, "timing.mode=fixed")
	// The recording renderer would keep a copy of every frame: over
	// 100,000 ticks, gigabytes, which is what made the long run slow.
	sim.Fakes.Renderer.Discard = true
	n := *syncTicks
	r := rand.New(rand.NewPCG(25, 2))
	keys := []input.Button{input.KeyW, input.KeyA, input.KeyS, input.KeyD, input.KeySpace, input.KeyF}
	step := time.Second / 60
	for at := 0; at < n; {
		at += 1 + r.IntN(30)
		sim.Input.Tap(sim.At(time.Duration(at)*step), keys[r.IntN(len(keys))], time.Duration(1+r.IntN(40))*step)
	}
	if err := sim.RunTicks(n); err != nil {
		t.Fatal(err)
	}
	st, _ := sim.SyncTestStats()
	t.Logf("sync-test depth %d: %d ticks, %d run again, %d hashes compared, no mismatch; %d bunnies at the end", depth, st.Ticks, st.Resimulated, st.Checked, g.Bunnies())
	if got := g.Bunnies(); got != defaults.Sprites {
		t.Errorf("bunnies at the end: %d, want the default %d", got, defaults.Sprites)
	}
	if st.Ticks != uint64(n) || st.Checked != uint64(n-depth+1)*depth {
		t.Errorf("sync-test counters %+v, want %d ticks each checked %d times", st, n, depth)
	}
}
