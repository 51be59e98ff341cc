package shadersrc_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/internal/shadersrc"
)

// Builtins lists every motion variant of each built-in material (a kind
// without parameters has all three), then the shape program, each
// shader after the prelude and each program distinct.
func TestBuiltins(t *testing.T) {
	for _, prelude := range []string{shadersrc.ESPrelude, shadersrc.DesktopPrelude} {
		ps := shadersrc.Builtins(prelude)
		if want := len(shadersrc.BuiltinMaterials)*int(shadersrc.NumMotions) + 1; len(ps) != want {
			t.Fatalf("%d programs, want %d", len(ps), want)
		}
		seen := map[shadersrc.Program]bool{}
		for i, p := range ps {
			if !strings.HasPrefix(p.Vertex, prelude) || !strings.HasPrefix(p.Fragment, prelude) {
				t.Errorf("program %d does not start with the prelude", i)
			}
			if !strings.Contains(p.Vertex, "void main()") || !strings.Contains(p.Fragment, "void main()") {
				t.Errorf("program %d has a shader without main", i)
			}
			if seen[p] {
				t.Errorf("program %d is listed twice", i)
			}
			seen[p] = true
		}
		if last := ps[len(ps)-1]; last.Vertex != shadersrc.ShapeVertex(prelude) || last.Fragment != shadersrc.ShapeFragment(prelude) {
			t.Error("the last program is not the shape program")
		}
	}
}

// A custom material's kind has no slide: its previous position would take
// the parameter slot.
func TestKindHas(t *testing.T) {
	for k := range shadersrc.NumKinds {
		for m := range shadersrc.NumMotions {
			if got, want := k.Has(m), !(k == shadersrc.Params && m == shadersrc.Slide); got != want {
				t.Errorf("Kind(%d).Has(%d) = %v, want %v", k, m, got, want)
			}
		}
	}
	if !strings.Contains(shadersrc.SpriteVertex("", shadersrc.Params, shadersrc.Turn), "#define PARAMS 1") {
		t.Error("a custom material's vertex shader does not define PARAMS")
	}
}
