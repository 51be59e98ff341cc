//go:build !js

package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// reachable builds pkg for the browser as webgame does and returns every
// symbol the linker kept: the targets of its -dumpdep graph.
func reachable(t *testing.T, pkg string) map[string]bool {
	t.Helper()
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-dumpdep", "-o", filepath.Join(t.TempDir(), "game.wasm"), pkg)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go build -ldflags=-dumpdep %s for js/wasm: %v\n%s", pkg, err, stderr.Bytes())
	}
	syms := map[string]bool{}
	sc := bufio.NewScanner(&stderr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if _, to, ok := strings.Cut(sc.Text(), " -> "); ok {
			syms[to] = true
		}
	}
	return syms
}

// linksCode reports a symbol of package path other than its
// initialisation: importing a package links its init, which is small;
// the weight is in the functions and data a reachable function names.
func linksCode(syms map[string]bool, path string) (string, bool) {
	for s := range syms {
		rest, ok := strings.CutPrefix(s, path+".")
		if !ok || rest == ".inittask" || rest == "init" || strings.HasPrefix(rest, "init.") || metadata(rest) {
			continue
		}
		return s, true
	}
	return "", false
}

// metadata reports a function's traceback data rather than its code: the
// linker keeps one copy of identical data and names it after whichever
// function it met first, so image/draw.Op.Draw.arginfo1 may be another
// package's argument layout.
func metadata(sym string) bool {
	for _, suffix := range []string{".arginfo0", ".arginfo1", ".argliveinfo", ".args_stackmap", ".stkobj", ".opendefer"} {
		if strings.HasSuffix(sym, suffix) {
			return true
		}
	}
	return false
}

// TestBreakoutLinksOnlyWhatItUses: the browser build of Breakout keeps
// none of the code that only other games, other faces or native builds
// use. Each package here cost Breakout's page tens to hundreds of
// kilobytes while nothing in it ran.
func TestBreakoutLinksOnlyWhatItUses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Breakout for js/wasm")
	}
	syms := reachable(t, "github.com/metronome-go/metronome/examples/breakout")
	for _, path := range []string{
		"regexp",        // a configuration key's check, a sound device's message
		"text/template", // --write-test's template, native only
		"golang.org/x/image/font/gofont/goregular", // Breakout draws Go Bold alone
		"golang.org/x/image/font/gofont/gomono",
		"golang.org/x/image/font/sfnt", // CFF outlines, read with package assets/cff imported
		"text/tabwriter",               // mgl32's matrix String, kept by a matrix field
		"github.com/quic-go/quic-go",   // QUIC, for a game that lists quicnet.Network()
		"crypto/tls",
		"github.com/metronome-go/metronome/inspect/query", // --where and --who-wrote, native and Rewind only
		"image/draw",                                      // every mask and operator, for one copy of a decoded PNG into RGBA
		// Networking: framework speaks to the match driver in rollback's
		// words and imports none of these (TestABrowserGameLinksNoNetworking
		// in framework checks the imports; this, the code kept).
		"net", "net/netip", "log/slog", "crypto/hmac", "crypto/sha256",
		"github.com/metronome-go/metronome/rollback/netplay",
		"github.com/metronome-go/metronome/internal/srcid",
	} {
		if s, ok := linksCode(syms, path); ok {
			t.Errorf("Breakout's page links %s (%s)", path, s)
		}
	}
	// Parts of a package another part of which Breakout uses: net's
	// sockets (Breakout lists no network, so links no transport), the
	// TOML encoder (the decoder reads its configuration), and the PNG
	// encoder with flate's compressor (the decoder reads its images; a
	// page's --screenshot is encoded by the browser).
	for _, prefix := range []string{"net.(*netFD)", "net.(*UDPConn)", "github.com/BurntSushi/toml.(*Encoder)",
		"compress/flate.(*compressor)", "compress/flate.NewWriter", "compress/zlib.(*Writer)", "image/png.(*encoder)", "image/png.Encode"} {
		for s := range syms {
			if strings.HasPrefix(s, prefix) {
				t.Errorf("Breakout's page links %s (%s)", prefix, s)
				break
			}
		}
	}
	// Networked play: Breakout lists no network (Game.Net.Networks), so
	// framework never reaches netplay.Driver, and with it no rollback
	// session or side, no match, no recording of one and no logger
	// (netplay.Options.Log).
	const rb = "github.com/metronome-go/metronome/rollback"
	for _, fn := range []string{rb + ".NewApp", rb + ".NewPlayback", rb + "/netplay.Connect", rb + "/netplay.Host", rb + "/netplay.Join"} {
		if syms[fn] {
			t.Errorf("Breakout's page links %s", fn)
		}
	}
	for _, prefix := range []string{
		rb + ".(*Side).", rb + ".(*Session).", rb + ".(*Follower).", rb + ".(*App).", rb + ".(*Playback).", rb + ".(*Recorder).",
		rb + "/netplay.(*Match).Send", rb + "/netplay.(*Match).handle", rb + "/netplay.Driver.",
		"log/slog.(*Logger).", "log/slog.(*TextHandler).",
	} {
		for s := range syms {
			if strings.HasPrefix(s, prefix) {
				t.Errorf("Breakout's page links %s (%s)", prefix, s)
				break
			}
		}
	}

	// Functions of a package the page needs the rest of: comparing two
	// recordings (--compare) and bisecting their replays, which a game's
	// page leaves to native runs and Rewind; JSON's decoder.
	for _, sym := range []string{
		"github.com/metronome-go/metronome/framework.(*side).next",
		"github.com/metronome-go/metronome/framework.systemsApart",
		// JSON's decoder, which made Arche's entities when a snapshot
		// was decoded (ecs's makeEntity writes them in place).
		"github.com/mlange-42/arche/ecs.(*Entity).UnmarshalJSON",
		"encoding/json.Unmarshal",
	} {
		if syms[sym] {
			t.Errorf("Breakout's page links %s", sym)
		}
	}
	if _, ok := linksCode(syms, "golang.org/x/image/font/gofont/gobold"); !ok {
		t.Error("Breakout's page does not link Go Bold, the face it draws: the check above cannot see a face")
	}
}

// TestBreakoutImportsNoMapParser: a game that loads no tile map imports
// neither the map parser (tiled, reached through ecs/tilemap) nor its
// zstd reader, whose packages' initialisation (crypto/rand, log among
// them) every page ran before its first frame. An import is enough to
// link a package's init, so this asks go list, not the linker.
func TestBreakoutImportsNoMapParser(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "github.com/metronome-go/metronome/examples/breakout")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps breakout for js/wasm: %v", err)
	}
	deps := map[string]bool{}
	for p := range strings.FieldsSeq(string(out)) {
		deps[p] = true
	}
	if !deps["github.com/metronome-go/metronome/ecs"] {
		t.Fatalf("go list -deps breakout lists no package ecs: %q", out)
	}
	for _, p := range []string{
		"github.com/metronome-go/metronome/tiled",
		"github.com/metronome-go/metronome/ecs/tilemap",
		"github.com/klauspost/compress/zstd",
	} {
		if deps[p] {
			t.Errorf("Breakout imports %s", p)
		}
	}
}

// TestBreakoutPageRefusesQuestions: the questions a page leaves out
// (--compare, --where, --who-wrote, --write-test) end with a message that
// says where to ask them, not with a missing flag or a silent exit. The
// module runs under Node.js, which gives it the page's Go runtime but no
// canvas: each refuses before it would need one.
func TestBreakoutPageRefusesQuestions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Breakout for js/wasm")
	}
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no node on PATH (scripts/setup.sh installs nodejs)")
		}
		t.Skip("no node on PATH")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	wasm := filepath.Join(t.TempDir(), "breakout.wasm")
	build := exec.Command("go", "build", "-trimpath", "-o", wasm, "github.com/metronome-go/metronome/examples/breakout")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build breakout for js/wasm: %v\n%s", err, out)
	}
	execJS := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec_node.js")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--replay", "a.rec", "--compare", "b.rec"}, "--compare replays two recordings side by side, which a game's page leaves out: run it natively"},
		{[]string{"--replay", "a.rec", "--where", "Ball.Y > 400"}, "which a game's page leaves out: ask natively"},
		{[]string{"--replay", "a.rec", "--who-wrote", "Ball.X of entity(3.0)"}, "which a game's page leaves out: ask natively"},
	} {
		cmd := exec.Command("node", append([]string{execJS, wasm}, tc.args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("breakout.wasm %q: %v, want exit status 2\n%s", tc.args, err, stderr.Bytes())
		}
		if !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("breakout.wasm %q said %q, want %q", tc.args, stderr.String(), tc.want)
		}
	}
}
