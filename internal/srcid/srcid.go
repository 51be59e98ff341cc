package srcid

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"maps"
	goruntime "runtime"
	"runtime/debug"
	"slices"
	"strings"
)

// FrameworkModule is the framework's module path. Its code is known by
// the embedded source, so its entry among the dependencies (absent, a
// version, or a local replacement) is not hashed.
const FrameworkModule = "github.com/metronome-go/metronome"

// platformModules are the modules the framework links on some platforms
// only: the window and OpenGL (GLFW, go-gl), the sound device (oto,
// purego) and the operating system's calls (x/sys, x/net). None of them
// runs simulation code, and hashing them would split one game's native
// and browser builds. TestPlatformModules keeps the list honest.
var platformModules = map[string]bool{
	"github.com/go-gl/gl":             true,
	"github.com/go-gl/glfw/v3.3/glfw": true,
	"github.com/ebitengine/oto/v3":    true,
	"github.com/ebitengine/purego":    true,
	"golang.org/x/sys":                true,
	"golang.org/x/net":                true,
}

// PlatformModules returns, sorted, the modules the identity leaves out as
// linked by the framework on some platforms only.
func PlatformModules() []string {
	return slices.Sorted(maps.Keys(platformModules))
}

// Kind says how an identity knows the game's own code.
type Kind uint8

const (
	// Source: from the game's embedded source files, exactly.
	Source Kind = iota
	// ModuleSum: from the content sum of the game's module, exactly (a
	// game built with go install module@version).
	ModuleSum
	// Stamp: from the build's version stamps only (module version, VCS
	// revision, modified flag), which two builds of different code can
	// share.
	Stamp
)

// Build is what an identity is computed from.
type Build struct {
	// GoVersion is the toolchain's version (runtime.Version): the
	// standard library is simulation code too.
	GoVersion string
	// Framework is the framework's simulation source (metronome.Source).
	Framework fs.FS
	// Game is the game's own source, nil when the game gives none. Every
	// file in it counts but Go test files.
	Game fs.FS
	// Info is the binary's build information; nil when it has none.
	Info *debug.BuildInfo
}

// Identity is what a build's simulation code is known by.
type Identity struct {
	// Sum hashes the Go version, the framework's source, the game's code
	// (as Game says) and the content sums of the modules linked on every
	// platform.
	Sum [sha256.Size]byte
	// Game says how the game's code is known.
	Game Kind
	// Stamp is the game's build stamp when Game is Stamp, in words.
	Stamp string
	// Unsummed names the modules whose code the identity does not cover:
	// replaced by a local directory, or with no content sum (a vendored
	// build, or a binary with no build information).
	Unsummed []string
	// Files counts the Go files hashed, the framework's and the game's
	// (test files left out).
	Files int
}

// Of computes the identity of the running binary: its Go version and
// build information, the framework's source fw and the game's source game
// (nil for none).
func Of(fw, game fs.FS) (Identity, error) {
	bi, _ := debug.ReadBuildInfo()
	return Compute(Build{GoVersion: goruntime.Version(), Framework: fw, Game: game, Info: bi})
}

// Compute computes the identity of b. It fails when a source cannot be
// read, or when b.Game holds no Go file (the game embedded something, but
// not its code).
func Compute(b Build) (Identity, error) {
	var id Identity
	h := sha256.New()
	field(h, "metronome code identity 1")
	field(h, b.GoVersion)
	if b.Framework == nil {
		return id, errors.New("srcid: no framework source")
	}
	n, err := hashTree(h, "framework", b.Framework)
	if err != nil {
		return id, err
	}
	if n == 0 {
		return id, errors.New("srcid: the framework source holds no Go file")
	}
	id.Files = n
	id.Unsummed = hashModules(h, b.Info)
	switch {
	case b.Game != nil:
		n, err := hashTree(h, "game", b.Game)
		if err != nil {
			return id, err
		}
		if n == 0 {
			return id, errors.New("srcid: the game's source holds no Go file (embed the main package's with //go:embed *.go)")
		}
		id.Files += n
		id.Game = Source
	case b.Info != nil && b.Info.Main.Sum != "" && b.Info.Main.Replace == nil:
		field(h, "game module")
		field(h, b.Info.Main.Path)
		field(h, b.Info.Main.Version)
		field(h, b.Info.Main.Sum)
		id.Game = ModuleSum
	default:
		id.Game = Stamp
		id.Stamp = hashStamp(h, b.Info)
	}
	h.Sum(id.Sum[:0])
	return id, nil
}

// Version is the identity as a match's version string, up to 64 bytes:
// "simulation code" and 16 hexadecimal digits of the sum when it is
// exact; "build stamp", the digits and the stamp when not.
func (id Identity) Version() string {
	digits := hex.EncodeToString(id.Sum[:8])
	if id.Game != Stamp {
		return "simulation code " + digits
	}
	v := "build stamp " + digits + " " + id.Stamp
	if len(v) > 64 {
		v = v[:64]
	}
	return v
}

// Warnings says, one sentence each, what the identity cannot tell apart:
// nothing when it is exact.
func (id Identity) Warnings() []string {
	var w []string
	if id.Game == Stamp {
		w = append(w, fmt.Sprintf("the match identity knows this game's own code by its build stamp only (%s): "+
			"two builds of different code with one stamp (two (devel) builds, two modified builds of one revision) can share a match and desync; "+
			"set Game.Source to the main package's embedded source (//go:embed *.go) to identify the code itself", id.Stamp))
	}
	if len(id.Unsummed) > 0 {
		w = append(w, fmt.Sprintf("the match identity does not cover the code of %s (no content sum: a local replacement, a vendored copy or no build information): "+
			"builds that differ there can share a match and desync", strings.Join(id.Unsummed, ", ")))
	}
	return w
}

// field writes s to h with its length, so that no two sequences of
// fields hash alike.
func field(h hash.Hash, s string) {
	h.Write(binary.AppendUvarint(nil, uint64(len(s))))
	h.Write([]byte(s))
}

// hashTree hashes every file of fsys but Go test files, in path order
// (fs.WalkDir's lexical order), each by path and content, and returns how
// many Go files it holds. In Go files a carriage return before a line
// feed is dropped: the compiler ignores it (in raw strings too), and a
// Windows checkout adds it.
func hashTree(h hash.Hash, what string, fsys fs.FS) (goFiles int, err error) {
	field(h, what)
	err = fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("srcid: reading the %s source: %w", what, err)
		}
		if d.IsDir() || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := fs.ReadFile(fsys, path)
		if err != nil {
			return fmt.Errorf("srcid: reading the %s source: %w", what, err)
		}
		if strings.HasSuffix(path, ".go") {
			goFiles++
			data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
		}
		field(h, path)
		field(h, string(data))
		return nil
	})
	return goFiles, err
}

// hashModules hashes the dependencies of info by path, version and
// content sum, leaving out the framework and the platform modules, and
// returns those whose content it cannot vouch for.
func hashModules(h hash.Hash, info *debug.BuildInfo) (unsummed []string) {
	field(h, "modules")
	if info == nil {
		return []string{"every module (the binary has no build information)"}
	}
	deps := slices.Clone(info.Deps)
	slices.SortFunc(deps, func(a, b *debug.Module) int { return strings.Compare(a.Path, b.Path) })
	for _, m := range deps {
		if m.Path == FrameworkModule || platformModules[m.Path] {
			continue
		}
		field(h, m.Path)
		field(h, m.Version)
		sum := m.Sum
		if r := m.Replace; r != nil {
			if r.Version == "" {
				// A directory: its path is this machine's, its content unknown.
				field(h, "=> a local directory")
				unsummed = append(unsummed, m.Path+" => "+r.Path)
				continue
			}
			field(h, "=> "+r.Path+" "+r.Version)
			sum = r.Sum
		}
		if sum == "" {
			unsummed = append(unsummed, m.Path)
		}
		field(h, sum)
	}
	return unsummed
}

// hashStamp hashes the game's build stamps (module path and version, VCS
// revision and modified flag) and returns them in words.
func hashStamp(h hash.Hash, info *debug.BuildInfo) string {
	field(h, "game stamp")
	if info == nil {
		field(h, "none")
		return "no build information"
	}
	rev, modified := "", ""
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	for _, s := range []string{info.Main.Path, info.Main.Version, rev, modified} {
		field(h, s)
	}
	words := info.Main.Version
	if rev != "" {
		words += " rev " + rev[:min(len(rev), 12)]
	}
	if modified == "true" {
		words += " modified"
	}
	return words
}
