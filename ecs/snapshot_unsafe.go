//go:build metronome_unsafe

package ecs

import (
	"reflect"
	"unsafe"

	arche "github.com/mlange-42/arche/ecs"
)

// This file is the fast interpolation snapshot, built only with the
// metronome_unsafe tag. It reads two private fields of Arche's Query by
// reflection and walks an archetype's Transform column with pointer
// arithmetic, which relies on Arche storing each component of an archetype
// in one typed array (reflect.ArrayOf). Neither is Arche's public API, so an
// Arche upgrade may break it: the reflection paths are checked when the
// package loads, and the whole test suite runs with and without the tag.
// snapshot_public.go is the default.

var (
	queryType = reflect.TypeFor[arche.Query]()
	// From the current entity to entityIndexMax, the query's component is a
	// plain array.
	queryIndexMax = mustField(queryType, reflect.Uint32, "entityIndexMax")
	queryIndex    = mustField(queryType, reflect.Uint32, "entityIndex")
)

func mustField(t reflect.Type, kind reflect.Kind, name string) []int {
	f, ok := t.FieldByName(name)
	if !ok {
		panic("ecs: Arche " + t.String() + " has no field " + name + "; update snapshot_unsafe.go or build without metronome_unsafe")
	}
	if f.Type.Kind() != kind {
		panic("ecs: Arche field " + name + " is a " + f.Type.Kind().String() + "; update snapshot_unsafe.go or build without metronome_unsafe")
	}
	return f.Index
}

// remaining returns how many entities of the current archetype the query
// has yet to visit, the current one included.
func remaining(q *arche.Query) int {
	v := reflect.ValueOf(q).Elem()
	return int(v.FieldByIndex(queryIndexMax).Uint()) - int(v.FieldByIndex(queryIndex).Uint()) + 1
}

// run records every Transform of w as its previous value, one archetype
// column at a time: a plain loop over memory instead of a query step and a
// component lookup per entity.
func (s *snapshotter) run(w *arche.World) {
	id := s.id
	q := w.Query(&s.filter)
	if !q.Next() {
		return
	}
	mark := hasPrevMark
	for {
		n := remaining(&q)
		// A pointer walk: indexing would multiply by the 44-byte stride
		// for every entity. It stops on the last Transform rather than one
		// past it, which the race detector's pointer checks would reject.
		t := (*Transform)(q.Get(id))
		for k := n; ; k-- {
			t.snapshotMark(mark)
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

// snapshot records the current value as the previous one and marks it
// present.
func (t *Transform) snapshot() { t.snapshotMark(hasPrevMark) }

// snapshotMark copies raw memory: the current value's first 16 bytes in one
// move, then its last 4 bytes together with hasPrev (and the padding after
// it) in one 8-byte store. mark is [hasPrevMark], passed in so a loop keeps
// it in a register. The layout this relies on is checked below at compile
// time.
func (t *Transform) snapshotMark(mark uint64) {
	p := unsafe.Pointer(t)
	*(*[16]byte)(unsafe.Add(p, offPrev)) = *(*[16]byte)(p)
	tail := uint64(*(*uint32)(unsafe.Add(p, 16)))
	*(*uint64)(unsafe.Add(p, offPrev+16)) = tail | mark
}

// hasPrevMark is the 8-byte word at offPrev+16 with every byte zero except
// hasPrev, which is true: where that byte falls depends on the machine's
// byte order.
var hasPrevMark = func() uint64 {
	var word uint64
	*(*bool)(unsafe.Add(unsafe.Pointer(&word), offHasPrev-offPrev-16)) = true
	return word
}()

const (
	offPrev    = unsafe.Offsetof(Transform{}.prev)
	offHasPrev = unsafe.Offsetof(Transform{}.hasPrev)
)

// Compile-time layout checks for snapshotMark: the current fields are laid
// out as a pose (20 bytes from offset 0), prev follows at 20, hasPrev at 40,
// and the Transform ends at 44 (so bytes 41 to 43 are padding). An index out
// of range fails the build if any of this changes.
var (
	_ = [1]struct{}{}[unsafe.Offsetof(Transform{}.Rotation)-unsafe.Offsetof(pose{}.rotation)]
	_ = [1]struct{}{}[unsafe.Offsetof(Transform{}.Scale)-unsafe.Offsetof(pose{}.scale)]
	_ = [1]struct{}{}[unsafe.Sizeof(pose{})-20]
	_ = [1]struct{}{}[offPrev-20]
	_ = [1]struct{}{}[offHasPrev-40]
	_ = [1]struct{}{}[unsafe.Sizeof(Transform{})-44]
)
