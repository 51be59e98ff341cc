package ecs

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

type (
	layoutInner struct {
		N  int32
		To Entity
	}
	layoutOuter struct {
		A     float32
		First Entity
		Pair  [2]layoutInner
		List  []layoutInner // references in slices are not patched
	}
	layoutPointer struct {
		To Entity
		P  *int
	}
	layoutHUD struct {
		PresentationOnly
		Margin float32
	}
)

// TestLayoutFacts: the one walk over a type says where its entities are,
// whether it can be read as plain data (and why not), whether a copy must
// go deep, and which types are state.
func TestLayoutFacts(t *testing.T) {
	w := NewWorld()
	ExcludeFromHash[layoutInner](w)
	tests := []struct {
		name    string
		ct      ComponentType
		refs    []uintptr
		deep    bool
		errHas  string
		isState bool
	}{
		{"entity among floats", TypeOf[layoutOuter](), []uintptr{4, 16 + 4, 16 + 16 + 4}, true, "", true},
		{"excluded", TypeOf[layoutInner](), []uintptr{4}, false, "", false},
		{"pointer after an entity", TypeOf[layoutPointer](), []uintptr{0}, false, "ecs.layoutPointer.P is a pointer", true},
		{"presentation", TypeOf[layoutHUD](), nil, false, "", false},
		{"built-in presentation", TypeOf[Sprite](), nil, false, "", false},
		{"marker", TypeOf[Unhashed](), nil, false, "", false},
		{"transform", TypeOf[Transform](), nil, false, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := w.layoutOf(tt.ct)
			if !slices.Equal(l.refs, tt.refs) {
				t.Errorf("refs: got %v, want %v", l.refs, tt.refs)
			}
			if l.deep != tt.deep {
				t.Errorf("deep: got %v, want %v", l.deep, tt.deep)
			}
			if tt.errHas == "" && l.err != nil || tt.errHas != "" && (l.err == nil || !strings.Contains(l.err.Error(), tt.errHas)) {
				t.Errorf("err: got %v, want one containing %q", l.err, tt.errHas)
			}
			if got := w.isState(tt.ct); got != tt.isState {
				t.Errorf("isState: got %v, want %v", got, tt.isState)
			}
		})
	}
}

// refWord is one leaf of a value as the safe reference reads it.
type refWord struct {
	pos  uintptr
	w32  bool // a 32-bit leaf, which may pair with the next
	bits uint64
	str  *string
	list *reflect.Value
}

// refWords reads v, at offset off, leaf by leaf with reflect.Value only:
// the safe path the layout's memory reads must agree with.
func refWords(dst []refWord, v reflect.Value, off uintptr) []refWord {
	w32 := func(pos uintptr, b uint32) { dst = append(dst, refWord{pos: pos, w32: true, bits: uint64(b)}) }
	w := func(b uint64) { dst = append(dst, refWord{pos: off, bits: b}) }
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			w(1)
		} else {
			w(0)
		}
	case reflect.Int8:
		w(uint64(uint8(v.Int())))
	case reflect.Int16:
		w(uint64(uint16(v.Int())))
	case reflect.Int64, reflect.Int:
		w(uint64(v.Int()))
	case reflect.Uint8, reflect.Uint16, reflect.Uint64:
		w(v.Uint())
	case reflect.Int32:
		w32(off, uint32(v.Int()))
	case reflect.Uint32:
		w32(off, uint32(v.Uint()))
	case reflect.Float32:
		w32(off, math.Float32bits(float32(v.Float())))
	case reflect.Float64:
		w(math.Float64bits(v.Float()))
	case reflect.Complex64:
		c := complex64(v.Complex())
		w32(off, math.Float32bits(real(c)))
		w32(off+4, math.Float32bits(imag(c)))
	case reflect.String:
		s := v.String()
		dst = append(dst, refWord{pos: off, str: &s})
	case reflect.Array:
		for i := range v.Len() {
			dst = refWords(dst, v.Index(i), off+uintptr(i)*v.Type().Elem().Size())
		}
	case reflect.Slice:
		dst = append(dst, refWord{pos: off, list: &v})
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[Entity]() {
			e := v.Interface().(Entity)
			w32(off, e.ID())
			w32(off+4, e.Generation())
			w32(off+8, e.ref)
			return dst
		}
		for i := range v.NumField() {
			if v.Type().Field(i).Name != "_" {
				dst = refWords(dst, v.Field(i), off+v.Type().Field(i).Offset)
			}
		}
	default:
		panic("refWords: no case for " + v.Kind().String())
	}
	return dst
}

// refHash hashes v as the layout does, pairing 32-bit leaves 4 apart.
func refHash(h uint64, v reflect.Value) uint64 {
	ws := refWords(nil, v, 0)
	for i := 0; i < len(ws); i++ {
		x := ws[i]
		switch {
		case x.w32 && i+1 < len(ws) && ws[i+1].w32 && ws[i+1].pos == x.pos+4:
			h = mix(h, x.bits|ws[i+1].bits<<32)
			i++
		case x.str != nil:
			h = hashString(h, *x.str)
		case x.list != nil:
			h = mix(h, uint64(x.list.Len()))
			for k := range x.list.Len() {
				h = refHash(h, x.list.Index(k))
			}
		default:
			h = mix(h, x.bits)
		}
	}
	return h
}

type layoutMixed struct {
	B     bool
	I8    int8
	U16   uint16
	_     int16
	F     float32
	Self  Entity
	N     int
	Z     complex64
	S     string
	Arr   [3]Entity
	U8    uint8
	List  []layoutOuter
	Tr    Transform
	Tail  int32
	Wide  float64
	Short int16
}

// TestLayoutHashMatchesReflect: the layout's reads from memory give the
// hash that reading the same values through reflect.Value gives, for
// random values of a type with a leaf of every kind.
func TestLayoutHashMatchesReflect(t *testing.T) {
	w := NewWorld()
	l := w.layoutOf(TypeOf[layoutMixed]())
	if l.err != nil {
		t.Fatal(l.err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ent := func() Entity {
		if rng.IntN(3) == 0 {
			return Entity{ref: rng.Uint32()}
		}
		return Entity{e: w.w.NewEntity()}
	}
	for i := range 200 {
		v := layoutMixed{
			B: rng.IntN(2) == 0, I8: int8(rng.Int()), U16: uint16(rng.Int()), F: rng.Float32() - 0.5,
			Self: ent(), N: rng.Int() - rng.Int(), Z: complex(rng.Float32(), -rng.Float32()),
			S: strings.Repeat("ab", rng.IntN(9)), Arr: [3]Entity{ent(), ent(), {}}, U8: uint8(rng.Int()),
			Tail: int32(rng.Int()), Wide: rng.NormFloat64(), Short: -int16(rng.IntN(100)),
		}
		v.Tr = At(rng.Float32(), -rng.Float32())
		if rng.IntN(2) == 0 {
			v.Tr.Teleport()
		}
		for range rng.IntN(3) {
			v.List = append(v.List, layoutOuter{A: rng.Float32(), First: ent(), List: make([]layoutInner, rng.IntN(2))})
		}
		seed := rng.Uint64()
		if got, want := hashValue(l, seed, &v), refHash(seed, reflect.ValueOf(v)); got != want {
			t.Fatalf("value %d %+v: layout hash %#x, reflect hash %#x", i, v, got, want)
		}
	}
}

// BenchmarkLayoutCompile is the one-time cost of meeting a type: the
// reflect walk that builds its layout.
func BenchmarkLayoutCompile(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		w := &World{}
		w.layoutOf(TypeOf[layoutMixed]())
	}
}

// BenchmarkLayoutHash is the per-value cost of the hash through a layout,
// against the same hash read through reflect.Value (BenchmarkReflectHash),
// the safe way without unsafe.
func BenchmarkLayoutHash(b *testing.B) {
	w := NewWorld()
	l := w.layoutOf(TypeOf[Transform]())
	v := At(1, 2)
	var h uint64
	b.ReportAllocs()
	for b.Loop() {
		h = hashValue(l, h, &v)
	}
}

// BenchmarkReflectHash reads the value through reflect.Value instead, with
// the tests' reference (written to be obviously right, not fast).
func BenchmarkReflectHash(b *testing.B) {
	v := At(1, 2)
	var h uint64
	b.ReportAllocs()
	for b.Loop() {
		h = refHash(h, reflect.ValueOf(&v).Elem())
	}
}
