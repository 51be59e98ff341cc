//go:build !js

package main

import (
	"bufio"
	"bytes"
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
		if !ok || rest == ".inittask" || rest == "init" || strings.HasPrefix(rest, "init.") {
			continue
		}
		return s, true
	}
	return "", false
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
	} {
		if s, ok := linksCode(syms, path); ok {
			t.Errorf("Breakout's page links %s (%s)", path, s)
		}
	}
	// Parts of a package another part of which Breakout uses: net's
	// sockets (Breakout lists no network, so links no transport) and
	// the TOML encoder (the decoder reads its configuration).
	for _, prefix := range []string{"net.(*netFD)", "net.(*UDPConn)", "github.com/BurntSushi/toml.(*Encoder)"} {
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
	if _, ok := linksCode(syms, "golang.org/x/image/font/gofont/gobold"); !ok {
		t.Error("Breakout's page does not link Go Bold, the face it draws: the check above cannot see a face")
	}
}
