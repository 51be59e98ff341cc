package ecs

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/metronome-go/metronome/internal/binio"
	arche "github.com/mlange-42/arche/ecs"
)

// This is the one file of the package that looks inside the game's types,
// with reflect, and reads their values from memory, with unsafe. Three
// things need it, and Go's generics give no other way to see a type's
// fields:
//
//   - The world hash (hash.go) reads every hashed component, resource and
//     state value field by field, by the rule stated above [Unhashed].
//   - The command buffer (commands.go) replaces the references to pending
//     spawns ([Pending.Entity]) inside queued values.
//   - A snapshot of the world (snapshot.go, for rollback) copies the
//     values the hash covers; a layout says whether a value can be copied
//     by assignment or holds slices whose arrays must be copied too.
//
// Reflection runs once per type and world, when the type is first met: it
// compiles a layout, the list of the value's leaves (numbers, strings,
// slices, entities) at their offsets. Per value, only that list is used,
// each leaf as its own Go type at an offset reflect reported for the very
// type the pointer points to, so every load or store is of a live,
// correctly typed field. The hash reads only plain data (a type holding a
// pointer, map, interface, channel or function is refused before any
// read); the command buffer stores only Entity values. An [Entity] is read
// through Arche's own methods, never by the layout of Arche's struct.
//
//   - A snapshot copies Arche's entity pool out of and back into Arche's
//     own World.entityPool (pooldump.go, not in builds tagged
//     archesafe), whose fields are found by reflect and checked against
//     their types once (findPoolLayout); only the pool's entries and its
//     two counts are written, never a slice header.
//
//   - Analysis (analysis.go) reads a component of an entity by its type,
//     for a debugger's inspector and its expressions: a copy, through
//     reflect, of the value Arche's World.Get points to.
//
//   - A snapshot's binary form (snapshot_wire.go, for sending one to
//     another process) writes and reads the same leaves one by one, in
//     declaration order, each little-endian at its own width, and
//     describes each type by a fingerprint of its fields' names and types
//     (typeFingerprint), so that a snapshot from another build is refused.
//
// The cost (benchmarks in bench_test.go and layout_internal_test.go, on a
// shared 2-core machine): compiling a layout is a one-time reflect walk of
// tens of microseconds per type (BenchmarkLayoutCompile); hashing a value
// through it is a few mixing rounds, about 35 ns for a Transform with no
// allocation (BenchmarkLayoutHash), where the same reading through
// reflect.Value, the tests' reference, takes microseconds and allocates
// (BenchmarkReflectHash); a command writing a value with no Entity in it
// pays nothing, one with entities a load and a compare per reference
// (BenchmarkCommandsSetLinked). TestLayoutHashMatchesReflect checks the
// memory reads against that reference on random values. The binary form
// costs a switch and a store per leaf: encoding the 10,000 entities of
// BenchmarkWorldHash into a reused buffer takes about 2.5 times as long as
// hashing them, with no allocation (BenchmarkSnapshotWire in
// snapshot_wire_test.go). Decoding is slower: a slice's array is made
// with reflect.MakeSlice, a string is copied out of the input, and each
// entry of the entity pool is made through Arche's JSON form
// (snapshot_wire.go, newEntity).

// ComponentType names a component type for filter options such as
// [Filter1.With]. Build one with [TypeOf].
type ComponentType struct{ t reflect.Type }

// TypeOf returns the [ComponentType] of T.
func TypeOf[T any]() ComponentType { return ComponentType{reflect.TypeFor[T]()} }

// String returns the Go name of the type.
func (c ComponentType) String() string { return c.t.String() }

// pkgPath returns the import path of the type's package.
func (c ComponentType) pkgPath() string { return c.t.PkgPath() }

// A layout is what the package knows of the inside of one type.
type layout struct {
	size uintptr
	// presentation: the type is presentation only (see the rule above
	// Unhashed), or is the Unhashed marker itself.
	presentation bool
	// err says why a value is not plain data (it holds a pointer, map,
	// interface, channel or function), naming the field; nil when it is.
	err error
	// deep: the value holds slices, so a copy by assignment shares their
	// arrays and a snapshot must copy them too.
	deep   bool
	leaves []leaf
	// refs are the offsets of the Entity values inside the value, through
	// structs and arrays (not slices).
	refs []uintptr
	// named are the leaves before pairing, each with its field's path, for
	// naming the fields in which two values differ, and for a snapshot's
	// binary form (snapshot_wire.go), which writes them one by one.
	named []leaf
	// wireMin is the fewest bytes a value takes in the binary form;
	// fingerprint digests the type's description (typeFingerprint).
	wireMin     int
	fingerprint uint64
}

type leafKind uint8

const (
	leaf8 leafKind = iota
	leaf16
	leaf32
	leaf64
	leafString
	leafSlice
	// An Entity's index and generation, each a 32-bit leaf read through
	// Arche's methods (off is the arche.Entity's offset).
	leafIndex
	leafGen
	// Two 32-bit leaves 4 bytes apart, mixed as one word: both in memory,
	// an Entity's index and generation, a word in memory and the index of
	// the Entity after it, or a generation and the word after it (an
	// Entity's index is always followed by its generation, and that by the
	// Entity's ref, so no other pair occurs). off is the first's offset and
	// off2 the second's.
	leaf32x2
	leafEntity
	leafMemIndex
	leafGenMem
)

type leaf struct {
	off  uintptr
	kind leafKind
	off2 uintptr
	// pos orders the leaves for pairing: the offset of the 32 bits it
	// stands for, which for an Entity's generation is 4 past its index.
	pos  uintptr
	elem *layout // of a slice's elements
	// typ is a slice's own type, for copying its elements.
	typ reflect.Type
	// name is the field's path, for naming what differs (in named only).
	name string
	// boolean: a leaf8 that is a bool, which may hold only 0 or 1.
	boolean bool
}

var (
	entityType        = reflect.TypeFor[Entity]()
	entityArcheOffset = fieldOffset(entityType, "e")
	entityRefOffset   = fieldOffset(entityType, "ref")
	unhashedType      = reflect.TypeFor[Unhashed]()
	presentationType  = reflect.TypeFor[presentational]()
)

func fieldOffset(t reflect.Type, name string) uintptr {
	f, ok := t.FieldByName(name)
	if !ok {
		panic("ecs: Entity has no field " + name)
	}
	return f.Offset
}

// layoutOf returns the layout of t, compiling it on first use. Each world
// keeps its own, so worlds on different goroutines share nothing.
func (w *World) layoutOf(t ComponentType) *layout {
	if l, ok := w.layouts[t]; ok {
		return l
	}
	if w.layouts == nil {
		w.layouts = map[ComponentType]*layout{}
	}
	l := &layout{
		size:         t.t.Size(),
		presentation: t.t == unhashedType || t.t.Implements(presentationType),
	}
	w.layouts[t] = l // before compiling, for types that hold slices of themselves
	w.compile(l, t.t, 0, t.t.String())
	l.named = append([]leaf(nil), l.leaves...)
	l.leaves = pairUp(l.leaves)
	l.fingerprint = typeFingerprint(t.t)
	for _, f := range l.named {
		l.wireMin += wireBytes[f.kind]
	}
	return l
}

// compile adds the leaves and entity offsets of a value of type t at offset
// off to l; path names the value in errors. After the first error it goes
// on collecting entity offsets only.
func (w *World) compile(l *layout, t reflect.Type, off uintptr, path string) {
	add := func(k leafKind, at uintptr) {
		l.leaves = append(l.leaves, leaf{off: at, kind: k, pos: at, name: path})
	}
	switch t.Kind() {
	case reflect.Bool:
		add(leaf8, off)
		l.leaves[len(l.leaves)-1].boolean = true
	case reflect.Int8, reflect.Uint8:
		add(leaf8, off)
	case reflect.Int16, reflect.Uint16:
		add(leaf16, off)
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		add(leaf32, off)
	case reflect.Int64, reflect.Uint64, reflect.Float64:
		add(leaf64, off)
	case reflect.Complex64:
		add(leaf32, off)
		add(leaf32, off+4)
	case reflect.Complex128:
		add(leaf64, off)
		add(leaf64, off+8)
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		if t.Size() == 4 {
			add(leaf32, off)
		} else {
			add(leaf64, off)
		}
	case reflect.String:
		add(leafString, off)
	case reflect.Array:
		for i := range t.Len() {
			w.compile(l, t.Elem(), off+uintptr(i)*t.Elem().Size(), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Slice:
		l.deep = true
		elem := w.layoutOf(ComponentType{t.Elem()})
		if elem.err != nil && l.err == nil {
			l.err = elem.err
		}
		l.leaves = append(l.leaves, leaf{off: off, kind: leafSlice, pos: off, elem: elem, typ: t, name: path})
	case reflect.Struct:
		if t == entityType {
			e := off + entityArcheOffset
			l.leaves = append(l.leaves, leaf{off: e, kind: leafIndex, pos: e, name: path}, leaf{off: e, kind: leafGen, pos: e + 4, name: path})
			add(leaf32, off+entityRefOffset)
			l.refs = append(l.refs, off)
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Name == "_" {
				continue // blank fields are padding by intent
			}
			w.compile(l, f.Type, off+f.Offset, path+"."+f.Name)
		}
	default:
		if l.err == nil {
			l.err = fmt.Errorf("%s is %s (%v), not plain data: a hashed type may hold booleans, numbers, strings, and arrays, slices and structs of them; leave it out with ExcludeFromHash if it is not game state",
				path, article(t.Kind()), t)
		}
	}
}

func article(k reflect.Kind) string {
	s := k.String()
	switch k {
	case reflect.Ptr:
		s = "pointer"
	case reflect.UnsafePointer:
		s = "unsafe pointer"
	case reflect.Func:
		s = "function"
	case reflect.Chan:
		s = "channel"
	}
	if strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// is32 reports whether k is a single 32-bit leaf.
func is32(k leafKind) bool { return k == leaf32 || k == leafIndex || k == leafGen }

// pairs names the leaf that mixes two 32-bit leaves as one word.
var pairs = map[[2]leafKind]leafKind{
	{leaf32, leaf32}:     leaf32x2,
	{leafIndex, leafGen}: leafEntity,
	{leaf32, leafIndex}:  leafMemIndex,
	{leafGen, leaf32}:    leafGenMem,
}

// pairUp merges two 32-bit leaves 4 bytes apart into one, halving the
// mixing rounds of float32-heavy components such as Transform.
func pairUp(ls []leaf) []leaf {
	out := ls[:0]
	for i := 0; i < len(ls); i++ {
		a := ls[i]
		if i+1 < len(ls) && is32(a.kind) && is32(ls[i+1].kind) && ls[i+1].pos == a.pos+4 {
			k, ok := pairs[[2]leafKind{a.kind, ls[i+1].kind}]
			if !ok {
				panic("ecs: layout: no pair of leaf kinds " + fmt.Sprint(a.kind, ls[i+1].kind))
			}
			out = append(out, leaf{off: a.off, kind: k, off2: ls[i+1].off})
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

// sliceHeader is the layout of a Go slice, which the language fixes.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// hash mixes the value at p, of l's type, into h. Every load is of a
// field's own type, so the result does not depend on the machine's byte
// order. l must have no error.
func (l *layout) hash(h uint64, p unsafe.Pointer) uint64 {
	for i := range l.leaves {
		f := &l.leaves[i]
		q := unsafe.Add(p, f.off)
		switch f.kind {
		case leaf8:
			h = mix(h, uint64(*(*uint8)(q)))
		case leaf16:
			h = mix(h, uint64(*(*uint16)(q)))
		case leaf32:
			h = mix(h, uint64(*(*uint32)(q)))
		case leafIndex:
			h = mix(h, uint64((*arche.Entity)(q).ID()))
		case leafGen:
			h = mix(h, uint64((*arche.Entity)(q).Generation()))
		case leaf32x2:
			h = mix(h, uint64(*(*uint32)(q))|uint64(*(*uint32)(unsafe.Add(q, 4)))<<32)
		case leafEntity:
			e := (*arche.Entity)(q)
			h = mix(h, uint64(e.ID())|uint64(e.Generation())<<32)
		case leafMemIndex:
			h = mix(h, uint64(*(*uint32)(q))|uint64((*arche.Entity)(unsafe.Add(p, f.off2)).ID())<<32)
		case leafGenMem:
			h = mix(h, uint64((*arche.Entity)(q).Generation())|uint64(*(*uint32)(unsafe.Add(p, f.off2)))<<32)
		case leaf64:
			h = mix(h, *(*uint64)(q))
		case leafString:
			h = hashString(h, *(*string)(q))
		case leafSlice:
			s := (*sliceHeader)(q)
			h = mix(h, uint64(s.len))
			for k := range s.len {
				h = f.elem.hash(h, unsafe.Add(s.data, uintptr(k)*f.elem.size))
			}
		}
	}
	return h
}

// firstDiff returns the path of the first field, in declaration order,
// in which *a and *b, values of l's type, differ by the hash's rule, or ""
// when they do not. It is for reports, not for every tick.
func (l *layout) firstDiff(a, b any) string {
	pa, pb := pointerOf(a), pointerOf(b)
	for i := range l.named {
		one := layout{leaves: l.named[i : i+1]}
		if one.hash(0, pa) != one.hash(0, pb) {
			return l.named[i].name
		}
	}
	return ""
}

// pointerOf returns the address a pointer held in an interface points to.
func pointerOf(p any) unsafe.Pointer { return reflect.ValueOf(p).UnsafePointer() }

// hashValue mixes *v into h by l, the layout of T.
func hashValue[T any](l *layout, h uint64, v *T) uint64 { return l.hash(h, unsafe.Pointer(v)) }

// entityAt returns the Entity at offset off inside *v, one of the offsets
// in the layout of T.
func entityAt[T any](v *T, off uintptr) *Entity {
	return (*Entity)(unsafe.Add(unsafe.Pointer(v), off))
}

// copyValue copies *src over *dst as a snapshot does, by l, the layout of
// T: by assignment, and for a value that holds slices with the slices'
// elements copied into arrays of dst's own, reusing the ones dst held
// before when they are large enough. scratch is a value of the caller's
// (not escaping per call) that holds dst's previous contents meanwhile.
func copyValue[T any](l *layout, dst, src, scratch *T) {
	if !l.deep {
		*dst = *src
		return
	}
	*scratch = *dst
	*dst = *src
	l.ownSlices(unsafe.Pointer(dst), unsafe.Pointer(scratch))
	var zero T
	*scratch = zero
}

// copyValueSpare is copyValue for a value whose previous arrays are gone
// (a restore rebuilt its entity): a slice that does not fit in dst's own
// array takes one from sp when it holds one large enough.
func copyValueSpare[T any](l *layout, dst, src, scratch *T, sp *spareArrays) {
	if !l.deep {
		*dst = *src
		return
	}
	*scratch = *dst
	*dst = *src
	l.ownSlicesSpare(unsafe.Pointer(dst), unsafe.Pointer(scratch), sp)
	var zero T
	*scratch = zero
}

// spareArrays holds, for one component type, the arrays of the slices
// its values held before a restore rebuilt the world's entities (Arche
// drops the values with the entities), by leaf of the type's layout, so
// that the rebuilt values take them instead of new ones.
type spareArrays struct {
	leaves int            // of the type's layout
	free   [][]spareArray // by index in layout.leaves
}

type spareArray struct {
	data unsafe.Pointer
	cap  int
}

// heldArray is an array a world value's slice holds, found before a
// rebuild: [start, end) is its memory, owner and leaf where it goes.
type heldArray struct {
	start, end uintptr
	arr        spareArray
	owner      *spareArrays
	leaf       int
}

// collectValueArrays is collectArrays for *v, of type T.
func collectValueArrays[T any](l *layout, v *T, held *[]heldArray, owner *spareArrays) {
	l.collectArrays(unsafe.Pointer(v), held, owner)
}

// collectArrays appends the arrays of the top-level slices of the value
// at p, of l's type, to held, for owner.
func (l *layout) collectArrays(p unsafe.Pointer, held *[]heldArray, owner *spareArrays) {
	for i := range l.leaves {
		f := &l.leaves[i]
		if f.kind != leafSlice {
			continue
		}
		h := (*sliceHeader)(unsafe.Add(p, f.off))
		if h.data == nil || h.cap == 0 || f.elem.size == 0 {
			continue
		}
		start := uintptr(h.data)
		*held = append(*held, heldArray{start: start, end: start + uintptr(h.cap)*f.elem.size, arr: spareArray{h.data, h.cap}, owner: owner, leaf: i})
	}
}

// spareDistinct hands each array of held to its owner, except one that
// overlaps an array handed out before it: values a game made share an
// array (or parts of one) must not end up writing into each other after
// the restore. held is sorted in place and cleared.
func spareDistinct(held []heldArray) {
	slices.SortFunc(held, func(a, b heldArray) int { return cmp.Compare(a.start, b.start) })
	var end uintptr
	for _, h := range held {
		if h.start < end {
			continue
		}
		end = h.end
		if len(h.owner.free) == 0 {
			h.owner.free = make([][]spareArray, h.owner.leaves)
		}
		h.owner.free[h.leaf] = append(h.owner.free[h.leaf], h.arr)
	}
	clear(held)
}

// take removes and returns an array of leaf i that holds n elements,
// looking at the last few added; ok is false when none does.
func (sp *spareArrays) take(i, n int) (a spareArray, ok bool) {
	if sp == nil || i >= len(sp.free) {
		return a, false
	}
	free := sp.free[i]
	for k := len(free) - 1; k >= 0 && k >= len(free)-spareLook; k-- {
		if free[k].cap >= n {
			a = free[k]
			last := len(free) - 1
			free[k] = free[last]
			free[last] = spareArray{}
			sp.free[i] = free[:last]
			return a, true
		}
	}
	return a, false
}

// spareLook is how many spare arrays take looks at: a bound on the cost,
// since the arrays of a type's values mostly have the sizes they need.
const spareLook = 16

// drop forgets the arrays left over.
func (sp *spareArrays) drop() {
	for i := range sp.free {
		clear(sp.free[i])
		sp.free[i] = sp.free[i][:0]
	}
}

// ownSlices gives every slice at the top level of the value at p (through
// structs and arrays) an array of its own holding the same elements, taking
// the array of the slice at the same offset in old when it is large enough
// and not the one p shares; old may be nil, for a fresh array every time.
// Slices inside slice elements always get fresh arrays.
//
// The slices are handled as reflect.Values made at the field's address with
// the slice's own type, so each array is copied with the write barriers
// the garbage collector needs.
func (l *layout) ownSlices(p, old unsafe.Pointer) { l.ownSlicesSpare(p, old, nil) }

// ownSlicesSpare is ownSlices taking, where old's array is too small, a
// spare array of sp (which may be nil) before making one. old must not be
// nil when sp is not.
func (l *layout) ownSlicesSpare(p, old unsafe.Pointer, sp *spareArrays) {
	for i := range l.leaves {
		f := &l.leaves[i]
		if f.kind != leafSlice {
			continue
		}
		dv := reflect.NewAt(f.typ, unsafe.Add(p, f.off)).Elem()
		if dv.IsNil() {
			continue
		}
		n := dv.Len()
		var nv reflect.Value
		if old != nil {
			// The old slice, addressable in old's memory: resliced and set
			// in place, it needs no new header (Value.Slice would make one).
			ov := reflect.NewAt(f.typ, unsafe.Add(old, f.off)).Elem()
			if ov.Cap() >= n && ov.Cap() > 0 && ov.UnsafePointer() != dv.UnsafePointer() {
				ov.SetLen(n)
				nv = ov
			}
		}
		if !nv.IsValid() && old != nil && n > 0 {
			if a, ok := sp.take(i, n); ok {
				// Put in old's field, addressable, like the old slice above.
				*(*sliceHeader)(unsafe.Add(old, f.off)) = sliceHeader{data: a.data, len: n, cap: a.cap}
				nv = reflect.NewAt(f.typ, unsafe.Add(old, f.off)).Elem()
			}
		}
		if !nv.IsValid() {
			nv = reflect.MakeSlice(f.typ, n, n)
		}
		reflect.Copy(nv, dv)
		dv.Set(nv)
		if f.elem.deep {
			base := dv.UnsafePointer()
			for k := range n {
				f.elem.ownSlices(unsafe.Add(base, uintptr(k)*f.elem.size), nil)
			}
		}
	}
}

// wireBytes is how many bytes a leaf of each kind takes in a snapshot's
// binary form, at least (a string or slice adds its contents).
var wireBytes = [...]int{leaf8: 1, leaf16: 2, leaf32: 4, leaf64: 8, leafString: 4, leafSlice: 4, leafIndex: 4, leafGen: 4}

// typeFingerprint digests a description of t: its name, kind and size,
// and through structs, arrays and slices every field's name and type, so
// that two builds whose types differ in any of these give different
// fingerprints (FNV-1a, 64 bits).
func typeFingerprint(t reflect.Type) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range describeType(nil, t, nil) {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func describeType(b []byte, t reflect.Type, seen []reflect.Type) []byte {
	b = fmt.Appendf(b, "%s:%s:%d", t.String(), t.Kind(), t.Size())
	switch t.Kind() {
	case reflect.Array:
		b = fmt.Appendf(b, "[%d]", t.Len())
		b = describeType(b, t.Elem(), seen)
	case reflect.Slice:
		b = append(b, "[]"...)
		b = describeType(b, t.Elem(), seen)
	case reflect.Struct:
		if slices.Contains(seen, t) {
			return b
		}
		seen = append(seen, t)
		b = append(b, '{')
		for i := range t.NumField() {
			f := t.Field(i)
			b = append(b, f.Name...)
			b = append(b, ' ')
			b = describeType(b, f.Type, seen)
			b = append(b, ';')
		}
		b = append(b, '}')
	}
	return b
}

// appendWire appends the value at p, of l's type, to b in a snapshot's
// binary form: each leaf in declaration order, little-endian at its own
// width; an Entity as its index and generation (its pending-spawn
// reference follows as a 32-bit leaf); a string as its length (32 bits)
// and bytes; a slice as 0 when nil, else its length plus one (32 bits),
// then its elements. l must have no error.
func (l *layout) appendWire(b []byte, p unsafe.Pointer) []byte {
	for i := range l.named {
		f := &l.named[i]
		q := unsafe.Add(p, f.off)
		switch f.kind {
		case leaf8:
			b = append(b, *(*uint8)(q))
		case leaf16:
			b = binio.AppendU16(b, *(*uint16)(q))
		case leaf32:
			b = binio.AppendU32(b, *(*uint32)(q))
		case leaf64:
			b = binio.AppendU64(b, *(*uint64)(q))
		case leafIndex:
			b = binio.AppendU32(b, (*arche.Entity)(q).ID())
		case leafGen:
			b = binio.AppendU32(b, (*arche.Entity)(q).Generation())
		case leafString:
			s := *(*string)(q)
			b = binio.AppendU32(b, uint32(len(s)))
			b = append(b, s...)
		case leafSlice:
			h := (*sliceHeader)(q)
			if h.data == nil {
				b = binio.AppendU32(b, 0)
				continue
			}
			b = binio.AppendU32(b, uint32(h.len)+1)
			for k := range h.len {
				b = f.elem.appendWire(b, unsafe.Add(h.data, uintptr(k)*f.elem.size))
			}
		}
	}
	return b
}

// decodeWire reads a value of l's type in the binary form of appendWire
// from d into the value at p, which must be zero. A bool other than 0 or
// 1, an Entity that the decoded entity pool cannot hold and a string or
// slice longer than what is left of the input fail d; a slice's array
// takes at most its elements' size over their least wire size times what
// is left (both are fixed by the type), so what a decode allocates is
// bounded by its input. Slices are made with reflect and set through a
// reflect.Value of their own type, so the garbage collector sees every
// pointer written.
func (l *layout) decodeWire(d *wireDecoder, p unsafe.Pointer) {
	for i := 0; i < len(l.named) && d.Err() == nil; i++ {
		f := &l.named[i]
		q := unsafe.Add(p, f.off)
		switch f.kind {
		case leaf8:
			v := d.Byte()
			if f.boolean && v > 1 {
				d.Failf("%s is a bool holding %d, allowed 0 or 1", f.name, v)
			}
			*(*uint8)(q) = v
		case leaf16:
			*(*uint16)(q) = d.U16()
		case leaf32:
			*(*uint32)(q) = d.U32()
		case leaf64:
			*(*uint64)(q) = d.U64()
		case leafIndex:
			id := d.U32()
			i++ // the generation, next in every layout
			*(*arche.Entity)(q) = d.entity(id, d.U32(), f.name)
		case leafString:
			n := d.U32()
			*(*string)(q) = string(d.Bytes(int(n)))
		case leafSlice:
			n := d.U32()
			if n == 0 {
				continue
			}
			n--
			least := max(f.elem.wireMin, 1)
			if uint64(n)*uint64(least) > uint64(d.Left()) {
				d.Failf("%s is a slice of %d elements, more than the %d bytes left could hold", f.name, n, d.Left())
				return
			}
			nv := reflect.MakeSlice(f.typ, int(n), int(n))
			reflect.NewAt(f.typ, q).Elem().Set(nv)
			base := nv.UnsafePointer()
			for k := 0; k < int(n) && d.Err() == nil; k++ {
				f.elem.decodeWire(d, unsafe.Add(base, uintptr(k)*f.elem.size))
			}
		}
	}
}

// appendWireOf is appendWire for *v, of type T.
func appendWireOf[T any](l *layout, b []byte, v *T) []byte { return l.appendWire(b, unsafe.Pointer(v)) }

// decodeWireOf is decodeWire into *v, of type T, which it zeroes first.
func decodeWireOf[T any](l *layout, d *wireDecoder, v *T) {
	var zero T
	*v = zero
	l.decodeWire(d, unsafe.Pointer(v))
}

// ComponentTypes returns every component type the world has registered,
// in registration order, presentation-only ones included (see
// [ComponentType.PresentationOnly]).
func (w *World) ComponentTypes() []ComponentType {
	ids := arche.ComponentIDs(&w.w)
	out := make([]ComponentType, 0, len(ids))
	for _, id := range ids {
		if info, ok := arche.ComponentInfo(&w.w, id); ok {
			out = append(out, ComponentType{info.Type})
		}
	}
	return out
}

// Type returns the Go type of the component.
func (c ComponentType) Type() reflect.Type { return c.t }

// PresentationOnly reports whether the type is drawn but not simulated
// (sprites, text, [PresentationOnly] types): the world hash and snapshots
// leave it out.
func (c ComponentType) PresentationOnly() bool {
	return c.t != nil && c.t.Implements(reflect.TypeFor[presentational]())
}

// idOf returns the Arche ID of t without registering it.
func (w *World) idOf(t ComponentType) (arche.ID, bool) {
	for _, id := range arche.ComponentIDs(&w.w) {
		if info, ok := arche.ComponentInfo(&w.w, id); ok && info.Type == t.t {
			return id, true
		}
	}
	return arche.ID{}, false
}

// Component returns a copy of e's component of type t, as a reflect.Value
// of t, and whether e is alive and has one. The copy shares the slices
// the component holds: read it, do not change it.
func (w *World) Component(e Entity, t ComponentType) (reflect.Value, bool) {
	if !w.Alive(e) {
		return reflect.Value{}, false
	}
	id, ok := w.idOf(t)
	if !ok || !w.w.Has(e.e, id) {
		return reflect.Value{}, false
	}
	v := reflect.New(t.t).Elem()
	v.Set(reflect.NewAt(t.t, w.w.Get(e.e, id)).Elem())
	return v, true
}

// Arche's entity pool, read and written for snapshots by pooldump.go.

// poolLayout holds the offsets of Arche's entity pool in its World.
type poolLayout struct {
	pool, entities, next, available uintptr
	ok                              bool
}

var archePool = findPoolLayout()

// findPoolLayout finds World.entityPool{entities []Entity; next, available
// uint32} by reflection, or reports it absent.
func findPoolLayout() poolLayout {
	var l poolLayout
	pf, ok := reflect.TypeFor[arche.World]().FieldByName("entityPool")
	if !ok || pf.Type.Kind() != reflect.Struct {
		return l
	}
	ent, ok1 := pf.Type.FieldByName("entities")
	next, ok2 := pf.Type.FieldByName("next")
	avail, ok3 := pf.Type.FieldByName("available")
	if !ok1 || !ok2 || !ok3 ||
		ent.Type != reflect.TypeFor[[]arche.Entity]() ||
		next.Type.Kind() != reflect.Uint32 || avail.Type.Kind() != reflect.Uint32 {
		return l
	}
	return poolLayout{pool: pf.Offset, entities: ent.Offset, next: next.Offset, available: avail.Offset, ok: true}
}

// poolFields points at the fields of one world's entity pool: its
// entities (Arche's own slice), the head of its free list and the number
// free. A restore writes the entities' elements and the two counts, never
// the slice itself, so Arche's storage stays Arche's.
type poolFields struct {
	entities        *[]arche.Entity
	next, available *uint32
}

// at returns the fields of aw's pool.
func (l *poolLayout) at(aw *arche.World) poolFields {
	p := unsafe.Add(unsafe.Pointer(aw), l.pool)
	return poolFields{
		entities:  (*[]arche.Entity)(unsafe.Add(p, l.entities)),
		next:      (*uint32)(unsafe.Add(p, l.next)),
		available: (*uint32)(unsafe.Add(p, l.available)),
	}
}

// archeEntity reports whether Arche's Entity is {id, gen uint32}, the
// layout makeEntity writes, checked by reflection once.
var archeEntity = func() bool {
	t := reflect.TypeFor[arche.Entity]()
	if t.NumField() != 2 || t.Size() != 8 {
		return false
	}
	id, gen := t.Field(0), t.Field(1)
	return id.Name == "id" && id.Type.Kind() == reflect.Uint32 && id.Offset == 0 &&
		gen.Name == "gen" && gen.Type.Kind() == reflect.Uint32 && gen.Offset == 4
}()

// entityOf is the Arche entity of index id and generation gen, written
// field by field; only where archeEntity holds.
func entityOf(id, gen uint32) arche.Entity {
	parts := [2]uint32{id, gen}
	return *(*arche.Entity)(unsafe.Pointer(&parts))
}
