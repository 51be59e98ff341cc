package ecs

import (
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
