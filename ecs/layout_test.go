package ecs_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestReflectionStaysInLayout: reading the game's types with reflect and
// their values with unsafe is confined to layout.go, where its reason and
// cost are stated; every other file of the package goes through it.
func TestReflectionStaysInLayout(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if slices.Contains([]string{"reflect", "unsafe"}, path) && name != "layout.go" {
				t.Errorf("%s imports %s: only layout.go may", name, path)
			}
		}
	}
}
