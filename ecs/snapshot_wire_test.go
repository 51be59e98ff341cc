package ecs_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/ecstest"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/schedule"
)

// A snapshot sent to a fresh App of the same game gives it the sender's
// hash, and both then run the same ticks to the same hashes, through
// spawns, despawns, archetype moves, entity references, slices, events,
// timers and states.
func TestSnapshotTravels(t *testing.T) {
	a := churnGame(t)
	for n := range uint64(200) {
		if err := a.Update(tick(n+1, 0)); err != nil {
			t.Fatal(err)
		}
	}
	b := churnGame(t)
	data := ecstest.Travel(t, a, b)
	t.Logf("%d entities in %d bytes", a.World().Commands().Stats().Spawned-a.World().Commands().Stats().Despawned, len(data))
	for n := uint64(201); n <= 600; n++ {
		if err := a.Update(tick(n, 0)); err != nil {
			t.Fatal(err)
		}
		if err := b.Update(tick(n, 0)); err != nil {
			t.Fatal(err)
		}
		ecstest.SameHash(t, a, b, int(n))
	}
}

// A snapshot that is cut short, has a byte changed, or comes from another
// game is refused with an error saying so.
func TestSnapshotDecodeRefuses(t *testing.T) {
	a := churnGame(t)
	for n := range uint64(30) {
		if err := a.Update(tick(n+1, 0)); err != nil {
			t.Fatal(err)
		}
	}
	data := ecstest.Encode(t, a)
	b := churnGame(t)
	other := newApp(t, ecs.Options{Seed: 7, QueueCapacity: 64})
	flipped := append([]byte(nil), data...)
	flipped[len(flipped)/2] ^= 0x10
	for _, c := range []struct {
		name string
		app  *ecs.App
		data []byte
		want string
	}{
		{"truncated", b, data[:len(data)-1], "truncated"},
		{"header only", b, data[:10], "not a snapshot"},
		{"flipped byte", b, flipped, "checksum"},
		{"other game", other, data, "which this App does not have"},
	} {
		var r ecs.Snapshot
		err := c.app.DecodeSnapshot(&r, c.data)
		if !errors.Is(err, ecs.ErrSnapshot) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an ErrSnapshot saying %q", c.name, err, c.want)
		}
		if r.Valid() {
			t.Errorf("%s: the refused snapshot is valid", c.name)
		}
	}
}

type wireMark struct{ A, B int32 }

// wireMarkGame is a game of a few entities with a wireMark each.
func wireMarkGame(t testing.TB, spawn func(c *ecs.Commands)) *ecs.App {
	t.Helper()
	a := newApp(t, ecs.Options{Seed: 1})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for range 3 {
			spawn(ctx.Commands)
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	return a
}

// A snapshot of a build whose component type changed (the same name,
// other fields) is refused, naming the type.
func TestSnapshotDecodeRefusesChangedType(t *testing.T) {
	a := wireMarkGame(t, func(c *ecs.Commands) { ecs.With(c.Spawn(), wireMark{A: 1}) })
	data := ecstest.Encode(t, a)
	{
		type wireMark struct{ A, B float32 } // the same name in another build
		b := wireMarkGame(t, func(c *ecs.Commands) { ecs.With(c.Spawn(), wireMark{A: 1}) })
		var r ecs.Snapshot
		err := b.DecodeSnapshot(&r, data)
		if !errors.Is(err, ecs.ErrSnapshot) || !strings.Contains(err.Error(), "component type ecs_test.wireMark differs") {
			t.Errorf("decode into a build with another wireMark: %v, want it refused naming ecs_test.wireMark", err)
		}
	}
	b := wireMarkGame(t, func(c *ecs.Commands) { ecs.With(c.Spawn(), wireMark{A: 2}) })
	var r ecs.Snapshot
	if err := b.DecodeSnapshot(&r, data); err != nil {
		t.Errorf("decode into the same build: %v", err)
	}
}

// An event with a Run function cannot travel: encoding fails, naming its
// Kind.
func TestSnapshotEncodeRefusesRunEvents(t *testing.T) {
	a := wireMarkGame(t, func(c *ecs.Commands) {})
	q := ecs.GetResource[schedule.Queue[ecs.Event]](a.World())
	if _, err := q.After(5, ecs.Event{Kind: 42, Run: func(*ecs.Sys, ecs.EventDelivery) {}}); err != nil {
		t.Fatal(err)
	}
	var s ecs.Snapshot
	if err := a.Save(&s); err != nil {
		t.Fatal(err)
	}
	_, err := s.AppendBinary(nil)
	if !errors.Is(err, ecs.ErrSnapshot) || !strings.Contains(err.Error(), "Kind 42") || !strings.Contains(err.Error(), "without Run") {
		t.Errorf("encode with a Run event pending: %v, want it refused naming Kind 42 and what to do", err)
	}
}

// Decoding while a query is open (it registers component types with
// Arche) is refused instead of panicking.
func TestSnapshotDecodeRefusesOpenQuery(t *testing.T) {
	a := wireMarkGame(t, func(c *ecs.Commands) { ecs.With(c.Spawn(), wireMark{A: 1}) })
	data := ecstest.Encode(t, a)
	b := newApp(t, ecs.Options{Seed: 1})
	if err := b.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	ecs.NewMap[wireMark](b.World())
	q := ecs.NewFilter1[ecs.Transform](b.World()).Query()
	defer q.Close()
	var r ecs.Snapshot
	if err := b.DecodeSnapshot(&r, data); !errors.Is(err, ecs.ErrSnapshot) || !strings.Contains(err.Error(), "query is open") {
		t.Errorf("decode with a query open: %v, want it refused", err)
	}
}

// wireLook is presentation that is not plain data.
type wireLook struct {
	ecs.PresentationOnly
	P *int
}

// Presentation-only values travel when they are plain data, so the
// receiver's entities look as the sender's; one that is not plain data
// arrives zero.
func TestSnapshotPresentationTravels(t *testing.T) {
	n := 5
	spawn := func(c *ecs.Commands) {
		p := c.Spawn()
		ecs.With(p, wireMark{A: 1})
		ecs.With(p, ecs.Sprite{Size: geom.Vec2{X: 3, Y: 4}, Layer: 2})
		ecs.With(p, wireLook{P: &n})
	}
	a := wireMarkGame(t, spawn)
	b := wireMarkGame(t, func(c *ecs.Commands) {
		p := c.Spawn()
		ecs.With(p, wireMark{A: 1})
		ecs.With(p, ecs.Sprite{})
		ecs.With(p, wireLook{})
	})
	if mustAppHash(t, a).Total != mustAppHash(t, b).Total {
		t.Fatal("presentation changed the hash: the test is wrong")
	}
	var r ecs.Snapshot
	if err := b.DecodeSnapshot(&r, ecstest.Encode(t, a)); err != nil {
		t.Fatal(err)
	}
	if err := b.Restore(&r); err != nil {
		t.Fatal(err)
	}
	sprites, looks := 0, 0
	for q := ecs.NewFilter2[ecs.Sprite, wireLook](b.World()).Query(); q.Next(); {
		s, l := q.Get()
		if s.Size == (geom.Vec2{X: 3, Y: 4}) && s.Layer == 2 {
			sprites++
		}
		if l.P == nil {
			looks++
		}
	}
	if sprites != 3 || looks != 3 {
		t.Errorf("after the transfer %d of 3 sprites are the sender's and %d of 3 wireLook values are zero", sprites, looks)
	}
}

// benchWireGame is an App of 10,000 entities with the components of
// BenchmarkWorldHash (Transform, a velocity, a health).
func benchWireGame(b *testing.B) *ecs.App {
	a := newApp(b, ecs.Options{Seed: 1})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for i := range benchEntities {
			p := ctx.Commands.Spawn()
			ecs.With(p, ecs.At(float32(i), 0))
			ecs.With(p, vel{1, 2})
			ecs.With(p, health{i})
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		b.Fatal(err)
	}
	return a
}

// BenchmarkSnapshotWire encodes and decodes the snapshot of the world of
// BenchmarkWorldHash, per entity, beside the in-memory save
// (ecstest.BenchWire).
//
//	go test -run '^$' -bench 'SnapshotWire|WorldHash$' ./ecs
func BenchmarkSnapshotWire(b *testing.B) {
	ecstest.BenchWire(b, benchWireGame(b), benchWireGame(b))
}
