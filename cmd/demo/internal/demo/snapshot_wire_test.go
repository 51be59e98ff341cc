package demo_test

import (
	"encoding/binary"
	"errors"
	"hash/crc64"
	"io"
	"math/rand/v2"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/ecs"
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
		if h := mustHash(t, sender.App); pendingEvents(h) > 0 {
			sent++
		}
		n := travel(t, sender.App, receiver.App)
		if at == every {
			t.Logf("%d bytes, %.1f KB (%d chunks of 1,000 bytes)", n, float64(n)/1024, (n+999)/1000)
		}
		for k := range window {
			stepBoth(t, sender, receiver)
			sameHash(t, sender.App, receiver.App, at+1+k)
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
	keys := []input.Button{input.KeyW, input.KeyA, input.KeyS, input.KeyD, input.KeySpace, input.KeyF}
	var taps []demoTap
	for at := 0; ; {
		at += 1 + r.IntN(30)
		hold := 1 + r.IntN(40)
		if at+hold >= to {
			return taps
		}
		key := keys[r.IntN(len(keys))]
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
	benchSnapshot(b, a.App, to.App)
}

// tapDemo scripts seeded taps of the demo's keys at ticks in [from, to),
// each released before to.
func tapDemo(sim *frameworktest.Sim, seed uint64, from, to int, step time.Duration) {
	r := rand.New(rand.NewPCG(seed, 2))
	keys := []input.Button{input.KeyW, input.KeyA, input.KeyS, input.KeyD, input.KeySpace, input.KeyF}
	for at := from; ; {
		at += 1 + r.IntN(30)
		hold := 1 + r.IntN(40)
		if at+hold >= to {
			return
		}
		sim.Input.Tap(sim.At(time.Duration(at)*step), keys[r.IntN(len(keys))], time.Duration(hold)*step)
	}
}

// travel sends a's state to b: saved, encoded, decoded and restored. It
// checks that b's hash differed before and equals a's after, and returns
// the size of the snapshot.
func travel(t testing.TB, a, b *ecs.App) int {
	t.Helper()
	if mustHash(t, a).Total == mustHash(t, b).Total {
		t.Fatal("the receiver already has the sender's hash: the test would prove nothing")
	}
	var s, r ecs.Snapshot
	if err := a.Save(&s); err != nil {
		t.Fatal(err)
	}
	data, err := s.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.DecodeSnapshot(&r, data); err != nil {
		t.Fatal(err)
	}
	if err := b.Restore(&r); err != nil {
		t.Fatal(err)
	}
	sameHash(t, a, b, -1)
	return len(data)
}

func sameHash(t testing.TB, a, b *ecs.App, tick int) {
	t.Helper()
	ha, hb := mustHash(t, a), mustHash(t, b)
	if ha.Total != hb.Total {
		t.Fatalf("tick %d: hashes differ in %v", tick, ecs.DiffHashes(ha, hb))
	}
}

func mustHash(t testing.TB, a *ecs.App) ecs.Hash {
	t.Helper()
	h, err := a.Hash()
	if err != nil {
		t.Fatal(err)
	}
	return h
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

// benchSnapshot measures encoding a's snapshot into a reused buffer and
// decoding it into a snapshot of b, per snapshot and per entity, beside
// the in-memory save (App.Save into a used snapshot) as the baseline.
func benchSnapshot(b *testing.B, a, to *ecs.App) {
	var s, r ecs.Snapshot
	if err := a.Save(&s); err != nil {
		b.Fatal(err)
	}
	buf, err := s.AppendBinary(nil)
	if err != nil {
		b.Fatal(err)
	}
	n := float64(s.Entities())
	b.Run("save", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := a.Save(&s); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
	})
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if buf, err = s.AppendBinary(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(buf)), "bytes")
		b.ReportMetric(n, "entities")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := to.DecodeSnapshot(&r, buf); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(buf)), "bytes")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
	})
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
	fuzzSnapshotDecode(f, func(t testing.TB) *ecs.App { return demoSim(t).App }, snapshotOf(f, sim.App))
}

// fuzzSnapshotDecode fuzzes ecs.App.DecodeSnapshot on receiver, seeded
// with seeds: half the inputs get a correct header (length and
// checksum) so that the body's own checks are reached. A decode must
// fail with an error or give a snapshot that restores and hashes, never
// panic, and allocate no more than a bound of its input's length.
func fuzzSnapshotDecode(f *testing.F, receiver func(testing.TB) *ecs.App, seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(true, s[snapshotHeader:])
		f.Add(false, s)
	}
	recv := receiver(f)
	var snap ecs.Snapshot
	f.Fuzz(func(t *testing.T, fix bool, data []byte) {
		if fix {
			data = withHeader(data)
		}
		var before, after goruntime.MemStats
		goruntime.ReadMemStats(&before)
		err := recv.DecodeSnapshot(&snap, data)
		goruntime.ReadMemStats(&after)
		if got, bound := after.TotalAlloc-before.TotalAlloc, uint64(256*len(data)+1<<20); got > bound {
			t.Errorf("decoding %d bytes allocated %d bytes, over the bound of %d", len(data), got, bound)
		}
		if err != nil {
			if !errors.Is(err, ecs.ErrSnapshot) {
				t.Fatalf("decode failed with %v, not an ecs.ErrSnapshot", err)
			}
			return
		}
		if err := recv.Restore(&snap); err != nil {
			t.Fatalf("restore of a decoded snapshot: %v", err)
		}
		if _, err := recv.Hash(); err != nil {
			t.Fatalf("hash after restoring a decoded snapshot: %v", err)
		}
	})
}

const snapshotHeader = 8 + 4 + 8 + 8

// withHeader puts a snapshot's header with the right length and checksum
// before body.
func withHeader(body []byte) []byte {
	b := append([]byte("MTNMSNAP"), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(b[8:], ecs.SnapshotVersion)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(body)))
	b = binary.LittleEndian.AppendUint64(b, crc64.Checksum(body, crc64.MakeTable(crc64.ECMA)))
	return append(b, body...)
}

// snapshotOf returns the binary form of a's state.
func snapshotOf(t testing.TB, a *ecs.App) []byte {
	t.Helper()
	var s ecs.Snapshot
	if err := a.Save(&s); err != nil {
		t.Fatal(err)
	}
	b, err := s.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
