package ecs

import (
	"math/rand/v2"
	"slices"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
)

type poolA struct{ V uint32 }

type poolB struct{ Trail []uint8 }

// poolWorld is a world played by a program of spawns, despawns, component
// moves, saves and restores, which put its entity pool back with load.
type poolWorld struct {
	w     *World
	load  poolLoader
	snaps [3]worldSnapshot
	saved [3]poolState
	valid [3]bool
	es    []Entity
}

// poolState is what a restore must bring back: the world hash, and
// Arche's whole pool with the live entities in storage (query) order.
type poolState struct {
	hash uint64
	dump arche.EntityDump
}

func (s poolState) equal(o poolState) bool {
	return s.hash == o.hash && slices.Equal(s.dump.Entities, o.dump.Entities) && slices.Equal(s.dump.Alive, o.dump.Alive) &&
		s.dump.Next == o.dump.Next && s.dump.Available == o.dump.Available
}

func (p *poolWorld) state(t testing.TB) poolState {
	h, err := p.w.Hash()
	if err != nil {
		t.Fatal(err)
	}
	return poolState{h.Total, p.w.w.DumpEntities()}
}

func (p *poolWorld) pick(b byte) Entity {
	if len(p.es) == 0 {
		return Entity{}
	}
	return p.es[int(b)%len(p.es)]
}

// step plays one operation of a pool program; restored says it was a
// restore, and of which slot.
func (p *poolWorld) step(t testing.TB, op, arg byte) (restored int) {
	c := p.w.Commands()
	restored = -1
	switch op % 9 {
	case 0:
		ecs := c.Spawn()
		With(ecs, poolA{V: uint32(arg)})
	case 1:
		c.Spawn() // an entity with no components, in Arche's archetype without any
	case 2:
		c.Despawn(p.pick(arg))
	case 3:
		Add(c, p.pick(arg), poolB{Trail: make([]uint8, arg%4)})
	case 4:
		Remove[poolA](c, p.pick(arg))
	case 5:
		for i := range arg % 8 {
			With(c.Spawn(), poolA{V: uint32(i)})
		}
	case 6:
		for i := range arg % 8 {
			c.Despawn(p.pick(arg + i))
		}
	case 7:
		k := int(arg) % len(p.snaps)
		p.w.save(&p.snaps[k])
		p.saved[k], p.valid[k] = p.state(t), true
	case 8:
		k := int(arg) % len(p.snaps)
		if p.valid[k] {
			p.w.restoreWith(&p.snaps[k], p.load)
			restored = k
		}
	}
	p.w.Apply()
	p.es = p.es[:0]
	for q := p.w.w.Query(arche.All()); q.Next(); {
		p.es = append(p.es, Entity{e: q.Entity()})
	}
	return restored
}

// playPools plays prog on a world restoring with loadPool and one with
// loadPoolPublic: after every step both must be in the same state (hash,
// pool, storage order), and after a restore in the state saved. It
// returns the highest generation the pool reached.
func playPools(t testing.TB, prog []byte) uint32 {
	fast := &poolWorld{w: NewWorld(), load: loadPool}
	public := &poolWorld{w: NewWorld(), load: loadPoolPublic}
	var top uint32
	for i := 0; i+1 < len(prog); i += 2 {
		op, arg := prog[i], prog[i+1]
		k := fast.step(t, op, arg)
		public.step(t, op, arg)
		got, want := fast.state(t), public.state(t)
		if !got.equal(want) {
			t.Fatalf("step %d (op %d, arg %d): loadPool left hash %x, pool %v next %d available %d, live %v; LoadEntities left %x, %v %d %d, %v",
				i/2, op%9, arg, got.hash, got.dump.Entities, got.dump.Next, got.dump.Available, got.dump.Alive,
				want.hash, want.dump.Entities, want.dump.Next, want.dump.Available, want.dump.Alive)
		}
		if k >= 0 && !got.equal(fast.saved[k]) {
			s := fast.saved[k]
			t.Fatalf("step %d: restore of slot %d left hash %x, pool %v next %d available %d, live %v; saved %x, %v %d %d, %v",
				i/2, k, got.hash, got.dump.Entities, got.dump.Next, got.dump.Available, got.dump.Alive,
				s.hash, s.dump.Entities, s.dump.Next, s.dump.Available, s.dump.Alive)
		}
		for _, e := range got.dump.Entities[1:] {
			top = max(top, e.Generation())
		}
	}
	return top
}

// TestLoadPoolMatchesPublic plays random programs of spawns, despawns,
// component moves, saves to three slots and restores from them, and
// checks that a restore through loadPool leaves the world exactly as
// Arche's LoadEntities does, and as it was saved, across entities
// recycled many times over.
func TestLoadPoolMatchesPublic(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 9))
	var top uint32
	for range 200 {
		prog := make([]byte, 2*r.IntN(150))
		for i := range prog {
			prog[i] = byte(r.Uint32())
		}
		top = max(top, playPools(t, prog))
	}
	// The programs must have recycled indexes, or they tested little.
	if top < 5 {
		t.Errorf("the programs reached generation %d at most; want recycling to at least 5", top)
	}
}

// FuzzLoadPool is TestLoadPoolMatchesPublic's check on any program.
func FuzzLoadPool(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 0, 1, 7, 0, 2, 0, 0, 3, 8, 0})
	f.Add([]byte{5, 7, 7, 1, 6, 5, 5, 6, 8, 1, 1, 0, 8, 1, 3, 3})
	f.Add([]byte{1, 0, 1, 0, 0, 0, 7, 2, 4, 2, 2, 1, 1, 0, 8, 2, 6, 200, 8, 2})
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) > 600 {
			return
		}
		playPools(t, prog)
	})
}

// BenchmarkLoadPool is a despawn, a spawn and a restore across them in a
// world of 2,000 entities, with the pool put back in Arche's storage
// (inplace, loadPool) and through LoadEntities (public):
//
//	go test -run '^$' -bench LoadPool -benchmem ./ecs
func BenchmarkLoadPool(b *testing.B) {
	for _, c := range []struct {
		name string
		load poolLoader
	}{{"inplace", loadPool}, {"public", loadPoolPublic}} {
		b.Run(c.name, func(b *testing.B) {
			w := NewWorld()
			cmds := w.Commands()
			for i := range 2000 {
				p := cmds.Spawn()
				if i%2 == 0 {
					With(p, poolA{V: uint32(i)})
				}
			}
			w.Apply()
			var s worldSnapshot
			w.save(&s)
			all := NewFilter1[poolA](w)
			b.ReportAllocs()
			for b.Loop() {
				for q := all.Query(); q.Next(); {
					cmds.Despawn(q.Entity())
					q.Close()
					break
				}
				With(cmds.Spawn(), poolA{V: 1})
				w.Apply()
				w.restoreWith(&s, c.load)
			}
		})
	}
}
