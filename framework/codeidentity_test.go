package framework_test

import (
	"bufio"
	"context"
	"embed"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
)

// Two made-up game sources: identity.go, and identity.go with game.go.
var (
	//go:embed identity.go
	oneSource embed.FS
	//go:embed identity.go game.go
	otherSource embed.FS
)

// A game's source decides its identity's version; without it the version
// is the build stamp's and the identity says, at --host and --join, that
// it cannot tell two builds of one stamp apart.
func TestTheGamesSourceIsInItsIdentity(t *testing.T) {
	cfg, err := config.Build(config.Layers{Sets: []string{"timing.mode=fixed"}})
	if err != nil {
		t.Fatal(err)
	}
	identity := func(g framework.Game) (string, string) {
		t.Helper()
		var w strings.Builder
		id, err := framework.MatchIdentity(g, cfg, &w)
		if err != nil {
			t.Fatal(err)
		}
		return id.Version, w.String()
	}
	g := netGame()
	g.Source = oneSource
	one, warned := identity(g)
	if !strings.HasPrefix(one, "simulation code ") || warned != "" {
		t.Errorf("with its source: version %q, warnings %q; want simulation code and none", one, warned)
	}
	g.Source = otherSource
	if other, _ := identity(g); other == one {
		t.Errorf("two sources, one version %q", one)
	}
	g.Source = embed.FS{}
	stamp, warned := identity(g)
	if !strings.HasPrefix(stamp, "build stamp ") || !strings.Contains(warned, "warning: the match identity knows this game's own code by its build stamp only") ||
		!strings.Contains(warned, "Game.Source") {
		t.Errorf("without its source: version %q, warnings %q; want the build stamp and a warning naming Game.Source", stamp, warned)
	}
}

var (
	joinCommand = regexp.MustCompile(`--join (\S+) --token (\S+)`)
	confirmed   = regexp.MustCompile(`confirmed tick \d+ hash [0-9a-f]{16}`)
)

// A copy of the duel with one constant changed (a ship's radius), built
// as an unstamped (devel) build like the original, is refused by a host
// of the original with a message saying the two differ; a build of the
// duel's own source with other flags (-trimpath, VCS stamps) plays a
// match with it. Real processes on loopback, killed two minutes after
// the builds (which take what they take on a loaded machine) whatever
// happens.
func TestADuelOfOtherCodeIsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three duels and starts four processes")
	}
	dir := t.TempDir()
	duel := filepath.Join("..", "examples", "duel")
	orig := goBuild(t, duel, filepath.Join(dir, "orig"), "-buildvcs=false")
	twin := goBuild(t, duel, filepath.Join(dir, "twin"), "-trimpath", "-buildvcs=true")
	other := goBuild(t, copyDuel(t, filepath.Join(dir, "copy"), "shipRadius = 14", "shipRadius = 15"), filepath.Join(dir, "other"), "-buildvcs=false")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	common := []string{"--headless", "--ticks", "120", "--set", "audio.enabled=false", "--set", "net.join_timeout=30s"}

	host, addr, token := startHosting(t, ctx, orig, common)
	var stderr strings.Builder
	join := exec.CommandContext(ctx, other, append([]string{"--join", addr, "--token", token}, common...)...)
	join.Stderr = &stderr
	out, err := join.Output()
	host.Process.Kill()
	host.Wait()
	msg := stderr.String()
	if err == nil || !strings.Contains(msg, "refused") || !strings.Contains(msg, "different version of Duel") || strings.Count(msg, `"simulation code `) != 2 {
		t.Fatalf("the copy of other code joined: %v\nstdout: %s\nstderr: %s\nwant it refused, both builds' simulation code named", err, out, msg)
	}
	t.Logf("refused: %s", strings.TrimSpace(msg))

	host, addr, token = startHosting(t, ctx, orig, common)
	join = exec.CommandContext(ctx, twin, append([]string{"--join", addr, "--token", token}, common...)...)
	stderr.Reset()
	join.Stderr = &stderr
	joined, err := join.Output()
	if err != nil {
		host.Process.Kill()
		host.Wait()
		t.Fatalf("the duel's own source, built with -trimpath: %v\n%s", err, stderr.String())
	}
	hosted, err := host.out()
	if err != nil {
		t.Fatalf("host: %v", err)
	}
	h, j := confirmed.FindString(hosted), confirmed.FindString(string(joined))
	if h == "" || h != j {
		t.Fatalf("host and twin end apart: %q and %q", h, j)
	}
	t.Logf("the twin build played: %s", h)
}

// goBuild builds the main package in pkg into bin with flags added and
// returns bin. It has no deadline of its own: a build on a loaded machine
// is progress, bounded by the test binary's -timeout.
func goBuild(t *testing.T, pkg, bin string, flags ...string) string {
	t.Helper()
	cmd := exec.Command("go", append(append([]string{"build", "-o", bin}, flags...), ".")...)
	cmd.Dir = pkg
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// copyDuel copies the duel's Go files (not its tests) and config.toml to
// dir as a module of its own that builds against this checkout, with old
// replaced by new in one file, and returns dir.
func copyDuel(t *testing.T, dir, old, new string) string {
	t.Helper()
	checkout, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(checkout, "examples", "duel")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasSuffix(name, "_test.go") || !strings.HasSuffix(name, ".go") && name != "config.toml" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if s := string(data); strings.Contains(s, old) {
			data = []byte(strings.Replace(s, old, new, 1))
			changed++
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if changed != 1 {
		t.Fatalf("%q is in %d of the duel's files, want 1", old, changed)
	}
	sum, err := os.ReadFile(filepath.Join(checkout, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	mod := "module example.com/duel\n\ngo 1.26.0\n\nrequire github.com/metronome-go/metronome v0.0.0\n\nreplace github.com/metronome-go/metronome => " + checkout + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// hosting is a started host process.
type hosting struct {
	*exec.Cmd
	rest chan string // the output after the join line, once the host ends
}

// out waits for the host to end and returns its output after the join
// line.
func (h hosting) out() (string, error) {
	rest := <-h.rest
	return rest, h.Wait()
}

// startHosting starts bin --host on loopback with args and reads its
// output up to the join line, returning the join address and token.
func startHosting(t *testing.T, ctx context.Context, bin string, args []string) (h hosting, addr, token string) {
	t.Helper()
	h = hosting{Cmd: exec.CommandContext(ctx, bin, append([]string{"--host", "127.0.0.1:0"}, args...)...), rest: make(chan string, 1)}
	var stderr strings.Builder
	h.Stderr = &stderr
	stdout, err := h.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if m := joinCommand.FindStringSubmatch(lines.Text()); m != nil {
			addr, token = m[1], m[2]
			break
		}
	}
	if addr == "" {
		h.Wait()
		t.Fatalf("the host printed no join command: %s", stderr.String())
	}
	go func() {
		var rest strings.Builder
		for lines.Scan() {
			rest.WriteString(lines.Text() + "\n")
		}
		h.rest <- rest.String()
	}()
	return h, addr, token
}
