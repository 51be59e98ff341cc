package srcid

import (
	"crypto/sha256"
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

	"github.com/metronome-go/metronome/internal/srcid/srctree"
)

// FrameworkModule is the framework's module path. Its code is known by
// its generated sum ([Framework]), so its entry among the dependencies (absent, a
// version, or a local replacement) is not hashed.
const FrameworkModule = "github.com/metronome-go/metronome"

// platformModules are the modules the framework and its WebRTC network
// link on some platforms only: the window and OpenGL (GLFW, go-gl), the
// sound device (oto, purego), the operating system's calls (x/sys), and
// WebRTC's native stack (pion's ICE, DTLS and SCTP and what they use),
// which a page does without, its browser having its own. None of them
// runs simulation code, and hashing them would split one game's native
// and browser builds, so a page could not join a desktop match.
// TestPlatformModules keeps the list honest.
var platformModules = map[string]bool{
	"github.com/go-gl/gl":             true,
	"github.com/go-gl/glfw/v3.3/glfw": true,
	"github.com/ebitengine/oto/v3":    true,
	"github.com/ebitengine/purego":    true,
	"golang.org/x/sys":                true,
	// WebRTC natively (package rollback/netplay/webrtc).
	"github.com/google/uuid":      true,
	"github.com/pion/datachannel": true,
	"github.com/pion/dtls/v3":     true,
	"github.com/pion/ice/v4":      true,
	"github.com/pion/interceptor": true,
	"github.com/pion/logging":     true,
	"github.com/pion/mdns/v2":     true,
	"github.com/pion/randutil":    true,
	"github.com/pion/rtcp":        true,
	"github.com/pion/rtp":         true,
	"github.com/pion/sctp":        true,
	"github.com/pion/sdp/v3":      true,
	"github.com/pion/srtp/v3":     true,
	"github.com/pion/stun/v4":     true,
	"github.com/pion/turn/v5":     true,
	"github.com/pion/webrtc/v4":   true,
	"github.com/wlynxg/anet":      true,
	"golang.org/x/crypto":         true,
	"golang.org/x/net":            true,
	"golang.org/x/time":           true,
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
	// Framework is the framework's simulation source, known by its sum
	// ([Framework] gives this build's).
	Framework Tree
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

// Tree is a tree of source known by its SHA-256, as package srctree
// hashes it.
type Tree struct {
	Sum [sha256.Size]byte
	// Files counts its Go files, test files left out.
	Files int
}

// Framework returns the framework's simulation source as this build knows
// it: the sum go generate wrote into the package (internal/srcid/gensum),
// not the files, which no game links. It fails only when that file is
// damaged.
func Framework() (Tree, error) { return decodeTree(frameworkSum, frameworkFiles) }

// decodeTree returns the tree whose sum is digits, in hexadecimal, and
// which holds files Go files.
func decodeTree(digits string, files int) (Tree, error) {
	t := Tree{Files: files}
	if len(digits) != hex.EncodedLen(len(t.Sum)) {
		return Tree{}, fmt.Errorf("srcid: the generated framework sum %q is not %d hexadecimal digits (run go generate . at the framework module's root)", digits, hex.EncodedLen(len(t.Sum)))
	}
	if _, err := hex.Decode(t.Sum[:], []byte(digits)); err != nil {
		return Tree{}, fmt.Errorf("srcid: the generated framework sum %q: %w (run go generate . at the framework module's root)", digits, err)
	}
	return t, nil
}

// Of computes the identity of the running binary: its Go version and
// build information, the framework's generated sum ([Framework]) and the
// game's source game (nil for none).
func Of(game fs.FS) (Identity, error) {
	fw, err := Framework()
	if err != nil {
		return Identity{}, err
	}
	bi, _ := debug.ReadBuildInfo()
	return Compute(Build{GoVersion: goruntime.Version(), Framework: fw, Game: game, Info: bi})
}

// Compute computes the identity of b. It fails when a source cannot be
// read, or when b.Game holds no Go file (the game embedded something, but
// not its code).
func Compute(b Build) (Identity, error) {
	var id Identity
	h := sha256.New()
	field(h, "metronome code identity 2")
	field(h, b.GoVersion)
	if b.Framework.Files <= 0 {
		return id, errors.New("srcid: the framework source holds no Go file (run go generate . at the framework module's root)")
	}
	field(h, "framework")
	h.Write(b.Framework.Sum[:])
	id.Files = b.Framework.Files
	id.Unsummed = hashModules(h, b.Info)
	switch {
	case b.Game != nil:
		sum, n, err := srctree.Tree(b.Game)
		if err != nil {
			return id, fmt.Errorf("srcid: reading the game source: %w", err)
		}
		if n == 0 {
			return id, errors.New("srcid: the game's source holds no Go file (embed the main package's with //go:embed *.go)")
		}
		field(h, "game")
		h.Write(sum[:])
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

// field writes s to h as srctree does, length first.
func field(h hash.Hash, s string) { srctree.Field(h, s) }

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
