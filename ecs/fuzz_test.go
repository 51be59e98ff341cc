package ecs_test

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
)

type fuzzA struct{ V uint8 }
type fuzzB struct{ V uint16 }
type fuzzTag struct{ ID int }

// modelEntity is the reference state of one entity.
type modelEntity struct {
	alive bool
	a     *uint8
	b     *uint16
}

type modelOp struct {
	kind   byte // 0 spawn, 1 despawn, 2..4 add/set/remove A, 5..7 add/set/remove B
	target int  // model id; -1 is the zero Entity
	val    uint16
	flags  byte
	id     int // spawn: the new model id (A gets val, B gets val*3)
}

// FuzzCommands plays random batches of commands, queued while a query holds
// the world locked, against a reference model: after every sync point the
// world must hold exactly the model's entities and components, the failure
// counters must match the model's, and nothing may panic.
func FuzzCommands(f *testing.F) {
	f.Add([]byte{0, 3, 9, 8, 1, 0, 8, 2, 0, 5, 8})
	f.Add([]byte{0, 1, 1, 0, 2, 2, 8, 3, 1, 7, 4, 0, 6, 0, 9, 7, 1, 8, 1, 0, 1, 0, 8, 2, 0, 3, 8})
	f.Add([]byte{0, 0, 0, 8, 4, 0, 7, 0, 5, 0, 1, 6, 0, 2, 8, 1, 255, 8})
	f.Fuzz(func(t *testing.T, prog []byte) {
		w := ecs.NewWorld()
		tags := ecs.NewFilter1[fuzzTag](w)
		as := ecs.NewMap[fuzzA](w)
		bs := ecs.NewMap[fuzzB](w)
		var model []*modelEntity
		var handles []ecs.Entity // by model id, once resolved
		var queued []modelOp
		var dead, missing uint64
		cmd := w.Commands()
		var q ecs.Query1[fuzzTag]
		locked := false

		next := func(i *int) byte {
			if *i >= len(prog) {
				return 0
			}
			b := prog[*i]
			*i++
			return b
		}
		target := func(b byte) (int, ecs.Entity) {
			if len(handles) == 0 || b == 255 {
				return -1, ecs.Entity{}
			}
			id := int(b) % len(handles)
			return id, handles[id]
		}
		sync := func() {
			if locked {
				q.Close()
				locked = false
			}
			if leaked := w.Apply(); leaked != 0 {
				t.Fatalf("leaked queries: %d", leaked)
			}
			for _, o := range queued {
				if o.kind == 0 {
					m := &modelEntity{alive: true}
					if o.flags&1 != 0 {
						v := uint8(o.val)
						m.a = &v
					}
					if o.flags&2 != 0 {
						v := o.val * 3
						m.b = &v
					}
					model = append(model, m)
					continue
				}
				if o.target < 0 || !model[o.target].alive {
					dead++
					continue
				}
				m := model[o.target]
				switch o.kind {
				case 1:
					m.alive = false
				case 2:
					v := uint8(o.val)
					m.a = &v
				case 3:
					if m.a == nil {
						missing++
					} else {
						*m.a = uint8(o.val)
					}
				case 4:
					if m.a == nil {
						missing++
					}
					m.a = nil
				case 5:
					v := o.val
					m.b = &v
				case 6:
					if m.b == nil {
						missing++
					} else {
						*m.b = o.val
					}
				case 7:
					if m.b == nil {
						missing++
					}
					m.b = nil
				}
			}
			queued = queued[:0]
			// Resolve new handles and compare the world with the model.
			for len(handles) < len(model) {
				handles = append(handles, ecs.Entity{})
			}
			live := 0
			it := tags.Query()
			for it.Next() {
				id := it.Get().ID
				handles[id] = it.Entity()
				live++
			}
			want := 0
			for id, m := range model {
				if !m.alive {
					if w.Alive(handles[id]) {
						t.Fatalf("entity %d: alive in the world, dead in the model", id)
					}
					continue
				}
				want++
				e := handles[id]
				if got := as.Get(e); (got == nil) != (m.a == nil) || (got != nil && got.V != *m.a) {
					t.Fatalf("entity %d component A: got %v, want %v", id, got, m.a)
				}
				if got := bs.Get(e); (got == nil) != (m.b == nil) || (got != nil && got.V != *m.b) {
					t.Fatalf("entity %d component B: got %v, want %v", id, got, m.b)
				}
			}
			if live != want {
				t.Fatalf("live entities: got %d, want %d", live, want)
			}
			st := cmd.Stats()
			if st.DeadEntity != dead || st.MissingComponent != missing {
				t.Fatalf("failures: got dead %d missing %d, want %d and %d", st.DeadEntity, st.MissingComponent, dead, missing)
			}
		}

		for i := 0; i < len(prog); {
			if !locked && len(handles) > 0 {
				// Queue this batch while the world is locked.
				q = tags.Query()
				q.Next()
				locked = true
			}
			op := next(&i) % 9
			switch op {
			case 8:
				sync()
			case 0:
				flags, val := next(&i), next(&i)
				p := cmd.Spawn()
				id := len(model) + countSpawns(queued)
				ecs.With(p, fuzzTag{ID: id})
				if flags&1 != 0 {
					ecs.With(p, fuzzA{V: val})
				}
				if flags&2 != 0 {
					ecs.With(p, fuzzB{V: uint16(val) * 3})
				}
				queued = append(queued, modelOp{kind: 0, flags: flags, val: uint16(val), id: id})
			default:
				id, e := target(next(&i))
				val := uint16(next(&i))
				switch op {
				case 1:
					cmd.Despawn(e)
				case 2:
					ecs.Add(cmd, e, fuzzA{V: uint8(val)})
				case 3:
					ecs.Set(cmd, e, fuzzA{V: uint8(val)})
				case 4:
					ecs.Remove[fuzzA](cmd, e)
				case 5:
					ecs.Add(cmd, e, fuzzB{V: val})
				case 6:
					ecs.Set(cmd, e, fuzzB{V: val})
				case 7:
					ecs.Remove[fuzzB](cmd, e)
				}
				queued = append(queued, modelOp{kind: op, target: id, val: val})
			}
		}
		sync()
	})
}

func countSpawns(ops []modelOp) int {
	n := 0
	for _, o := range ops {
		if o.kind == 0 {
			n++
		}
	}
	return n
}

// FuzzWorldHash builds one state two ways from a program of spawns,
// component writes and despawns: directly, and with every spawn bare and
// its components added one by one in reverse order (other archetypes,
// another iteration order, component types registered in another order).
// The hashes must agree; changing one value afterwards must change the
// total and name that component's type.
func FuzzWorldHash(f *testing.F) {
	f.Add([]byte{0, 7, 0, 3, 1, 0, 0, 9, 2, 1})
	f.Add([]byte{0, 1, 0, 2, 0, 3, 2, 0, 0, 4, 1, 5, 0, 6})
	f.Fuzz(func(t *testing.T, prog []byte) {
		build := func(roundabout bool) (*ecs.World, []ecs.Entity) {
			w := ecs.NewWorld()
			if roundabout {
				ecs.NewFilter1[fuzzTag](w)
				ecs.NewFilter1[fuzzB](w)
			}
			var es []ecs.Entity
			cmd := w.Commands()
			for i := 0; i+1 < len(prog); i += 2 {
				op, v := prog[i]%3, prog[i+1]
				switch op {
				case 0: // spawn with the components v's bits pick
					p := cmd.Spawn()
					if !roundabout {
						if v&1 != 0 {
							ecs.With(p, fuzzA{V: v})
						}
						if v&2 != 0 {
							ecs.With(p, fuzzB{V: uint16(v) * 3})
						}
						ecs.With(p, fuzzTag{ID: len(es)})
					}
					w.Apply()
					e, _ := cmd.Resolve(p)
					if roundabout {
						ecs.Add(cmd, e, fuzzTag{ID: len(es)})
						if v&2 != 0 {
							ecs.Add(cmd, e, fuzzB{V: uint16(v) * 3})
						}
						if v&1 != 0 {
							ecs.Add(cmd, e, fuzzA{V: v})
						}
						w.Apply()
					}
					es = append(es, e)
				case 1: // despawn
					if len(es) > 0 {
						cmd.Despawn(es[int(v)%len(es)])
						w.Apply()
					}
				case 2: // set A on one entity
					if len(es) > 0 {
						ecs.Add(cmd, es[int(v)%len(es)], fuzzA{V: v ^ 0x5a})
						w.Apply()
					}
				}
			}
			return w, es
		}
		a, es := build(false)
		b, _ := build(true)
		ha, err := a.Hash()
		if err != nil {
			t.Fatal(err)
		}
		hb, err := b.Hash()
		if err != nil {
			t.Fatal(err)
		}
		if ha.Total != hb.Total || len(ecs.DiffHashes(ha, hb)) != 0 {
			t.Fatalf("the same state built two ways: %+v against %+v (differing %v)", ha, hb, ecs.DiffHashes(ha, hb))
		}
		for _, e := range es {
			if !b.Alive(e) {
				continue
			}
			m := ecs.NewMap[fuzzTag](b)
			m.Get(e).ID += 1000
			hc, err := b.Hash()
			if err != nil {
				t.Fatal(err)
			}
			if got := ecs.DiffHashes(ha, hc); hc.Total == ha.Total || len(got) != 1 || got[0] != "ecs_test.fuzzTag" {
				t.Fatalf("after changing %v's tag: total %x (was %x), differing %v; want only ecs_test.fuzzTag", e, hc.Total, ha.Total, got)
			}
			break
		}
	})
}
