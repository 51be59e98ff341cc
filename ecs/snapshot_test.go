package ecs_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/schedule"
)

// body is game state with everything a snapshot must get right: floats,
// an Entity reference to another entity, a slice and a queue handle.
type body struct {
	Pos, Vel geom.Vec2
	Target   ecs.Entity
	Trail    []int32
	Timer    schedule.Handle
}

type tagged struct{ N int }

type tally struct {
	Sum  float32
	Hits int
	Seen []ecs.Entity
}

type phase uint8

// churnGame builds an App whose every tick spawns, despawns, moves
// entities between archetypes, follows entity references, grows slices,
// schedules gameplay events and timers and changes state, all driven by
// its random source.
func churnGame(t testing.TB) *ecs.App {
	t.Helper()
	a := newApp(t, ecs.Options{Seed: 7, QueueCapacity: 64})
	w := a.World()
	ecs.AddResource(w, &tally{})
	ecs.HashResource[tally](w)
	bodies := ecs.NewFilter1[body](w)
	tags := ecs.NewFilter1[tagged](w)
	bodyMap := ecs.NewMap[body](w)
	states := ecs.AddStates(a, phase(0))
	spawn := func(ctx *ecs.Sys, target ecs.Entity) {
		p := ctx.Commands.Spawn()
		ecs.With(p, body{
			Pos:    geom.Vec2{X: ctx.Rand.Float32() * 100, Y: ctx.Rand.Float32() * 100},
			Vel:    geom.Vec2{X: ctx.Rand.Float32() - 0.5, Y: ctx.Rand.Float32() - 0.5},
			Target: target,
		})
		if ctx.Rand.IntN(3) == 0 {
			ecs.With(p, tagged{N: ctx.Rand.IntN(10)})
		}
	}
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		var prev ecs.Entity
		for range 40 {
			spawn(ctx, prev)
		}
		_ = prev
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "churn", Run: func(ctx *ecs.Sys) {
		s := ecs.GetResource[tally](ctx.World)
		dt := float32(ctx.RunDeltaSeconds())
		var last ecs.Entity
		for q := bodies.Query(); q.Next(); {
			b := q.Get()
			b.Pos = b.Pos.Add(b.Vel.Scale(dt))
			if len(b.Trail) < 4 {
				b.Trail = append(b.Trail, int32(b.Pos.X))
			} else {
				b.Trail[ctx.Rand.IntN(4)] = int32(b.Pos.Y)
			}
			e := q.Entity()
			switch ctx.Rand.IntN(40) {
			case 0:
				ctx.Commands.Despawn(e)
			case 1:
				ecs.Add(ctx.Commands, e, tagged{N: ctx.Rand.IntN(5)})
			case 2:
				ecs.Remove[tagged](ctx.Commands, e)
			case 3:
				h, err := ctx.Queue.After(uint64(1+ctx.Rand.IntN(5)), ecs.Event{Kind: 1, Entity: e})
				if err == nil {
					b.Timer = h
				}
			}
			if b.Target.IsZero() || ctx.Rand.IntN(10) == 0 {
				b.Target = last
			}
			last = e
		}
		for range ctx.Rand.IntN(3) {
			spawn(ctx, last)
		}
		if ctx.Rand.IntN(7) == 0 {
			if _, err := ctx.AfterTime(time.Duration(ctx.Rand.IntN(100))*time.Millisecond, ecs.Event{Kind: 2, Value: float64(ctx.Rand.Float32())}); err != nil {
				ctx.Fail(err)
			}
		}
		if ctx.Rand.IntN(17) == 0 {
			states.Set(phase(ctx.Rand.IntN(3)))
		}
		_ = s
	}})
	a.AddSystem(ecs.PostUpdate, ecs.System{Name: "follow", Run: func(ctx *ecs.Sys) {
		s := ecs.GetResource[tally](ctx.World)
		for q := bodies.Query(); q.Next(); {
			b := q.Get()
			if tb := bodyMap.Get(b.Target); tb != nil {
				s.Sum += tb.Pos.X - b.Pos.X
			}
		}
		for q := tags.Query(); q.Next(); {
			s.Hits += q.Get().N
		}
		for _, d := range ctx.Events() {
			s.Seen = append(s.Seen, d.Payload.Entity)
			if len(s.Seen) > 8 {
				s.Seen = s.Seen[1:]
			}
			if !d.Payload.Entity.IsZero() && ctx.World.Alive(d.Payload.Entity) {
				s.Hits++
			}
		}
		for _, d := range ctx.TimerEvents() {
			s.Sum += float32(d.Payload.Value)
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	return a
}

func mustAppHash(t testing.TB, a *ecs.App) ecs.Hash {
	t.Helper()
	h, err := a.Hash()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// After a restore the App runs the same ticks to the same hashes, again
// and again, through spawns, despawns, archetype moves, references,
// slices, events, timers and state changes.
func TestSnapshotRestoreResimulatesExactly(t *testing.T) {
	a := churnGame(t)
	for n := range uint64(20) {
		if err := a.Update(tick(n+1, 0)); err != nil {
			t.Fatal(err)
		}
	}
	ring, err := ecs.NewSnapshots(a, 8)
	if err != nil {
		t.Fatal(err)
	}
	const from, to = 21, 120
	hashes := map[uint64]uint64{}
	for n := uint64(from); n <= to; n++ {
		if err := ring.Save(n); err != nil {
			t.Fatal(err)
		}
		if err := a.Update(tick(n, 0)); err != nil {
			t.Fatal(err)
		}
		hashes[n] = mustAppHash(t, a).Total
		if n%5 != 0 || n-from < 6 {
			continue
		}
		// Go back 6 ticks and run them again.
		back := n - 5
		if err := ring.Restore(back); err != nil {
			t.Fatal(err)
		}
		for m := back; m <= n; m++ {
			if m > back {
				if err := ring.Save(m); err != nil {
					t.Fatal(err)
				}
			}
			if err := a.Update(tick(m, 0)); err != nil {
				t.Fatal(err)
			}
			if got := mustAppHash(t, a).Total; got != hashes[m] {
				t.Fatalf("tick %d after restoring tick %d: hash %x, want %x", m, back, got, hashes[m])
			}
		}
	}
	if a.World().Commands().Stats().Spawned < 100 || a.World().Commands().Stats().Despawned < 50 {
		t.Fatalf("the game did not churn enough to test anything: %+v", a.World().Commands().Stats())
	}
}

// The entity references in components name the same entities after a
// restore that crossed despawns and spawns, and the next spawn gets the
// entity it got the first time.
func TestSnapshotKeepsEntityReferences(t *testing.T) {
	a := newApp(t, ecs.Options{})
	w := a.World()
	var es []ecs.Entity
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for i := range 5 {
			ecs.With(ctx.Commands.Spawn(), body{Pos: geom.Vec2{X: float32(i)}})
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	for q := ecs.NewFilter1[body](w).Query(); q.Next(); {
		es = append(es, q.Entity())
	}
	m := ecs.NewMap[body](w)
	m.Get(es[0]).Target = es[3]
	var snap ecs.Snapshot
	if err := a.Save(&snap); err != nil {
		t.Fatal(err)
	}
	w.Commands().Despawn(es[3])
	w.Commands().Despawn(es[1])
	w.Apply()
	ecs.With(w.Commands().Spawn(), body{})
	w.Apply()
	if err := a.Restore(&snap); err != nil {
		t.Fatal(err)
	}
	for i, e := range es {
		if !w.Alive(e) {
			t.Fatalf("entity %d (%v) is dead after the restore", i, e)
		}
		if got := m.Get(e).Pos.X; got != float32(i) {
			t.Fatalf("entity %v: Pos.X %v, want %v", e, got, i)
		}
	}
	if got := m.Get(es[0]).Target; got != es[3] || m.Get(got) == nil {
		t.Fatalf("reference after restore: %v, want the live %v", got, es[3])
	}
	// The next spawn gets what it would have got without the detour.
	ecs.With(w.Commands().Spawn(), body{})
	w.Apply()
	var after []ecs.Entity
	for q := ecs.NewFilter1[body](w).Query(); q.Next(); {
		after = append(after, q.Entity())
	}
	b := newApp(t, ecs.Options{})
	for i := range 6 {
		ecs.With(b.World().Commands().Spawn(), body{Pos: geom.Vec2{X: float32(i)}})
	}
	b.World().Apply()
	var want []ecs.Entity
	for q := ecs.NewFilter1[body](b.World()).Query(); q.Next(); {
		want = append(want, q.Entity())
	}
	if len(after) != len(want) || after[5] != want[5] {
		t.Fatalf("entities after a restore and a spawn: %v, want %v", after, want)
	}
}

type chained struct {
	Name string
	Next *chained
}

type withChan struct{ C chan int }

// A state type a snapshot cannot copy is refused, naming the type and the
// field: at NewSnapshots for the types known then, at registration after.
func TestSnapshotRefusesWhatItCannotCopy(t *testing.T) {
	a := newApp(t, ecs.Options{})
	ecs.With(a.World().Commands().Spawn(), chained{})
	a.World().Apply()
	_, err := ecs.NewSnapshots(a, 4)
	if !errors.Is(err, ecs.ErrSnapshot) || !strings.Contains(err.Error(), "ecs_test.chained") || !strings.Contains(err.Error(), "chained.Next") {
		t.Fatalf("NewSnapshots with a pointer component: %v, want a refusal naming ecs_test.chained and its field Next", err)
	}

	b := newApp(t, ecs.Options{})
	if _, err := ecs.NewSnapshots(b, 4); err != nil {
		t.Fatal(err)
	}
	msg := panicOf(func() { ecs.With(b.World().Commands().Spawn(), withChan{}) })
	if !strings.Contains(msg, "ecs_test.withChan") || !strings.Contains(msg, "withChan.C") || !strings.Contains(msg, "channel") {
		t.Fatalf("registering a channel component after snapshots: panic %q, want one naming the type, field and kind", msg)
	}

	// Left out of the hash, the same type is carried along, not refused.
	c := newApp(t, ecs.Options{})
	ecs.ExcludeFromHash[chained](c.World())
	ecs.With(c.World().Commands().Spawn(), chained{Name: "cosmetic"})
	c.World().Apply()
	if _, err := ecs.NewSnapshots(c, 4); err != nil {
		t.Fatalf("an excluded type: %v, want no refusal", err)
	}
}

func TestSnapshotsRing(t *testing.T) {
	a := churnGame(t)
	ring, err := ecs.NewSnapshots(a, 4)
	if err != nil {
		t.Fatal(err)
	}
	for n := uint64(1); n <= 6; n++ {
		if err := ring.Save(n); err != nil {
			t.Fatal(err)
		}
		if err := a.Update(tick(n, 0)); err != nil {
			t.Fatal(err)
		}
	}
	for n, want := range map[uint64]bool{1: false, 2: false, 3: true, 6: true, 7: false} {
		if got := ring.Holds(n); got != want {
			t.Errorf("Holds(%d) = %v, want %v", n, got, want)
		}
	}
	if err := ring.Restore(2); !errors.Is(err, ecs.ErrSnapshot) || !strings.Contains(err.Error(), "tick 2") || !strings.Contains(err.Error(), "tick 6") {
		t.Errorf("Restore of a dropped tick: %v, want an error naming tick 2 and the tick 6 in its slot", err)
	}
	fresh, err := ecs.NewSnapshots(a, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := fresh.Restore(9); !errors.Is(err, ecs.ErrSnapshot) || !strings.Contains(err.Error(), "never saved") {
		t.Errorf("Restore of a tick never saved: %v", err)
	}
	if _, err := ecs.NewSnapshots(a, 0); err == nil {
		t.Error("NewSnapshots(0): no error")
	}
	var other ecs.Snapshot
	b := churnGame(t)
	if err := b.Save(&other); err != nil {
		t.Fatal(err)
	}
	if err := a.Restore(&other); !errors.Is(err, ecs.ErrSnapshot) {
		t.Errorf("Restore of another App's snapshot: %v", err)
	}
	ecs.With(a.World().Commands().Spawn(), body{})
	if err := a.Save(&other); !errors.Is(err, ecs.ErrSnapshot) || !strings.Contains(err.Error(), "queued") {
		t.Errorf("Save with commands queued: %v", err)
	}
}

func panicOf(f func()) (msg string) {
	defer func() { msg = recoverString(recover()) }()
	f()
	return ""
}

// BenchmarkRollbackChurn is a rollback of 8 ticks across spawns,
// despawns and archetype moves (churnGame), where a restore rebuilds the
// world's entities (pooldump.go's loadPool).
func BenchmarkRollbackChurn(b *testing.B) {
	a := churnGame(b)
	ring, err := ecs.NewSnapshots(a, 10)
	if err != nil {
		b.Fatal(err)
	}
	for n := range uint64(20) {
		if err := a.Update(tick(n, 0)); err != nil {
			b.Fatal(err)
		}
	}
	if err := ring.Save(0); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := ring.Restore(0); err != nil {
			b.Fatal(err)
		}
		for n := range uint64(8) {
			if err := a.Update(tick(20+n, 0)); err != nil {
				b.Fatal(err)
			}
		}
		if err := ring.Save(8); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(ring.Get(0).Entities()), "entities")
}

// Values that share an array in the world (a game may alias slices) get
// arrays of their own when a restore across a structural change reuses
// the dropped values' arrays, each with the saved elements.
func TestRestoreAcrossChurnSharedArrays(t *testing.T) {
	a := newApp(t, ecs.Options{Seed: 1})
	w := a.World()
	for i := range 6 {
		ecs.With(w.Commands().Spawn(), body{Trail: []int32{int32(i), int32(10 + i)}})
	}
	w.Apply()
	var s ecs.Snapshot
	if err := a.Save(&s); err != nil {
		t.Fatal(err)
	}
	want := mustAppHash(t, a).Total
	bodies := ecs.NewFilter1[body](w)
	shared := []int32{7, 7, 7, 7}
	var ents []ecs.Entity
	for q := bodies.Query(); q.Next(); {
		q.Get().Trail = shared[:2+len(ents)%3] // all alias one array
		ents = append(ents, q.Entity())
	}
	w.Commands().Despawn(ents[0])
	ecs.With(w.Commands().Spawn(), body{})
	w.Apply()
	if err := a.Restore(&s); err != nil {
		t.Fatal(err)
	}
	if got := mustAppHash(t, a).Total; got != want {
		t.Fatalf("hash after restore %016x, want the saved %016x", got, want)
	}
	n := int32(0)
	for q := bodies.Query(); q.Next(); {
		tr := q.Get().Trail
		tr[0] = 100 + n // must change this entity's trail only
		n++
	}
	n = 0
	for q := bodies.Query(); q.Next(); {
		if tr := q.Get().Trail; len(tr) != 2 || tr[0] != 100+n {
			t.Errorf("entity %v's trail %v after each was written, want [%d ...]: its array is shared", q.Entity(), tr, 100+n)
		}
		n++
	}
	if n != 6 {
		t.Fatalf("%d bodies after restore, want 6", n)
	}
}
