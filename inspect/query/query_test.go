package query_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/inspect/query"
)

type Position struct{ X, Y float32 }

type Health struct {
	Value int32
	Armor struct{ Left uint8 }
	Dead  bool
	Name  string
}

// world holds three entities: a healthy one at (10, 500), a dead one at
// (20, 300) and one with a position only, at (412.53333, 450).
func world(t testing.TB) *ecs.World {
	t.Helper()
	a, err := ecs.NewApp(ecs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		p := ctx.Commands.Spawn()
		ecs.With(p, Position{10, 500})
		ecs.With(p, Health{Value: 3})
		p = ctx.Commands.Spawn()
		ecs.With(p, Position{20, 300})
		ecs.With(p, Health{Value: -1, Dead: true})
		ecs.With(ctx.Commands.Spawn(), Position{412.53333, 450})
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	return a.World()
}

func TestEval(t *testing.T) {
	w := world(t)
	for _, tc := range []struct {
		expr string
		want []float32 // the X of each entity that matches
	}{
		{"Position.Y > 400", []float32{10, 412.53333}},
		{"Position.Y > 400 && Health.Value <= 0", nil},
		{"Position.Y < 400 && Health.Value <= 0", []float32{20}},
		{"Health.Dead", []float32{20}},
		{"!Health.Dead && Health.Armor.Left == 0", []float32{10}},
		{"Health.Dead == false || Position.X >= 20", []float32{10, 20}},
		{"!(Position.X < 15 || Position.X > 100)", []float32{20}},
		{"Position.X == 412.53333", []float32{412.53333}},
		{"main_test.Position.X == 10", nil}, // no such package: an error below
		{"query_test.Position.X == 10", []float32{10}},
		{"Health.Value == -1", []float32{20}},
		{"Position.Y>=0x1f4", []float32{10}},
		{"1 < 2", nil},
	} {
		cond, err := query.Prepare(tc.expr, w.ComponentTypes())
		if tc.expr == "main_test.Position.X == 10" {
			if err == nil || !strings.Contains(err.Error(), "no component type is named main_test") {
				t.Errorf("%s: got %v, want an error naming main_test", tc.expr, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		got := cond.Eval(w)
		if tc.expr == "1 < 2" {
			if len(got) != 1 {
				t.Errorf("%s: got %v, want the world to match", tc.expr, got)
			}
			continue
		}
		var xs []float32
		for _, m := range got {
			v, _ := w.Component(m.Entity, ecs.TypeOf[Position]())
			xs = append(xs, v.Interface().(Position).X)
		}
		if len(xs) != len(tc.want) {
			t.Errorf("%s: got entities at x %v, want %v", tc.expr, xs, tc.want)
			continue
		}
		for i := range xs {
			if xs[i] != tc.want[i] {
				t.Errorf("%s: got entities at x %v, want %v", tc.expr, xs, tc.want)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	w := world(t)
	for _, tc := range []struct {
		expr string
		want []string // substrings of the error, each
	}{
		{"", []string{"at byte 0", "expected a field"}},
		{"Position.Y >", []string{"at byte 12", "found end of expression"}},
		{"Position.Y > 400 &&", []string{"expected a field"}},
		{"Position.Y > 4 5", []string{"unexpected \"5\" after a complete expression"}},
		{"(Position.Y > 4", []string{"expected \")\" to close the \"(\" at byte 0"}},
		{"Position.Y $ 4", []string{"unexpected character '$'", "the operators"}},
		{"Position", []string{"bare name", "Component.Field"}},
		{"Position.Y > 1e", []string{"\"1e\" is not a number"}},
		{"Velocity.X > 1", []string{"no component type is named Velocity", "Health", "Position"}},
		{"Position.Z > 1", []string{"has no field Z; its fields are X, Y"}},
		{"Health.Armor > 1", []string{"a condition compares numbers", "struct"}},
		{"Health.Name == 1", []string{"it is a string"}},
		{"Health.Value.X == 1", []string{"which has no field X"}},
		{"Position.X", []string{"the expression is a number"}},
		{"Health.Dead > false", []string{"bools are compared with == and != only"}},
		{"Health.Dead == 1", []string{"compares a bool with a number"}},
		{"!Position.X", []string{"! applies to a bool"}},
		{"Position.X && Health.Dead", []string{"&& joins two bools", "a number and a bool"}},
		// Every problem at once.
		{"Velocity.X > 1 && Health.Dead < true", []string{"Velocity", "bools are compared"}},
		{strings.Repeat("(", 100) + "1 < 2" + strings.Repeat(")", 100), []string{"deeper than 64 levels"}},
		{strings.Repeat("!", 100) + "Health.Dead", []string{"deeper than 64 levels"}},
		{strings.Repeat("a", query.MaxLength+1), []string{"at most 4096 are allowed"}},
	} {
		_, err := query.Prepare(tc.expr, w.ComponentTypes())
		if err == nil {
			t.Errorf("%.40q: no error, want %q", tc.expr, tc.want)
			continue
		}
		for _, s := range tc.want {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%.40q: error %q does not say %q", tc.expr, err, s)
			}
		}
		var se *query.SyntaxError
		var te *query.TypeError
		if !errors.As(err, &se) && !errors.As(err, &te) {
			t.Errorf("%.40q: error %T, want a SyntaxError or TypeError", tc.expr, err)
		}
	}
}

func TestResolveField(t *testing.T) {
	w := world(t)
	f, err := query.ResolveField(w.ComponentTypes(), "Health.Armor.Left")
	if err != nil {
		t.Fatal(err)
	}
	es := w.EntitiesWith(f.Type)
	if v, ok := f.Read(w, es[0]); !ok || v != 0 || f.Format(w, es[0]) != "0" {
		t.Errorf("Health.Armor.Left: got %v %v %q, want 0", v, ok, f.Format(w, es[0]))
	}
	if _, err := query.ResolveField(w.ComponentTypes(), "Health"); err == nil {
		t.Errorf("ResolveField(Health): no error, want one asking for a field")
	}
}

// FuzzParse: any input parses or fails with a SyntaxError, never a
// panic; what parses compiles or fails with TypeErrors, and evaluates.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"Position.Y > 400 && Health.Value <= 0", "!(Health.Dead || Position.X < -3.5e2)", "((1))", "Health.Dead == true", "a.b.c.d", "0x1f4 != 1_000"} {
		f.Add(s)
	}
	w := world(f)
	types := w.ComponentTypes()
	f.Fuzz(func(t *testing.T, src string) {
		e, err := query.Parse(src)
		if err != nil {
			var se *query.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q): error %T %v, want a *SyntaxError", src, err, err)
			}
			return
		}
		if e.String() != src {
			t.Fatalf("String() = %q, want %q", e.String(), src)
		}
		c, err := query.Compile(e, types)
		if err != nil {
			var te *query.TypeError
			if !errors.As(err, &te) {
				t.Fatalf("Compile(%q): error %T %v, want TypeErrors", src, err, err)
			}
			return
		}
		c.Eval(w)
	})
}
