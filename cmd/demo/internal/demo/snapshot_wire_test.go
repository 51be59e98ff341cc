package demo_test

import (
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/ecstest"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

// TestSnapshotTravels plays the scene at its default bunny count with
// seeded random input and, every 97th tick, sends the world's snapshot
// (ecs.Snapshot.AppendBinary) to a second demo, which decodes and
// restores it: both have the same hash, and keep it through the 60 ticks
// of the same input that follow. Between those windows only the sender
// gets input, and it fires a shot, so each send finds the receiver in
// another state. The
// ticks are arbitrary, so dashes and shots are on their way at some of
// them: the test checks that events were pending at a send.
func TestSnapshotTravels(t *testing.T) {
	const every, window, sends = 97, 60, 12
	step := time.Second / 60
	taps := scriptDemo(25, every*(sends+1), every, window)
	sender, receiver := demoPair(t)
	for _, p := range taps {
		p.schedule(sender, step)
		if p.At >= every && p.At%every < window {
			p.schedule(receiver, step)
		}
	}
	// A shot the sender alone fires before each send, so that the
	// receiver's state differs there whatever the script did.
	for k := 1; k <= sends; k++ {
		demoTap{At: k*every - 20, Hold: 3, Key: input.KeyF}.schedule(sender, step)
	}
	for range every {
		stepBoth(t, sender, receiver)
	}
	sent := 0
	for at := every; at <= every*sends; at += every {
		if pendingEvents(ecstest.Hash(t, sender.App)) > 0 {
			sent++
		}
		n := len(ecstest.Travel(t, sender.App, receiver.App))
		if at == every {
			t.Logf("%d bytes, %.1f KB (%d chunks of 1,000 bytes)", n, float64(n)/1024, (n+999)/1000)
		}
		for k := range window {
			stepBoth(t, sender, receiver)
			ecstest.SameHash(t, sender.App, receiver.App, at+1+k)
		}
		for range every - window {
			stepBoth(t, sender, receiver)
		}
	}
	t.Logf("%d sends, %d with events pending", sends, sent)
	if sent == 0 {
		t.Errorf("no send of %d had an event pending: the test proves nothing about them", sends)
	}
}

// pendingEvents counts the events h says are pending.
func pendingEvents(h ecs.Hash) int {
	n := 0
	for _, p := range h.Types {
		if p.Name == "ecs.queue" || p.Name == "ecs.timers" {
			n += p.Count
		}
	}
	return n
}

// demoKeys are the keys the scripts tap.
var demoKeys = []input.Button{input.KeyW, input.KeyA, input.KeyS, input.KeyD, input.KeySpace, input.KeyF}

// demoTap is a scripted press of Key at tick At, held for Hold ticks.
type demoTap struct {
	At, Hold int
	Key      input.Button
}

func (p demoTap) schedule(sim *frameworktest.Sim, step time.Duration) {
	sim.Input.Tap(sim.At(time.Duration(p.At)*step), p.Key, time.Duration(p.Hold)*step)
}

// scriptDemo scripts seeded taps of the demo's keys over ticks [0, to),
// none of them within two ticks of a multiple of gap or of window past
// one, so that every tap falls wholly inside or wholly outside the
// windows [k*gap, k*gap+window).
func scriptDemo(seed uint64, to, gap, window int) []demoTap {
	r := rand.New(rand.NewPCG(seed, 2))
	var taps []demoTap
	for at := 0; ; {
		at += 1 + r.IntN(30)
		hold := 1 + r.IntN(40)
		if at+hold >= to {
			return taps
		}
		key := demoKeys[r.IntN(len(demoKeys))]
		from, end := at-2, at+hold+2
		if from/gap != end/gap || from%gap <= window && end%gap >= window || from < 0 {
			continue
		}
		taps = append(taps, demoTap{At: at, Hold: hold, Key: key})
	}
}

func demoPair(t testing.TB) (a, b *frameworktest.Sim) {
	t.Helper()
	return demoSim(t), demoSim(t)
}

// demoSim is a headless demo at its default bunny count, fixed step.
func demoSim(t testing.TB) *frameworktest.Sim {
	t.Helper()
	defaults, err := demo.ParseArgs(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := testConfig("timing.mode=fixed")
	if err != nil {
		t.Fatal(err)
	}
	var sim *frameworktest.Sim
	g, err := demo.New(demo.Options{Sprites: defaults.Sprites, Seed: 9, Sleep: func(d time.Duration) { sim.Clock.Advance(d) }})
	if err != nil {
		t.Fatal(err)
	}
	if sim, err = frameworktest.New(g.Framework(), frameworktest.Options{Config: &cfg}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	sim.Fakes.Renderer.Discard = true
	return sim
}

// BenchmarkSnapshotWire encodes and decodes the scene's snapshot at its
// default bunny count after 1,200 ticks of seeded play.
//
//	go test -run '^$' -bench SnapshotWire ./cmd/demo/internal/demo
func BenchmarkSnapshotWire(b *testing.B) {
	a, to := demoPair(b)
	tapDemo(a, 25, 0, 1140, time.Second/60)
	if err := a.Step(1200); err != nil {
		b.Fatal(err)
	}
	if err := to.Step(1); err != nil {
		b.Fatal(err)
	}
	ecstest.BenchWire(b, a.App, to.App)
}

// tapDemo scripts seeded taps of the demo's keys at ticks in [from, to),
// each released before to.
func tapDemo(sim *frameworktest.Sim, seed uint64, from, to int, step time.Duration) {
	r := rand.New(rand.NewPCG(seed, 2))
	for at := from; ; {
		at += 1 + r.IntN(30)
		hold := 1 + r.IntN(40)
		if at+hold >= to {
			return
		}
		sim.Input.Tap(sim.At(time.Duration(at)*step), demoKeys[r.IntN(len(demoKeys))], time.Duration(hold)*step)
	}
}

// stepBoth steps every sim by one tick.
func stepBoth(t testing.TB, sims ...*frameworktest.Sim) {
	t.Helper()
	for _, sim := range sims {
		if err := sim.Step(1); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzSnapshotDecode decodes random and mutated snapshots of the demo's
// scene into a fresh one, seeded with its snapshot after seeded play.
//
//	go test -run '^$' -fuzz FuzzSnapshotDecode -fuzztime 30s -fuzzminimizetime 1x ./cmd/demo/internal/demo
func FuzzSnapshotDecode(f *testing.F) {
	sim := demoSim(f)
	tapDemo(sim, 25, 0, 300, time.Second/60)
	if err := sim.Step(360); err != nil {
		f.Fatal(err)
	}
	ecstest.FuzzDecode(f, func(t testing.TB) *ecs.App { return demoSim(t).App }, ecstest.Encode(f, sim.App))
}
