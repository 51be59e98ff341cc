package ecs_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// sparks lives 100 ms (5 ticks of 20 ms) exactly, or 60-140 ms when
// spread. Its curves have stops, so the step, drawing and the benchmarks
// evaluate keyframes.
func sparks(spread bool) ecs.ParticleEffect {
	fx := ecs.ParticleEffect{
		Rate:     100, // 2 per tick
		Lifetime: ecs.DurationRange{Min: 100 * time.Millisecond, Max: 100 * time.Millisecond},
		Speed:    ecs.Range{Min: 10, Max: 50},
		Angle:    ecs.Range{Min: 0, Max: 2 * math.Pi},
		Gravity:  geom.Vec2{Y: 98},
		Drag:     0.5,
		Size:     ecs.Curve{Start: 4, End: 1, Stops: [ecs.MaxCurveStops]ecs.Stop{{At: 0.2, Value: 6}, {At: 0.5, Value: 3}}},
		Color: ecs.ColorCurve{Start: render2d.White, End: render2d.Color{R: 1, A: 1},
			Stops: [ecs.MaxCurveStops]ecs.ColorStop{{At: 0.3, Color: render2d.Color{R: 1, G: 0.8, B: 0.2, A: 1}}}},
		Alpha:  ecs.Curve{Start: 0, End: 0, Stops: [ecs.MaxCurveStops]ecs.Stop{{At: 0.1, Value: 1}, {At: 0.7, Value: 1}}},
		Shape:  ecs.SpawnCircle,
		Radius: 5,
	}
	if spread {
		fx.Lifetime = ecs.DurationRange{Min: 60 * time.Millisecond, Max: 140 * time.Millisecond}
	}
	return fx
}

// particleApp has one simulated emitter (and one cosmetic one when asked)
// at (100, 100) after InitSimulation.
func particleApp(t testing.TB, seed uint64, fx ecs.ParticleEffect, capacity int, cosmetic bool) *ecs.App {
	t.Helper()
	a := newApp(t, ecs.Options{Seed: seed})
	ecs.AddParticles(a)
	em, err := ecs.NewEmitter(fx, capacity)
	if err != nil {
		t.Fatal(err)
	}
	ce, err := ecs.NewCosmeticEmitter(fx, capacity)
	if err != nil {
		t.Fatal(err)
	}
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.At(100, 100))
		ecs.With(p, em)
		if cosmetic {
			c := ctx.Commands.Spawn()
			ecs.With(c, ecs.At(50, 50))
			ecs.With(c, ce)
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	return a
}

func emitterOf(a *ecs.App) *ecs.Emitter {
	q := ecs.NewFilter1[ecs.Emitter](a.World()).Query()
	defer q.Close()
	q.Next()
	return q.Get()
}

func run(t testing.TB, a *ecs.App, from, to uint64) {
	t.Helper()
	for n := from; n <= to; n++ {
		if err := a.Update(tick(n, 0)); err != nil {
			t.Fatalf("Update %d: %v", n, err)
		}
	}
}

func TestParticleCountsAreExact(t *testing.T) {
	a := particleApp(t, 1, sparks(false), 64, false)
	e := emitterOf(a)
	// 2 born per tick, each dies on the 5th step after its birth: the
	// count climbs by 2 to 10 and stays there.
	for n, want := range []int{2, 4, 6, 8, 10, 10, 10} {
		run(t, a, uint64(n+1), uint64(n+1))
		if got := len(e.Live()); got != want {
			t.Fatalf("after tick %d: got %d live, want %d", n+1, got, want)
		}
	}
	e.Burst = 7
	run(t, a, 8, 8)
	if got, want := len(e.Live()), 17; got != want {
		t.Fatalf("after a burst of 7: got %d live, want %d", got, want)
	}
	if e.Burst != 0 {
		t.Errorf("Burst after its step: got %d, want 0", e.Burst)
	}
	e.Off = true
	run(t, a, 9, 12)
	if got, want := len(e.Live()), 9; got != want { // tick 8's 2 + 7 live one tick more
		t.Fatalf("4 ticks after Off: got %d live, want %d", got, want)
	}
	run(t, a, 13, 13)
	if got := len(e.Live()); got != 0 {
		t.Fatalf("after every life ended: got %d live, want 0", got)
	}
	e.Off, e.Burst = false, 100
	run(t, a, 14, 14)
	if got, want := len(e.Live()), 64; got != want {
		t.Fatalf("a burst past capacity: got %d live, want the capacity %d", got, want)
	}
}

func TestParticlesAreDeterministic(t *testing.T) {
	a := particleApp(t, 9, sparks(true), 256, false)
	b := particleApp(t, 9, sparks(true), 256, false)
	c := particleApp(t, 10, sparks(true), 256, false)
	run(t, a, 1, 60)
	run(t, b, 1, 60)
	run(t, c, 1, 60)
	ha, _ := a.Hash()
	hb, _ := b.Hash()
	hc, _ := c.Hash()
	if ha.Total != hb.Total {
		t.Fatalf("same seed, different hashes: %v", ecs.DiffHashes(ha, hb))
	}
	if ha.Total == hc.Total {
		t.Fatal("another seed gave the same hash: the particles do not use the random source")
	}
}

func TestParticlesRollBack(t *testing.T) {
	a := particleApp(t, 3, sparks(true), 256, false)
	run(t, a, 1, 10)
	var snap ecs.Snapshot
	if err := a.Save(&snap); err != nil {
		t.Fatal(err)
	}
	run(t, a, 11, 30)
	want, _ := a.Hash()
	live := append([]ecs.Particle(nil), emitterOf(a).Live()...)
	if err := a.Restore(&snap); err != nil {
		t.Fatal(err)
	}
	run(t, a, 11, 30)
	got, _ := a.Hash()
	if got.Total != want.Total {
		t.Fatalf("after a restore and the same ticks: %v", ecs.DiffHashes(got, want))
	}
	again := emitterOf(a).Live()
	if len(again) != len(live) || len(live) == 0 {
		t.Fatalf("live particles: got %d, want %d (> 0)", len(again), len(live))
	}
	for i := range live {
		if again[i] != live[i] {
			t.Fatalf("particle %d: got %+v, want %+v", i, again[i], live[i])
		}
	}
}

func TestCosmeticParticlesAreNotHashed(t *testing.T) {
	with := particleApp(t, 5, sparks(false), 256, true)
	without := particleApp(t, 5, sparks(false), 256, false)
	run(t, with, 1, 20)
	run(t, without, 1, 20)
	h1, _ := with.Hash()
	h2, _ := without.Hash()
	for _, p := range h1.Types {
		if strings.Contains(p.Name, "CosmeticEmitter") {
			t.Errorf("hash has a part for %s", p.Name)
		}
	}
	// The cosmetic entity itself is live, so compare the emitter's part.
	if emitterPart(h1) != emitterPart(h2) {
		t.Fatal("a cosmetic emitter changed the simulated particles")
	}
	f := prepare(t, with)
	if got, want := len(f.Passes[0].Packets), 2*len(emitterOf(with).Live()); got != want {
		t.Fatalf("packets: got %d, want %d (both emitters drawn)", got, want)
	}
}

func emitterPart(h ecs.Hash) uint64 {
	for _, p := range h.Types {
		if strings.HasSuffix(p.Name, ".Emitter") {
			return p.Hash
		}
	}
	return 0
}

func TestParticlesDrawInterpolated(t *testing.T) {
	a := particleApp(t, 2, sparks(false), 64, false)
	run(t, a, 1, 2)
	f := prepare(t, a)
	ps := f.Passes[0].Packets
	if len(ps) != 4 {
		t.Fatalf("packets: got %d, want 4", len(ps))
	}
	live := emitterOf(a).Live()
	for i, p := range ps {
		q := live[i]
		if p.Transform.Position != q.Position {
			t.Errorf("packet %d at %v, want %v", i, p.Transform.Position, q.Position)
		}
		if q.Age > 0 && (!p.Prev.Set || p.Prev.Position != q.Prev) {
			t.Errorf("packet %d of age %v: Prev %+v, want set at %v", i, q.Age, p.Prev, q.Prev)
		}
		if q.Age == 0 && p.Prev.Set {
			t.Errorf("newborn packet %d has a Prev", i)
		}
	}
}

func TestParticleEffectValidate(t *testing.T) {
	fx := sparks(false)
	fx.Drag = 2
	fx.Lifetime = ecs.DurationRange{}
	_, err := ecs.NewEmitter(fx, 0)
	if err == nil {
		t.Fatal("no error for a bad effect")
	}
	for _, want := range []string{"Drag", "Lifetime", "capacity"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
}
