package ecs_test

import (
	"strconv"
	"testing"

	"github.com/metronome-go/metronome/ecs"
)

// Layouts that exercise every way the hash reads a value: an Entity after
// a float (its index may pair with the float), inside an array and inside
// a slice's elements, strings, 8, 16 and 64-bit fields, complex numbers
// and blank padding.
type (
	goldenLink struct {
		A    float32
		To   ecs.Entity
		B    float32
		Near [2]ecs.Entity
	}
	goldenMixed struct {
		Flag  bool
		Small int16
		_     int16
		Name  string
		Big   int64
		Z     complex64
		Links []goldenLink
	}
	goldenState struct {
		Level int
		Mode  string
	}
)

// TestWorldHashGolden pins the hash of a fixed world: recordings store
// these values at their checkpoints, so a change to how values are read
// (not only to what is hashed) invalidates every recording made before.
func TestWorldHashGolden(t *testing.T) {
	a, err := ecs.NewApp(ecs.Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	s := ecs.AddStates(a, goldenState{Level: 1, Mode: "menu"})
	w := a.World()
	cmd := w.Commands()
	first := cmd.Spawn()
	ecs.With(first, ecs.At(1, 2))
	second := cmd.Spawn()
	ecs.With(second, goldenLink{A: 1.5, To: first.Entity(), B: -2, Near: [2]ecs.Entity{first.Entity(), {}}})
	ecs.With(second, goldenMixed{Flag: true, Small: -3, Name: "golden", Big: 1 << 40, Z: complex(1, -1),
		Links: []goldenLink{{A: 3, To: second.Entity()}, {B: 4}}})
	w.Apply()
	s.Set(goldenState{Level: 2, Mode: "play"})
	h, err := a.Hash()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{}
	for _, p := range h.Types {
		want[p.Name] = p.Hash
	}
	if strconv.IntSize != 64 {
		t.Skip("the golden values are those of a 64-bit int")
	}
	for name, v := range goldenHashes {
		if got := want[name]; got != v {
			t.Errorf("%s: got %#x, want %#x", name, got, v)
		}
	}
	if h.Total != goldenTotal {
		t.Errorf("total: got %#x, want %#x", h.Total, goldenTotal)
	}
}

// The values on a 64-bit int.
var goldenHashes = map[string]uint64{
	"ecs.Transform":                   0x14573e34d7b9d2a9,
	"ecs.entities":                    0x5379190294f5bca3,
	"ecs.states ecs_test.goldenState": 0x1af3ef1cfa930c38,
	"ecs_test.goldenLink":             0x8f9f922f4c14d686,
	"ecs_test.goldenMixed":            0x27766b43b09c0129,
}

const goldenTotal = 0x1e2c16b38d38f66d
