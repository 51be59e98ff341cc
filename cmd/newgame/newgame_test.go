package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/metronome-go/metronome/templates"
)

// checkout is this repository's root, two levels up from the test.
func checkout(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestGeneratedProjectBuildsVetsAndPasses is the promise of newgame: the
// project it writes builds offline against this checkout, passes vet, and
// its own tests pass: the single-player game's headless test and replay,
// and the networked game's headless tests, sync-test and match of real
// processes on the loopback (for 4 players, all but the match, which the
// 2-player run covers).
func TestGeneratedProjectBuildsVetsAndPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds whole projects")
	}
	tests := []struct {
		dir, module string
		players     int
		files       []string
		testArgs    []string
		next        string
	}{
		{"space-dash", "example.com/spacedash", 1,
			[]string{"go.mod", "go.sum", "main.go", "systems.go", "game_test.go", "config.toml", "README.md", ".gitignore", "testdata/session.rec"},
			[]string{"test", "-count=1", "./..."}, "go test ./..."},
		{"tag-arena", "example.com/tagarena", 2,
			[]string{"go.mod", "go.sum", "main.go", "game.go", "play.go", "hud.go", "game_test.go", "match_test.go", "config.toml", "README.md", ".gitignore"},
			[]string{"test", "-count=1", "-v", "./..."}, "--host :7777"},
		{"four-corners", "example.com/fourcorners", 4,
			[]string{"main.go", "game.go", "match_test.go"},
			[]string{"test", "-count=1", "-short", "./..."}, "4 players at one keyboard"},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), tt.dir)
			var stdout, stderr bytes.Buffer
			args := []string{"-replace", checkout(t), "-players", fmt.Sprint(tt.players), dir}
			if code := run(args, &stdout, &stderr, true); code != 0 {
				t.Fatalf("newgame exited %d: %s", code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.next) {
				t.Errorf("newgame did not print the next commands (%q): %q", tt.next, stdout.String())
			}
			for _, f := range tt.files {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("generated project lacks %s: %v", f, err)
				}
			}
			gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
			if !strings.Contains(string(gomod), "module "+tt.module) || !strings.Contains(string(gomod), "replace "+frameworkModule+" => ") {
				t.Errorf("go.mod:\n%s", gomod)
			}
			for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}, tt.testArgs} {
				cmd := exec.Command("go", args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("go %s in the generated project: %v\n%s", strings.Join(args, " "), err, out)
				}
				if tt.players == 2 && args[0] == "test" {
					// The match of processes ran and passed: not skipped.
					if !bytes.Contains(out, []byte("--- PASS: TestMatchOfProcesses")) || !bytes.Contains(out, []byte("--- PASS: TestSyncTest")) {
						t.Errorf("the networked project's match or sync-test did not run:\n%s", out)
					}
				}
			}
			out, err := exec.Command("gofmt", "-l", dir).CombinedOutput()
			if err != nil || len(bytes.TrimSpace(out)) > 0 {
				t.Errorf("generated Go files are not gofmt-clean: %s %v", out, err)
			}
		})
	}
}

// The networked template seats each player on keys of its own, and a
// count of players outside 1 to 4 is refused, naming the range.
func TestPlayers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "three")
	if err := generate(config{Dir: dir, Replace: checkout(t), Players: 3}, "."); err != nil {
		t.Fatal(err)
	}
	game, _ := os.ReadFile(filepath.Join(dir, "game.go"))
	for _, want := range []string{"input.KeyA, input.KeyD", "input.KeyLeft, input.KeyRight", "input.KeyJ, input.KeyL"} {
		if !strings.Contains(string(game), want) {
			t.Errorf("game.go lacks the seat %q", want)
		}
	}
	if strings.Contains(string(game), "KeyKP4") {
		t.Error("game.go of 3 players has a fourth seat")
	}
	main, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	if !strings.Contains(string(main), "const players = 3") {
		t.Errorf("main.go does not declare 3 players")
	}
	if _, err := os.Stat(filepath.Join(dir, "systems.go")); err == nil {
		t.Error("the networked project has the single-player template's systems.go")
	}
	for _, n := range []string{"0", "5", "-1"} {
		var stderr bytes.Buffer
		code := run([]string{"-players", n, "-replace", checkout(t), filepath.Join(t.TempDir(), "g")}, &bytes.Buffer{}, &stderr, false)
		if code != 1 || !strings.Contains(stderr.String(), "--players "+n+": want 1") || !strings.Contains(stderr.String(), "to 4") {
			t.Errorf("-players %s: status %d, %q", n, code, stderr.String())
		}
	}
}

func TestRefusesNonEmptyDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "game")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := generate(config{Dir: dir, Replace: checkout(t)}, ".")
	if !errors.Is(err, ErrNotEmpty) || !strings.Contains(err.Error(), "notes.txt") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("generate into a non-empty directory: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("something was written: %d entries", len(entries))
	}
	if err := generate(config{Dir: dir, Replace: checkout(t), Force: true}, "."); err != nil {
		t.Fatalf("--force: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "main.go")); err != nil {
		t.Errorf("--force wrote no main.go: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(data) != "mine" {
		t.Error("--force touched an unrelated file")
	}
}

func TestAcceptsDirectoryWithOnlyGit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "game")
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := generate(config{Dir: dir, Replace: checkout(t)}, "."); err != nil {
		t.Fatalf("a directory holding only .git was refused: %v", err)
	}
}

func TestInvalidModulePath(t *testing.T) {
	for _, mod := range []string{"mygame", "example.com/My Game", "-x.com/a", "example.com//a"} {
		var stderr bytes.Buffer
		code := run([]string{"-module", mod, "-replace", checkout(t), filepath.Join(t.TempDir(), "g")}, &bytes.Buffer{}, &stderr, false)
		if code != 1 || !strings.Contains(stderr.String(), "invalid module path") || !strings.Contains(stderr.String(), "example.com/mygame") {
			t.Errorf("-module %q: status %d, %q", mod, code, stderr.String())
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "usage: newgame"},
		{[]string{"a", "b"}, "usage: newgame"},
		{[]string{"-version", "v1.0.0", "-replace", "/x", "g"}, "exclude each other"},
		{[]string{"-version", "1.0.0", filepath.Join(os.TempDir(), "newgame-never")}, "starts with v"},
		{[]string{"-replace", os.TempDir(), filepath.Join(os.TempDir(), "newgame-never")}, "is not a " + frameworkModule + " checkout"},
		{[]string{"---", "g"}, "bad flag syntax"},
		{[]string{"!!!"}, "needs at least one ASCII letter"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		if code := run(tt.args, &bytes.Buffer{}, &stderr, false); code == 0 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("args %q: status %d, stderr %q, want %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}

func TestFlagsAfterDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "late")
	if code := run([]string{dir, "-module", "example.org/late", "-replace", checkout(t)}, &bytes.Buffer{}, &bytes.Buffer{}, false); code != 0 {
		t.Fatalf("status %d", code)
	}
	gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if !strings.HasPrefix(string(gomod), "module example.org/late\n") {
		t.Errorf("go.mod: %s", gomod)
	}
}

func TestPublishedVersion(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rel")
	if err := generate(config{Dir: dir, Version: "v0.3.0"}, "/"); err != nil {
		t.Fatal(err)
	}
	gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if !strings.Contains(string(gomod), "require "+frameworkModule+" v0.3.0") || strings.Contains(string(gomod), "replace") {
		t.Errorf("go.mod for a published version:\n%s", gomod)
	}
}

func TestTemplatePathsCannotEscape(t *testing.T) {
	fsys := fstest.MapFS{"game/{{.Name}}.txt.tmpl": {Data: []byte("x\n")}}
	for _, name := range []string{"../evil", "../../etc/x", "/abs"} {
		_, err := plan(fsys, "game", templates.Data{Name: name})
		if err == nil || !strings.Contains(err.Error(), "outside the target directory") {
			t.Errorf("a template rendering to %q: %v", name, err)
		}
	}
	if _, err := outputName("{{.Name}}/../../up", templates.Data{Name: "a"}); err == nil {
		t.Error("a rendered name that climbs out was accepted")
	}
}

func TestGameName(t *testing.T) {
	tests := []struct{ dir, name, title string }{
		{"space-dash", "spacedash", "Space Dash"},
		{"/tmp/x/My_Game2", "mygame2", "My Game2"},
		{"3d-race", "drace", "3d Race"},
	}
	for _, tt := range tests {
		name, title, err := gameName(tt.dir)
		if err != nil || name != tt.name || title != tt.title {
			t.Errorf("gameName(%q) = %q, %q, %v; want %q, %q", tt.dir, name, title, err, tt.name, tt.title)
		}
	}
}

func TestTidyFailureIsExplained(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go mod tidy")
	}
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOMODCACHE", t.TempDir()) // an empty cache: nothing can resolve
	dir := filepath.Join(t.TempDir(), "offline")
	var stderr bytes.Buffer
	code := run([]string{"-replace", checkout(t), dir}, &bytes.Buffer{}, &stderr, true)
	msg := stderr.String()
	if code != 1 || !strings.Contains(msg, "'go mod tidy' failed") || !strings.Contains(msg, "module proxy could not be reached") {
		t.Fatalf("status %d, stderr:\n%s", code, msg)
	}
	if _, err := os.Stat(filepath.Join(dir, "main.go")); err != nil {
		t.Errorf("the project files should stay for a later tidy: %v", err)
	}
}

var update = flag.Bool("update", false, "record templates/game/testdata/session.rec anew from the template game")

// TestFixtureRecording regenerates the template's recording with -update:
// it generates a project, records the fixture there and copies it into the
// template tree. Without -update, the generated project's own
// TestReplayFixture (run by TestGeneratedProjectBuildsVetsAndPasses) checks
// that the fixture still replays.
func TestFixtureRecording(t *testing.T) {
	if !*update {
		t.Skip("run with -update to record the template's fixture anew")
	}
	dir := filepath.Join(t.TempDir(), "fixture-game")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-replace", checkout(t), dir}, &stdout, &stderr, true); code != 0 {
		t.Fatalf("newgame exited %d: %s", code, stderr.String())
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "TestReplayFixture", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "RECORD_FIXTURE=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("recording the fixture: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "testdata", "session.rec"))
	if err != nil {
		t.Fatal(err)
	}
	out, ticks, hash, err := rewriteRecording(data, "session.rec", "example.com/template", "Template")
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(checkout(t), "templates", "game", "testdata", "session.rec")
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d ticks, %d bytes, final hash %#x", dst, ticks, len(out), hash)
}
