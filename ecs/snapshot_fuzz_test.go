package ecs_test

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/schedule"
)

type fuzzRef struct {
	To   ecs.Entity
	List []uint8
}

// FuzzSnapshotRestore plays a random program of spawns, despawns, adds,
// removes, writes and gameplay events, saves the App in the middle, plays
// the rest, restores, and plays the rest again: the restore must bring
// back the saved hash, and the replayed rest must reach the hash and the
// entities (IDs and generations, in query order) of its first run.
func FuzzSnapshotRestore(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 2, 3, 9, 0, 4, 1, 5, 0, 1, 2, 6, 3, 0, 0, 1})
	f.Add([]byte{0, 0, 0, 0, 1, 1, 1, 9, 0, 0, 2, 2, 5, 5, 0, 0, 7, 7, 3})
	f.Add([]byte{0, 1, 0, 9, 1, 0, 1, 0, 1, 0, 1, 0, 8, 8, 8, 0, 0})
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) > 400 {
			return
		}
		a, err := ecs.NewApp(ecs.Options{Seed: 5, QueueCapacity: 16})
		if err != nil {
			t.Fatal(err)
		}
		w := a.World()
		all := ecs.NewFilter1[fuzzA](w)
		queue := ecs.GetResource[schedule.Queue[ecs.Event]](w)
		var es []ecs.Entity
		pick := func(b byte) ecs.Entity {
			if len(es) == 0 {
				return ecs.Entity{}
			}
			return es[int(b)%len(es)]
		}
		play := func(prog []byte) {
			c := w.Commands()
			for i := 0; i+1 < len(prog); i += 2 {
				op, arg := prog[i]%9, prog[i+1]
				switch op {
				case 0:
					p := c.Spawn()
					ecs.With(p, fuzzA{V: arg})
					if arg%3 == 0 {
						ecs.With(p, fuzzRef{To: pick(arg), List: make([]uint8, arg%5)})
					}
				case 1:
					c.Despawn(pick(arg))
				case 2:
					ecs.Add(c, pick(arg), fuzzB{V: uint16(arg) * 7})
				case 3:
					ecs.Remove[fuzzB](c, pick(arg))
				case 4:
					ecs.Set(c, pick(arg), fuzzA{V: arg ^ 0x5a})
				case 5:
					ecs.Add(c, pick(arg), fuzzRef{To: pick(arg + 1), List: []uint8{arg, arg}})
				case 6:
					if _, err := queue.After(uint64(1+arg%4), ecs.Event{Kind: int(arg), Entity: pick(arg)}); err != nil {
						continue
					}
				case 7:
					m := ecs.NewMap[fuzzRef](w)
					if r := m.Get(pick(arg)); r != nil {
						r.List = append(r.List, arg)
					}
				case 8:
					if err := queue.Advance(queue.Now()+1, func(ecs.EventDelivery) {}); err != nil {
						t.Fatal(err)
					}
				}
				w.Apply()
				es = es[:0]
				for q := all.Query(); q.Next(); {
					es = append(es, q.Entity())
				}
			}
		}
		state := func() (uint64, []ecs.Entity) {
			h, err := a.Hash()
			if err != nil {
				t.Fatal(err)
			}
			var order []ecs.Entity
			for q := all.Query(); q.Next(); {
				order = append(order, q.Entity())
			}
			return h.Total, order
		}
		half := len(prog) / 2 &^ 1
		play(prog[:half])
		var snap ecs.Snapshot
		if err := a.Save(&snap); err != nil {
			t.Fatal(err)
		}
		saved, savedOrder := state()
		savedEs := append([]ecs.Entity(nil), es...)
		play(prog[half:])
		first, firstOrder := state()
		if err := a.Restore(&snap); err != nil {
			t.Fatal(err)
		}
		if got, order := state(); got != saved || !equalEntities(order, savedOrder) {
			t.Fatalf("after the restore: hash %x, entities %v; saved %x, %v", got, order, saved, savedOrder)
		}
		es = append(es[:0], savedEs...)
		play(prog[half:])
		if got, order := state(); got != first || !equalEntities(order, firstOrder) {
			t.Fatalf("the rest again: hash %x, entities %v; first run %x, %v", got, order, first, firstOrder)
		}
	})
}

func equalEntities(a, b []ecs.Entity) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
