package ecs_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
)

// points is a game value kept outside the entities.
type points struct{ Points [2]int32 }

// The resource AddStateResource adds is in the world hash, and a
// snapshot's restore brings its value back.
func TestAddStateResourceIsHashedAndRestored(t *testing.T) {
	a := newApp(t, ecs.Options{Seed: 1})
	w := a.World()
	s := ecs.AddStateResource(w, &points{})
	if got := ecs.GetResource[points](w); got != s {
		t.Fatalf("AddStateResource returned %p, the world holds %p", s, got)
	}
	a.AddSystem(ecs.Update, ecs.System{Name: "points", Run: func(ctx *ecs.Sys) { s.Points[0]++ }})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	before, err := a.Hash()
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, th := range before.Types {
		found = found || strings.Contains(th.Name, "ecs_test.points")
	}
	if !found {
		t.Errorf("the hash has no entry for the points: %+v", before.Types)
	}
	var snap ecs.Snapshot
	if err := a.Save(&snap); err != nil {
		t.Fatal(err)
	}
	if err := a.Update(tick(1, 0)); err != nil {
		t.Fatal(err)
	}
	after, _ := a.Hash()
	if s.Points[0] != 1 || after.Total == before.Total {
		t.Fatalf("a point scored: points %v, hash %#x before and %#x after; want 1 and different hashes", s.Points, before.Total, after.Total)
	}
	if err := a.Restore(&snap); err != nil {
		t.Fatal(err)
	}
	again, _ := a.Hash()
	if s.Points[0] != 0 || again.Total != before.Total {
		t.Errorf("after the restore: points %v, hash %#x; want 0 and %#x", s.Points, again.Total, before.Total)
	}
}

// A plain resource is not state: the hash leaves it out.
func TestAddResourceAloneIsNotHashed(t *testing.T) {
	a := newApp(t, ecs.Options{Seed: 1})
	s := &points{}
	ecs.AddResource(a.World(), s)
	before, _ := a.Hash()
	s.Points[1] = 9
	if after, _ := a.Hash(); after.Total != before.Total {
		t.Error("a resource added without AddStateResource changed the hash")
	}
}

func TestTextSetContent(t *testing.T) {
	var text ecs.Text
	if !text.SetContent([]byte("SCORE 1")) || text.Content != "SCORE 1" {
		t.Fatalf("SetContent: %q", text.Content)
	}
	if text.SetContent([]byte("SCORE 1")) {
		t.Error("the same wording reported a change")
	}
	var buf [32]byte
	allocs := testing.AllocsPerRun(100, func() {
		text.SetContent(strconv.AppendInt(append(buf[:0], "SCORE "...), 1, 10))
	})
	if allocs != 0 {
		t.Errorf("an unchanged text allocated %v times", allocs)
	}
}

// A points registered in one line: the hash and the snapshots cover it.
func ExampleAddStateResource() {
	app, err := ecs.NewApp(ecs.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := ecs.AddStateResource(app.World(), &points{})
	h1, _ := app.Hash()
	s.Points[0] = 3
	h2, _ := app.Hash()
	fmt.Println(h1.Total != h2.Total)
	// Output: true
}
