package ecs

import (
	"fmt"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
)

// makeEntity makes the entity Arche's own JSON form gives, and the one
// Arche made, from their index and generation.
func TestMakeEntityMatchesArche(t *testing.T) {
	var scratch []byte
	for _, c := range [][2]uint32{{0, 0}, {1, 0}, {7, 3}, {1 << 20, 1<<32 - 1}, {1<<32 - 1, 1}} {
		got, err := makeEntity(&scratch, c[0], c[1])
		if err != nil {
			t.Fatalf("makeEntity(%d, %d): %v", c[0], c[1], err)
		}
		var want arche.Entity
		if err := want.UnmarshalJSON(fmt.Appendf(nil, "[%d,%d]", c[0], c[1])); err != nil {
			t.Fatal(err)
		}
		if got != want || got.ID() != c[0] || got.Generation() != c[1] {
			t.Errorf("makeEntity(%d, %d) = %v, want %v", c[0], c[1], got, want)
		}
	}
	w := arche.NewWorld()
	a := w.NewEntity()
	w.RemoveEntity(a)
	b := w.NewEntity() // a's index, the next generation
	for _, e := range []arche.Entity{a, b, w.NewEntity()} {
		if got, err := makeEntity(&scratch, e.ID(), e.Generation()); err != nil || got != e {
			t.Errorf("makeEntity(%d, %d) = %v, %v; want Arche's %v", e.ID(), e.Generation(), got, err, e)
		}
	}
}
