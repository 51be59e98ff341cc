package srctree_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/metronome-go/metronome/internal/srcid/srctree"
)

const module = "github.com/metronome-go/metronome"

// leftOut are the framework's packages a game links whose source the
// identity does not hash, each with why: they draw, sound, poll devices,
// record or compute the identity, and cannot change a world's state.
var leftOut = map[string]string{
	"audio":                     "mixes sounds for the device",
	"audio/otoaudio":            "the sound device",
	"media":                     "sound and image formats",
	"recording":                 "writes and reads recordings",
	"render2d":                  "frames and draw packets",
	"render2d/shape":            "tessellates shapes for drawing",
	"render2d/internal/handles": "the renderer's texture handles",
	"render2d/nullrender":       "the headless renderer",
	"render2d/glrender":         "the OpenGL renderer",
	"internal/gl":               "OpenGL",
	"internal/shadersrc":        "the renderer's shader source",
	"internal/xvfb":             "starts an X server",
	"internal/pagemark":         "marks a page's start on its performance timeline",
	"internal/suggest":          "spelling suggestions in error messages",
	"internal/srcid":            "computes the identity",
	"internal/srcid/srctree":    "hashes source for the identity",
	"input/glfwinput":           "GLFW's input devices (inputs cross the network as values)",
	"runtime/glfwplatform":      "the desktop window",
	"runtime/webplatform":       "the browser page",
	"inspect":                   "serves the inspector over a finished replay (--inspect), reading the world, never writing it",
	"inspect/query":             "parses and evaluates read-only conditions on a replay's world",
}

// Every package of the framework a game links, on any platform, is either
// hashed (Packages) or left out for a stated reason; so a new package is
// hashed or classed here, never forgotten. Games link framework's
// packages, and those of ui, ecs/tilemap and rollback/netplay, which a
// game imports beside framework (a game without menus, tile maps or
// networked play links none of them; netplay computes the identity).
func TestPackagesCoverTheSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the framework's packages for four platforms")
	}
	hashed := map[string]bool{}
	for _, p := range srctree.Packages {
		hashed[p] = true
	}
	linked := map[string]bool{}
	for _, env := range [][]string{{"CGO_ENABLED=1"}, {"CGO_ENABLED=0"}, {"GOOS=windows"}, {"GOOS=js", "GOARCH=wasm"}} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, "go", "list", "-deps", module+"/framework", module+"/ui", module+"/ecs/tilemap", module+"/rollback/netplay")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("go list %v: %v", env, err)
		}
		for p := range strings.FieldsSeq(string(out)) {
			if p == module {
				linked["."] = true
			} else if rel, ok := strings.CutPrefix(p, module+"/"); ok {
				linked[rel] = true
			}
		}
	}
	for p := range linked {
		_, out := leftOut[p]
		switch {
		case hashed[p] && out:
			t.Errorf("%s is both hashed and left out (%s)", p, leftOut[p])
		case !hashed[p] && !out:
			t.Errorf("package %s is linked into games but neither hashed (srctree.Packages: it can change the simulation; then run go generate .) nor left out for a reason (leftOut in srctree_test.go: it cannot)", p)
		}
	}
	for p := range hashed {
		if !linked[p] {
			t.Errorf("srctree.Packages names %s, which no game links", p)
		}
	}
	for p := range leftOut {
		if !linked[p] {
			t.Errorf("leftOut names %s, which no game links", p)
		}
	}
	if !slices.IsSorted(srctree.Packages) {
		t.Errorf("srctree.Packages is not sorted: %q", srctree.Packages)
	}
}

// framework is a made-up framework module: every package in Packages with
// one Go file, ecs with a test file and a subdirectory too.
func framework() fstest.MapFS {
	m := fstest.MapFS{}
	for _, p := range srctree.Packages {
		name := p[strings.LastIndex(p, "/")+1:]
		m[p+"/doc.go"] = &fstest.MapFile{Data: fmt.Appendf(nil, "package %s\n", name)}
	}
	m["timing/step.go"] = &fstest.MapFile{Data: []byte("package timing\n\nconst step = 16\n")}
	m["ecs/world_test.go"] = &fstest.MapFile{Data: []byte("package ecs\n")}
	m["ecs/ecstest/kit.go"] = &fstest.MapFile{Data: []byte("package ecstest\n")}
	return m
}

func sum(t *testing.T, fsys fstest.MapFS) ([sha256.Size]byte, int) {
	t.Helper()
	s, n, err := srctree.Framework(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return s, n
}

// The framework's sum changes with any code of its packages (a constant,
// a file added or moved), and not with test files, files that are not Go,
// subdirectories (other packages) or Windows line ends.
func TestFrameworkSum(t *testing.T) {
	base, files := sum(t, framework())
	if want := len(srctree.Packages) + 1; files != want {
		t.Errorf("%d files hashed, want %d (no test file, no subdirectory)", files, want)
	}
	for _, c := range []struct {
		name   string
		change func(m fstest.MapFS)
		same   bool
	}{
		{"a constant", func(m fstest.MapFS) { m["timing/step.go"].Data = []byte("package timing\n\nconst step = 17\n") }, false},
		{"a file added", func(m fstest.MapFS) { m["geom/circle.go"] = &fstest.MapFile{Data: []byte("package geom\n")} }, false},
		{"a file moved", func(m fstest.MapFS) { m["timing/tick.go"] = m["timing/step.go"]; delete(m, "timing/step.go") }, false},
		{"a test file", func(m fstest.MapFS) { m["ecs/world_test.go"].Data = []byte("package ecs\n\nfunc f() {}\n") }, true},
		{"a file that is not Go", func(m fstest.MapFS) { m["ecs/notes.md"] = &fstest.MapFile{Data: []byte("# notes\n")} }, true},
		{"a subpackage not hashed", func(m fstest.MapFS) { m["ecs/ecstest/kit.go"].Data = []byte("package ecstest\n\nconst x = 1\n") }, true},
		{"CRLF line ends", func(m fstest.MapFS) { m["timing/step.go"].Data = []byte("package timing\r\n\r\nconst step = 16\r\n") }, true},
	} {
		m := framework()
		c.change(m)
		if got, _ := sum(t, m); (got == base) != c.same {
			t.Errorf("%s: sum %x, the base's %x: want same = %v", c.name, got, base, c.same)
		}
	}
}

// A framework tree without one of its packages, or with a package of tests
// only, is refused, each package named.
func TestFrameworkMissingPackages(t *testing.T) {
	m := framework()
	delete(m, "geom/doc.go")
	delete(m, "schedule/doc.go")
	m["schedule/queue_test.go"] = &fstest.MapFile{Data: []byte("package schedule\n")}
	_, _, err := srctree.Framework(m)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"srctree: the framework's package geom: ", "srctree: the framework's package schedule holds no Go file but tests"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q, want it to contain %q", err, want)
		}
	}
	if _, err := srctree.Generate(m); err == nil {
		t.Error("Generate: no error")
	}
}

// A tree's sum is its files' in path order, whatever order they are
// walked in, and counts Go files only; a test file does not count.
func TestTree(t *testing.T) {
	game := fstest.MapFS{
		"main.go":      {Data: []byte("package main\n")},
		"sim/rules.go": {Data: []byte("package sim\n")},
		"main_test.go": {Data: []byte("package main\n")},
		"config.toml":  {Data: []byte("[game]\n")},
	}
	s, n, err := srctree.Tree(game)
	if err != nil || n != 2 {
		t.Fatalf("Tree = %d Go files, %v; want 2", n, err)
	}
	h := sha256.New()
	for _, p := range []string{"config.toml", "main.go", "sim/rules.go"} {
		srctree.File(h, p, game[p].Data)
	}
	if want := h.Sum(nil); string(s[:]) != string(want) {
		t.Errorf("Tree = %x, want %x (its files in path order)", s, want)
	}
}

// The generated file is gofmt's, names its generator and holds the sum.
func TestGenerate(t *testing.T) {
	src, err := srctree.Generate(framework())
	if err != nil {
		t.Fatal(err)
	}
	s, files := sum(t, framework())
	for _, want := range []string{
		"// Code generated by go generate (internal/srcid/gensum); DO NOT EDIT.\n\npackage srcid\n",
		fmt.Sprintf("const frameworkSum = \"%x\"\n", s),
		fmt.Sprintf("const frameworkFiles = %d\n", files),
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("generated:\n%s\nwant it to contain %q", src, want)
		}
	}
}
