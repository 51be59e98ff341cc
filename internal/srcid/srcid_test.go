package srcid_test

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"runtime/debug"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/metronome-go/metronome/internal/srcid"
)

// build is a made-up binary: a framework of two files (known by a sum), a
// game of one, and arche and GLFW linked.
func build() srcid.Build {
	return srcid.Build{
		GoVersion: "go1.26.0",
		Framework: srcid.Tree{Sum: sha256.Sum256([]byte("two files")), Files: 2},
		Game: fstest.MapFS{
			"main.go":      {Data: []byte("package main\n\nconst shipSpeed = 260\n")},
			"duel_test.go": {Data: []byte("package main\n")},
		},
		Info: &debug.BuildInfo{
			Main: debug.Module{Path: "example.com/duel", Version: "(devel)"},
			Deps: []*debug.Module{
				{Path: "github.com/mlange-42/arche", Version: "v0.15.3", Sum: "h1:vonT1aCIHmu3nnCopzmhzOP5+J2NswVTexa2UDyek34="},
				{Path: "github.com/go-gl/glfw/v3.3/glfw", Version: "v0.0.0-20260823155953-d41da22a9587", Sum: "h1:yzPGEmWIlLQvQ0HvNHpRzLwyJ3pAmVXpa6pGclnH9Ks="},
			},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "1671c46d0e2a"}, {Key: "vcs.modified", Value: "true"}},
		},
	}
}

func compute(t *testing.T, b srcid.Build) srcid.Identity {
	t.Helper()
	id, err := srcid.Compute(b)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// setFile returns a copy of fsys with path holding data.
func setFile(fsys fs.FS, path, data string) fstest.MapFS {
	m := fstest.MapFS{}
	for k, v := range fsys.(fstest.MapFS) {
		m[k] = v
	}
	m[path] = &fstest.MapFile{Data: []byte(data)}
	return m
}

// Builds whose simulation code differs anywhere (a constant of the game,
// a file added, the framework's source, the Go version, a module's
// content) get
// different identities, though their stamps are the same: every variant
// here is a (devel) build of one modified revision.
func TestDifferentCodeDifferentIdentity(t *testing.T) {
	base := compute(t, build())
	for _, c := range []struct {
		name   string
		change func(b *srcid.Build)
	}{
		{"a constant of the game", func(b *srcid.Build) {
			b.Game = setFile(b.Game, "main.go", "package main\n\nconst shipSpeed = 300\n")
		}},
		{"a file added to the game", func(b *srcid.Build) { b.Game = setFile(b.Game, "rules.go", "package main\n") }},
		{"a constant of the game moved to another file", func(b *srcid.Build) {
			m := setFile(b.Game, "rules.go", "package main\n\nconst shipSpeed = 260\n")
			m["main.go"] = &fstest.MapFile{Data: []byte("package main\n")}
			b.Game = m
		}},
		{"the framework's source", func(b *srcid.Build) { b.Framework.Sum[31] ^= 1 }},
		{"the Go version", func(b *srcid.Build) { b.GoVersion = "go1.26.1" }},
		{"arche's content", func(b *srcid.Build) {
			b.Info.Deps[0] = &debug.Module{Path: "github.com/mlange-42/arche", Version: "v0.15.3", Sum: "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}
		}},
		{"arche's version", func(b *srcid.Build) {
			b.Info.Deps[0] = &debug.Module{Path: "github.com/mlange-42/arche", Version: "v0.15.2", Sum: "h1:vonT1aCIHmu3nnCopzmhzOP5+J2NswVTexa2UDyek34="}
		}},
		{"a module added", func(b *srcid.Build) {
			b.Info.Deps = append(b.Info.Deps, &debug.Module{Path: "example.com/physics", Version: "v1.0.0", Sum: "h1:x="})
		}},
		{"arche replaced by a fork", func(b *srcid.Build) {
			b.Info.Deps[0].Replace = &debug.Module{Path: "example.com/arche", Version: "v0.15.3", Sum: "h1:y="}
		}},
	} {
		b := build()
		c.change(&b)
		if got := compute(t, b); got.Sum == base.Sum || got.Version() == base.Version() {
			t.Errorf("%s: identity %s, the same as without the change", c.name, got.Version())
		}
	}
}

// What is not simulation code leaves the identity alone: the game's test
// files, the stamps of a build whose source is given, Windows line ends, the
// platform modules and the framework's own module entry (its source is
// hashed instead).
func TestSameCodeSameIdentity(t *testing.T) {
	base := compute(t, build())
	if base.Game != srcid.Source || len(base.Warnings()) != 0 {
		t.Fatalf("a build with its source: kind %v, warnings %q; want Source and none", base.Game, base.Warnings())
	}
	if v := base.Version(); !strings.HasPrefix(v, "simulation code ") || len(v) != len("simulation code ")+16 {
		t.Errorf("Version() = %q, want simulation code and 16 hexadecimal digits", v)
	}
	if base.Files != 3 {
		t.Errorf("Files = %d, want 3 (the test files left out)", base.Files)
	}
	for _, c := range []struct {
		name   string
		change func(b *srcid.Build)
	}{
		{"a test file of the game", func(b *srcid.Build) { b.Game = setFile(b.Game, "duel_test.go", "package main\n\nfunc f() {}\n") }},
		{"CRLF line ends", func(b *srcid.Build) {
			b.Game = setFile(b.Game, "main.go", "package main\r\n\r\nconst shipSpeed = 260\r\n")
		}},
		{"a clean build of another revision", func(b *srcid.Build) {
			b.Info.Main.Version = "v1.2.0"
			b.Info.Settings = []debug.BuildSetting{{Key: "vcs.revision", Value: "99"}, {Key: "vcs.modified", Value: "false"}, {Key: "-trimpath", Value: "true"}}
		}},
		{"no GLFW linked (the browser, no cgo)", func(b *srcid.Build) { b.Info.Deps = b.Info.Deps[:1] }},
		{"the framework as a module", func(b *srcid.Build) {
			b.Info.Deps = append(b.Info.Deps, &debug.Module{Path: srcid.FrameworkModule, Version: "v0.4.0", Sum: "h1:z="},
				&debug.Module{Path: "golang.org/x/sys", Version: "v0.50.0", Sum: "h1:s="})
		}},
		{"the framework replaced by a local checkout", func(b *srcid.Build) {
			b.Info.Deps = append(b.Info.Deps, &debug.Module{Path: srcid.FrameworkModule, Version: "v0.0.0", Replace: &debug.Module{Path: "/home/me/metronome"}})
		}},
	} {
		b := build()
		c.change(&b)
		got := compute(t, b)
		if got.Sum != base.Sum {
			t.Errorf("%s: identity %s, want %s as without it", c.name, got.Version(), base.Version())
		}
		if len(got.Warnings()) != 0 {
			t.Errorf("%s: warnings %q, want none", c.name, got.Warnings())
		}
	}
}

// A game that gives no source falls back to its build stamps, and says
// so: two (devel) builds of one modified revision then share an identity
// whatever their code. A game installed from a module version is known
// exactly by its module's content sum.
func TestWithoutSourceTheStampStandsForTheGame(t *testing.T) {
	b := build()
	b.Game = nil
	weak := compute(t, b)
	if weak.Game != srcid.Stamp {
		t.Fatalf("kind %v, want Stamp", weak.Game)
	}
	if v := weak.Version(); !strings.HasPrefix(v, "build stamp ") || !strings.Contains(v, "(devel) rev 1671c46d0e2a modified") || len(v) > 64 {
		t.Errorf("Version() = %q, want build stamp, the digits and the stamp in words, up to 64 bytes", v)
	}
	w := weak.Warnings()
	if len(w) != 1 || !strings.Contains(w[0], "build stamp only") || !strings.Contains(w[0], "Game.Source") || !strings.Contains(w[0], "//go:embed *.go") {
		t.Errorf("warnings %q, want one naming the stamp and how to give the source", w)
	}
	if withSource := compute(t, build()); withSource.Sum == weak.Sum {
		t.Error("the stamp's identity equals the source's")
	}
	b.Info.Settings[1].Value = "false"
	if got := compute(t, b); got.Sum == weak.Sum {
		t.Error("a clean and a modified build of one revision share the stamp's identity")
	}

	b = build()
	b.Game = nil
	b.Info.Main = debug.Module{Path: "example.com/duel", Version: "v1.2.0", Sum: "h1:m="}
	exact := compute(t, b)
	if exact.Game != srcid.ModuleSum || len(exact.Warnings()) != 0 || !strings.HasPrefix(exact.Version(), "simulation code ") {
		t.Errorf("a game built from its module version: kind %v, version %q, warnings %q; want ModuleSum, simulation code, none", exact.Game, exact.Version(), exact.Warnings())
	}
	b.Info.Main.Sum = "h1:n="
	if got := compute(t, b); got.Sum == exact.Sum {
		t.Error("two module sums of the game share an identity")
	}
}

// A module whose content has no sum (a local replacement, a vendored
// build) is named in a warning: the identity cannot vouch for its code.
func TestUnsummedModulesAreNamed(t *testing.T) {
	b := build()
	b.Info.Deps[0].Replace = &debug.Module{Path: "../arche"}
	id := compute(t, b)
	if len(id.Unsummed) != 1 || !strings.Contains(id.Unsummed[0], "github.com/mlange-42/arche => ../arche") {
		t.Fatalf("Unsummed = %q, want arche and its directory", id.Unsummed)
	}
	if w := id.Warnings(); len(w) != 1 || !strings.Contains(w[0], "arche") || !strings.Contains(w[0], "no content sum") {
		t.Errorf("warnings %q", w)
	}
	b.Info.Deps[0].Replace = &debug.Module{Path: "/elsewhere/arche"}
	if got := compute(t, b); got.Sum != id.Sum {
		t.Error("the local directory's path, this machine's own, changed the identity")
	}
	b = build()
	b.Info.Deps[0].Sum = ""
	if id := compute(t, b); len(id.Unsummed) != 1 || id.Unsummed[0] != "github.com/mlange-42/arche" {
		t.Errorf("a vendored module: Unsummed = %q", id.Unsummed)
	}
	b.Info = nil
	if id := compute(t, b); len(id.Unsummed) != 1 || !strings.Contains(id.Unsummed[0], "no build information") {
		t.Errorf("no build information: Unsummed = %q", id.Unsummed)
	}
}

// failingFS fails every read.
type failingFS struct{}

func (failingFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("disk on fire")}
}

// Sources that cannot stand for the code are errors that say what is
// wrong: a game source with no Go file, one that cannot be read, no
// framework sum.
func TestBadSources(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(b *srcid.Build)
		want   string
	}{
		{"a game source of data only", func(b *srcid.Build) {
			b.Game = fstest.MapFS{"config.toml": {Data: []byte("[game]\n")}}
		}, "holds no Go file (embed the main package's with //go:embed *.go)"},
		{"a game source of tests only", func(b *srcid.Build) {
			b.Game = fstest.MapFS{"main_test.go": {Data: []byte("package main\n")}}
		}, "holds no Go file"},
		{"an unreadable game source", func(b *srcid.Build) { b.Game = failingFS{} }, "reading the game source: open .: disk on fire"},
		{"no framework source", func(b *srcid.Build) { b.Framework = srcid.Tree{} }, "the framework source holds no Go file (run go generate . at the framework module's root)"},
	} {
		b := build()
		c.change(&b)
		_, err := srcid.Compute(b)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "srcid: ") {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// BenchmarkOf computes the identity of a build whose game gives no source,
// as --host and --join do once: the framework is known by its generated
// sum, so only the Go version and the modules are hashed.
func BenchmarkOf(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := srcid.Of(nil); err != nil {
			b.Fatal(err)
		}
	}
}
