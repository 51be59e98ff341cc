package ecs

import (
	"reflect"
	"unsafe"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// Queries are handed out as values, like Arche's, so that a loop keeps its
// iterator in registers: that is most of the speed of a query. The price is
// that the World cannot see whether a system finished a loop. It finds out
// from Arche itself, at the sync point and only when the world is still
// locked: every open query holds one lock bit, the World keeps a copy of the
// last query issued under each bit, and closing that copy releases the bit.
// Arche exports neither the bits nor a query's state, so the few fields
// needed are read by reflection, off the hot path. The reflection paths are
// checked when the package loads, so an Arche upgrade that moves them fails
// at once rather than silently.

var (
	queryType = reflect.TypeFor[arche.Query]()
	worldType = reflect.TypeFor[arche.World]()

	// Arche sets a query's nodeIndex to -2 when it closes.
	queryNodeIndex = mustField(queryType, reflect.Int32, "nodeIndex")
	queryLockBit   = mustField(queryType, reflect.Uint8, "lockBit")
	// World.locks.locks is the mask of lock bits in use.
	worldLockBits = mustMaskBits(worldType, "locks", "locks")
)

func mustField(t reflect.Type, kind reflect.Kind, path ...string) []int {
	var index []int
	for _, name := range path {
		f, ok := t.FieldByName(name)
		if !ok {
			panic("ecs: Arche " + t.String() + " has no field " + name + "; update locks.go")
		}
		index = append(index, f.Index...)
		t = f.Type
	}
	if kind != reflect.Invalid && t.Kind() != kind {
		panic("ecs: Arche field " + path[len(path)-1] + " is a " + t.Kind().String() + "; update locks.go")
	}
	return index
}

// mustMaskBits locates the words of a Mask: [4]uint64, or one uint64 when
// Arche is built with the tiny tag.
func mustMaskBits(t reflect.Type, path ...string) []int {
	index := mustField(t, reflect.Struct, path...)
	mask := t.FieldByIndex(index).Type
	f, ok := mask.FieldByName("bits")
	if !ok || (f.Type.Kind() != reflect.Array && f.Type.Kind() != reflect.Uint64) {
		panic("ecs: Arche Mask has no bits field; update locks.go")
	}
	return append(index, f.Index...)
}

// closed reports whether Arche has closed q.
func closed(q *arche.Query) bool {
	return reflect.ValueOf(q).Elem().FieldByIndex(queryNodeIndex).Int() == -2
}

// track records q as the holder of its lock bit.
func (w *World) track(q *arche.Query) {
	bit := reflect.ValueOf(q).Elem().FieldByIndex(queryLockBit).Uint()
	w.holders[bit] = *q
}

// closeLeaked closes every query still holding a lock bit and returns how
// many there were.
func (w *World) closeLeaked() int {
	if !w.w.IsLocked() {
		return 0
	}
	var held [arche.MaskTotalBits / 64]uint64
	bits := reflect.ValueOf(&w.w).Elem().FieldByIndex(worldLockBits)
	if bits.Kind() == reflect.Uint64 {
		held[0] = bits.Uint()
	} else {
		for i := range min(bits.Len(), len(held)) {
			held[i] = bits.Index(i).Uint()
		}
	}
	n := 0
	for word, v := range held {
		for b := range 64 {
			if v&(1<<b) != 0 {
				w.holders[word*64+b].Close()
				n++
			}
		}
	}
	return n
}

// queryIndexMax and queryIndex locate the bounds of the archetype a query is
// in: Arche stores each component of an archetype in one typed array
// (reflect.ArrayOf), so from the current entity to entityIndexMax the
// component is a plain Go slice.
var (
	queryIndexMax = mustField(queryType, reflect.Uint32, "entityIndexMax")
	queryIndex    = mustField(queryType, reflect.Uint32, "entityIndex")
)

// remaining returns how many entities of the current archetype the query
// has yet to visit, the current one included.
func remaining(q *arche.Query) int {
	v := reflect.ValueOf(q).Elem()
	return int(v.FieldByIndex(queryIndexMax).Uint()) - int(v.FieldByIndex(queryIndex).Uint()) + 1
}

// snapshotAll records every Transform of w as its previous value, one
// archetype column at a time: a plain loop over a slice instead of a query
// step per entity, which matters because it runs over every Transform on
// every fixed step that may end a batch. Each copy is two loads and two
// stores of raw memory (see [Transform.snapshot]).
func snapshotAll(w *arche.World, f *generic.Filter1[Transform]) {
	q := f.Query(w)
	if !q.Next() {
		return
	}
	mark := hasPrevMark
	for {
		n := remaining(&q.Query)
		// A pointer walk: indexing would multiply by the 44-byte stride
		// for every entity. It stops on the last Transform rather than one
		// past it, which the race detector's pointer checks would reject.
		t := q.Get()
		for k := n; ; k-- {
			t.snapshot(mark)
			if k == 1 {
				break
			}
			t = (*Transform)(unsafe.Add(unsafe.Pointer(t), unsafe.Sizeof(Transform{})))
		}
		if !q.Step(n) {
			return
		}
	}
}
