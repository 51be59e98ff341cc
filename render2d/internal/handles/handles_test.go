package handles_test

import (
	"testing"

	"github.com/metronome-go/metronome/render2d/internal/handles"
)

func TestTableGenerations(t *testing.T) {
	var tab handles.Table[string]
	id1, gen1 := tab.Add("a")
	if id1 == 0 || gen1 == 0 {
		t.Fatalf("Add returned id %d gen %d, want both non-zero", id1, gen1)
	}
	if got := tab.Get(id1, gen1); got == nil || *got != "a" {
		t.Fatalf("Get(%d, %d) = %v, want a", id1, gen1, got)
	}
	if _, ok := tab.Remove(id1, gen1); !ok {
		t.Fatal("Remove of a live entry reported not live")
	}
	if _, ok := tab.Remove(id1, gen1); ok {
		t.Fatal("second Remove reported live, want stale")
	}
	id2, gen2 := tab.Add("b")
	if id2 != id1 || gen2 == gen1 {
		t.Fatalf("reuse: got id %d gen %d, want id %d with a generation other than %d", id2, gen2, id1, gen1)
	}
	if got := tab.Get(id1, gen1); got != nil {
		t.Fatalf("stale Get = %q, want nil", *got)
	}
	for _, c := range []struct{ id, gen uint32 }{{0, 0}, {0, 1}, {99, 1}} {
		if got := tab.Get(c.id, c.gen); got != nil {
			t.Errorf("Get(%d, %d) = %q, want nil", c.id, c.gen, *got)
		}
	}
	if got, want := tab.Len(), 1; got != want {
		t.Errorf("Len = %d, want %d", got, want)
	}
}
