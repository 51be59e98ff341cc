package ecs_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
)

type position struct{ X, Y float32 }
type velocity struct{ X, Y float32 }
type health struct{ HP int }

func spawnPV(w *ecs.World, n int) []ecs.Entity {
	cmd := w.Commands()
	for i := range n {
		p := cmd.Spawn()
		ecs.With(p, position{X: float32(i)})
		ecs.With(p, velocity{X: 1, Y: 2})
	}
	w.Apply()
	var out []ecs.Entity
	q := ecs.NewFilter2[position, velocity](w).Query()
	for q.Next() {
		out = append(out, q.Entity())
	}
	return out
}

func TestCommandsSpawnWithComponents(t *testing.T) {
	w := ecs.NewWorld()
	es := spawnPV(w, 3)
	if got, want := len(es), 3; got != want {
		t.Fatalf("spawned entities: got %d, want %d", got, want)
	}
	pos := ecs.NewMap[position](w)
	for i, e := range es {
		if got, want := *pos.Get(e), (position{X: float32(i)}); got != want {
			t.Errorf("entity %d position: got %+v, want %+v", i, got, want)
		}
	}
	st := w.Commands().Stats()
	if got, want := st.Spawned, uint64(3); got != want {
		t.Errorf("Spawned: got %d, want %d", got, want)
	}
}

func TestCommandsSpawnSameTypeTwiceKeepsLast(t *testing.T) {
	w := ecs.NewWorld()
	p := w.Commands().Spawn()
	ecs.With(p, health{1})
	ecs.With(p, health{7})
	w.Apply()
	q := ecs.NewFilter1[health](w).Query()
	n := 0
	for q.Next() {
		n++
		if got, want := q.Get().HP, 7; got != want {
			t.Errorf("HP: got %d, want %d", got, want)
		}
	}
	if n != 1 {
		t.Errorf("entities: got %d, want 1", n)
	}
}

func TestCommandsDuringQueryAreDeferred(t *testing.T) {
	w := ecs.NewWorld()
	spawnPV(w, 4)
	cmd := w.Commands()
	q := ecs.NewFilter2[position, velocity](w).Query()
	for q.Next() {
		e := q.Entity()
		if !w.Locked() {
			t.Fatal("world not locked during iteration")
		}
		// Every kind of structural change while the world is locked, including
		// a component type the world has never seen.
		ecs.Add(cmd, e, health{HP: 10})
		ecs.Remove[velocity](cmd, e)
		ecs.Set(cmd, e, position{X: 99})
		ecs.With(cmd.Spawn(), position{X: -1})
	}
	if got, want := cmd.Len(), 16; got != want {
		t.Fatalf("queued: got %d, want %d", got, want)
	}
	w.Apply()
	if got, want := ecs.NewFilter2[position, health](w).Count(), 4; got != want {
		t.Errorf("entities with position and health: got %d, want %d", got, want)
	}
	if got, want := ecs.NewFilter1[velocity](w).Count(), 0; got != want {
		t.Errorf("entities with velocity: got %d, want %d", got, want)
	}
	if got, want := ecs.NewFilter1[position](w).Count(), 8; got != want {
		t.Errorf("entities with position: got %d, want %d", got, want)
	}
	if got := cmd.Stats().Failed(); got != 0 {
		t.Errorf("failed operations: got %d, want 0", got)
	}
}

func TestCommandsReportInsteadOfPanicking(t *testing.T) {
	tests := []struct {
		name    string
		queue   func(cmd *ecs.Commands, live, dead ecs.Entity)
		stat    func(ecs.CommandStats) uint64
		wantMsg string
	}{
		{"despawn dead", func(c *ecs.Commands, _, d ecs.Entity) { c.Despawn(d) },
			func(s ecs.CommandStats) uint64 { return s.DeadEntity }, "ecs: despawn on entity"},
		{"despawn zero", func(c *ecs.Commands, _, _ ecs.Entity) { c.Despawn(ecs.Entity{}) },
			func(s ecs.CommandStats) uint64 { return s.DeadEntity }, "ecs: despawn: entity is dead"},
		{"add to dead", func(c *ecs.Commands, _, d ecs.Entity) { ecs.Add(c, d, health{}) },
			func(s ecs.CommandStats) uint64 { return s.DeadEntity }, "ecs: add ecs_test.health on entity"},
		{"set on dead", func(c *ecs.Commands, _, d ecs.Entity) { ecs.Set(c, d, position{}) },
			func(s ecs.CommandStats) uint64 { return s.DeadEntity }, "entity is dead"},
		{"remove from dead", func(c *ecs.Commands, _, d ecs.Entity) { ecs.Remove[position](c, d) },
			func(s ecs.CommandStats) uint64 { return s.DeadEntity }, "entity is dead"},
		{"set missing", func(c *ecs.Commands, l, _ ecs.Entity) { ecs.Set(c, l, health{}) },
			func(s ecs.CommandStats) uint64 { return s.MissingComponent }, "ecs: set ecs_test.health on entity"},
		{"remove missing", func(c *ecs.Commands, l, _ ecs.Entity) { ecs.Remove[health](c, l) },
			func(s ecs.CommandStats) uint64 { return s.MissingComponent }, "component is missing"},
		{"despawn twice", func(c *ecs.Commands, l, _ ecs.Entity) { c.Despawn(l); c.Despawn(l) },
			func(s ecs.CommandStats) uint64 { return s.DeadEntity }, "entity is dead"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := ecs.NewWorld()
			es := spawnPV(w, 2)
			live, dead := es[0], es[1]
			cmd := w.Commands()
			cmd.Despawn(dead)
			w.Apply()
			var errs []ecs.CommandError
			cmd.OnError(func(e ecs.CommandError) { errs = append(errs, e) })
			before := tt.stat(cmd.Stats())
			tt.queue(cmd, live, dead)
			w.Apply()
			if got, want := tt.stat(cmd.Stats())-before, uint64(1); got != want {
				t.Errorf("counter: got %d, want %d", got, want)
			}
			if len(errs) != 1 {
				t.Fatalf("reported errors: got %d, want 1", len(errs))
			}
			if got := errs[0].Error(); !strings.Contains(got, tt.wantMsg) {
				t.Errorf("error: got %q, want it to contain %q", got, tt.wantMsg)
			}
		})
	}
}

func TestCommandsAddReplacesExistingValue(t *testing.T) {
	w := ecs.NewWorld()
	e := spawnPV(w, 1)[0]
	ecs.Add(w.Commands(), e, position{X: 5, Y: 6})
	w.Apply()
	m := ecs.NewMap[position](w)
	if got, want := *m.Get(e), (position{5, 6}); got != want {
		t.Errorf("position: got %+v, want %+v", got, want)
	}
}

func TestCommandsApplyInQueueOrder(t *testing.T) {
	w := ecs.NewWorld()
	e := spawnPV(w, 1)[0]
	cmd := w.Commands()
	ecs.Add(cmd, e, health{1})
	ecs.Set(cmd, e, health{2})
	ecs.Remove[health](cmd, e)
	ecs.Add(cmd, e, health{3})
	w.Apply()
	m := ecs.NewMap[health](w)
	if got := m.Get(e); got == nil || got.HP != 3 {
		t.Errorf("health after add, set, remove, add: got %v, want HP 3", got)
	}
	cmd.Despawn(e)
	ecs.Set(cmd, e, health{4})
	w.Apply()
	if got, want := cmd.Stats().DeadEntity, uint64(1); got != want {
		t.Errorf("set after despawn in the same batch: DeadEntity got %d, want %d", got, want)
	}
}

func TestStalePendingIsReported(t *testing.T) {
	w := ecs.NewWorld()
	cmd := w.Commands()
	p := cmd.Spawn()
	w.Apply()
	ecs.With(p, health{1})
	w.Apply()
	if got, want := cmd.Stats().StalePending, uint64(1); got != want {
		t.Errorf("StalePending: got %d, want %d", got, want)
	}
	if got, want := ecs.NewFilter1[health](w).Count(), 0; got != want {
		t.Errorf("entities with health: got %d, want %d", got, want)
	}
}

func TestMapOnDeadEntity(t *testing.T) {
	w := ecs.NewWorld()
	es := spawnPV(w, 2)
	w.Commands().Despawn(es[0])
	w.Apply()
	// Recycle the slot so a stale handle would alias a live entity.
	ecs.With(w.Commands().Spawn(), position{X: 42})
	w.Apply()
	m := ecs.NewMap[position](w)
	if got := m.Get(es[0]); got != nil {
		t.Errorf("Get on dead entity: got %+v, want nil", *got)
	}
	if m.Has(es[0]) || w.Alive(es[0]) {
		t.Error("dead entity reported alive")
	}
	if m.Get(ecs.Entity{}) != nil {
		t.Error("Get on zero entity: want nil")
	}
	h := ecs.NewMap[health](w)
	if h.Get(es[1]) != nil {
		t.Error("Get of a missing component: want nil")
	}
}

func TestLeakedQueryIsClosedAtSyncPoint(t *testing.T) {
	w := ecs.NewWorld()
	spawnPV(w, 3)
	f := ecs.NewFilter1[position](w)
	q := f.Query()
	q.Next() // leave the loop early without Close
	ecs.Add(w.Commands(), q.Entity(), health{})
	if got, want := w.Apply(), 1; got != want {
		t.Fatalf("leaked queries closed: got %d, want %d", got, want)
	}
	if w.Locked() {
		t.Fatal("world still locked after Apply")
	}
	if got, want := ecs.NewFilter1[health](w).Count(), 1; got != want {
		t.Errorf("entities with health: got %d, want %d", got, want)
	}
}

func TestNestedQueriesOfOneFilter(t *testing.T) {
	w := ecs.NewWorld()
	spawnPV(w, 3)
	f := ecs.NewFilter1[position](w)
	pairs := 0
	outer := f.Query()
	for outer.Next() {
		inner := f.Query()
		for inner.Next() {
			pairs++
		}
	}
	if got, want := pairs, 9; got != want {
		t.Errorf("pairs: got %d, want %d", got, want)
	}
	if w.Locked() {
		t.Error("world locked after both loops finished")
	}
}

func TestFilterWithWithout(t *testing.T) {
	w := ecs.NewWorld()
	es := spawnPV(w, 4)
	ecs.Add(w.Commands(), es[0], health{})
	ecs.Add(w.Commands(), es[1], health{})
	w.Apply()
	with := ecs.NewFilter1[position](w).With(ecs.TypeOf[health]())
	without := ecs.NewFilter1[position](w).Without(ecs.TypeOf[health]())
	if got, want := with.Count(), 2; got != want {
		t.Errorf("With(health): got %d, want %d", got, want)
	}
	if got, want := without.Count(), 2; got != want {
		t.Errorf("Without(health): got %d, want %d", got, want)
	}
}

func TestResources(t *testing.T) {
	w := ecs.NewWorld()
	if ecs.GetResource[health](w) != nil {
		t.Fatal("missing resource: want nil")
	}
	ecs.AddResource(w, &health{3})
	ecs.AddResource(w, &health{4})
	r := ecs.NewResource[health](w)
	if got, want := r.Get().HP, 4; got != want {
		t.Errorf("resource: got %d, want %d", got, want)
	}
}

type neverSpawned struct{}

func TestFilterMadeAtSetupWorksInsideALockedWorld(t *testing.T) {
	w := ecs.NewWorld()
	spawnPV(w, 2)
	// Neither type has been seen by the world yet; Arche would refuse to
	// register them while the outer query below holds the world locked.
	late := ecs.NewFilter1[health](w).Without(ecs.TypeOf[neverSpawned]())
	outer := ecs.NewFilter1[position](w).Query()
	visits := 0
	for outer.Next() {
		visits++
		if got := late.Count(); got != 0 {
			t.Errorf("late.Count: got %d, want 0", got)
		}
		q := late.Query()
		for q.Next() {
			t.Error("late filter matched an entity")
		}
	}
	if visits != 2 {
		t.Errorf("outer visits: got %d, want 2", visits)
	}
}

func TestCommandsResolve(t *testing.T) {
	w := ecs.NewWorld()
	cmd := w.Commands()
	a := cmd.Spawn()
	ecs.With(a, health{1})
	b := cmd.Spawn()
	ecs.With(b, health{2})
	if _, ok := cmd.Resolve(a); ok {
		t.Fatal("Resolve before the sync point: got ok")
	}
	w.Apply()
	m := ecs.NewMap[health](w)
	for _, c := range []struct {
		p    ecs.Pending
		want int
	}{{a, 1}, {b, 2}} {
		e, ok := cmd.Resolve(c.p)
		if !ok || m.Get(e) == nil || m.Get(e).HP != c.want {
			t.Errorf("Resolve: got %v (ok %v), want the entity with HP %d", e, ok, c.want)
		}
	}
	w.Apply() // nothing queued: the record stays
	if _, ok := cmd.Resolve(a); !ok {
		t.Error("Resolve after an empty sync point: got false")
	}
	cmd.Despawn(ecs.Entity{})
	w.Apply()
	if _, ok := cmd.Resolve(a); ok {
		t.Error("Resolve after the next batch: got ok")
	}
	other := ecs.NewWorld()
	if _, ok := other.Commands().Resolve(b); ok {
		t.Error("Resolve on another world's commands: got ok")
	}
}

type c3 struct{ V int }
type c4 struct{ V int }
type marker struct{}

// TestFilterArities runs every filter arity through the same checks:
// counts with With and Without, iteration, early Close, and a sync point
// that finds nothing left open.
func TestFilterArities(t *testing.T) {
	w := ecs.NewWorld()
	for i := range 6 {
		p := w.Commands().Spawn()
		ecs.With(p, position{X: float32(i)})
		ecs.With(p, velocity{})
		ecs.With(p, c3{i})
		ecs.With(p, c4{i})
		if i%2 == 0 {
			ecs.With(p, marker{})
		}
	}
	w.Apply()
	type result struct{ all, with, without, iterated, sum int }
	check := func(name string, all, with, without int, iterate func() (n, sum int), early func()) {
		t.Helper()
		n, sum := iterate()
		got := result{all, with, without, n, sum}
		want := result{6, 3, 3, 6, 15}
		if got != want {
			t.Errorf("%s: got %+v, want %+v", name, got, want)
		}
		early()
		if left := w.Apply(); left != 0 || w.Locked() {
			t.Errorf("%s: queries left open after Close: %d", name, left)
		}
	}
	m := ecs.TypeOf[marker]()
	f1 := ecs.NewFilter1[c3](w)
	check("Filter1", f1.Count(), ecs.NewFilter1[c3](w).With(m).Count(), ecs.NewFilter1[c3](w).Without(m).Count(),
		func() (n, sum int) {
			q := f1.Query()
			for q.Next() {
				n, sum = n+1, sum+q.Get().V
				_ = q.Entity()
			}
			return
		}, func() { q := f1.Query(); q.Next(); q.Close(); q.Close() })
	f2 := ecs.NewFilter2[position, c3](w)
	check("Filter2", f2.Count(), ecs.NewFilter2[position, c3](w).With(m).Count(), ecs.NewFilter2[position, c3](w).Without(m).Count(),
		func() (n, sum int) {
			q := f2.Query()
			for q.Next() {
				_, c := q.Get()
				n, sum = n+1, sum+c.V
			}
			return
		}, func() { q := f2.Query(); q.Next(); q.Close(); q.Close() })
	f3 := ecs.NewFilter3[position, velocity, c3](w)
	check("Filter3", f3.Count(), ecs.NewFilter3[position, velocity, c3](w).With(m).Count(), ecs.NewFilter3[position, velocity, c3](w).Without(m).Count(),
		func() (n, sum int) {
			q := f3.Query()
			if q.Count() != 6 {
				t.Errorf("Query3.Count: got %d, want 6", q.Count())
			}
			for q.Next() {
				_, _, c := q.Get()
				n, sum = n+1, sum+c.V
				_ = q.Entity()
			}
			return
		}, func() { q := f3.Query(); q.Next(); q.Close(); q.Close() })
	f4 := ecs.NewFilter4[position, velocity, c3, c4](w)
	check("Filter4", f4.Count(), ecs.NewFilter4[position, velocity, c3, c4](w).With(m).Count(), ecs.NewFilter4[position, velocity, c3, c4](w).Without(m).Count(),
		func() (n, sum int) {
			q := f4.Query()
			if q.Count() != 6 {
				t.Errorf("Query4.Count: got %d, want 6", q.Count())
			}
			for q.Next() {
				_, _, _, c := q.Get()
				n, sum = n+1, sum+c.V
				_ = q.Entity()
			}
			return
		}, func() { q := f4.Query(); q.Next(); q.Close(); q.Close() })
}

func TestCommandsQueuedByTheErrorHandlerApplyInTheSameBatch(t *testing.T) {
	w := ecs.NewWorld()
	cmd := w.Commands()
	cmd.OnError(func(ecs.CommandError) { ecs.With(cmd.Spawn(), health{9}) })
	cmd.Despawn(ecs.Entity{})
	w.Apply()
	if got, want := ecs.NewFilter1[health](w).Count(), 1; got != want {
		t.Errorf("entities spawned by the handler: got %d, want %d", got, want)
	}
	if got := cmd.Len(); got != 0 {
		t.Errorf("queued after Apply: got %d, want 0", got)
	}
}
