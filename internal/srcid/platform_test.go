package srcid_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/internal/srcid"
)

// platform is a GOOS/GOARCH pair, with or without cgo.
type platform struct{ goos, goarch, cgo string }

func (p platform) env() []string {
	return append(os.Environ(), "GOOS="+p.goos, "GOARCH="+p.goarch, "CGO_ENABLED="+p.cgo)
}

func (p platform) String() string { return p.goos + "/" + p.goarch + " cgo=" + p.cgo }

// The modules the identity leaves out are exactly those the framework
// and its WebRTC network link on some platforms but not all: leaving out one that every
// platform links would hide a simulation module's version, and hashing
// one that some platform lacks would split a game's native and browser
// builds.
func TestPlatformModules(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the framework's packages for five platforms")
	}
	count := map[string]int{}
	platforms := []platform{{"linux", "amd64", "1"}, {"linux", "arm64", "0"}, {"windows", "amd64", "1"}, {"darwin", "arm64", "1"}, {"js", "wasm", "0"}}
	for _, p := range platforms {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", srcid.FrameworkModule+"/framework", srcid.FrameworkModule+"/rollback/netplay/webrtc")
		cmd.Env = p.env()
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("go list for %v: %v", p, err)
		}
		seen := map[string]bool{}
		for m := range strings.FieldsSeq(string(out)) {
			if !seen[m] {
				seen[m] = true
				count[m]++
			}
		}
	}
	var some []string
	for m, n := range count {
		if n < len(platforms) && m != srcid.FrameworkModule {
			some = append(some, m)
		}
	}
	slices.Sort(some)
	if got := srcid.PlatformModules(); !slices.Equal(got, some) {
		t.Errorf("the identity leaves out %q;\nthe framework links on some platforms only %q", got, some)
	}
}

// The same source has one identity on linux/amd64 (with cgo: GLFW and
// OpenGL linked), linux/arm64 without cgo (under qemu) and js/wasm (under
// Node.js): testdata/printid computes it in each build as a game does.
func TestSameIdentityOnEveryPlatform(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program for three platforms")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	runs := []struct {
		p    platform
		tool string // the program that runs the binary, "" for none
		args []string
	}{
		{platform{"linux", "amd64", "1"}, "", nil},
		{platform{"linux", "arm64", "0"}, "qemu-aarch64-static", nil},
		{platform{"js", "wasm", "0"}, "node", []string{filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec_node.js")}},
	}
	var first string
	for i, r := range runs {
		if r.tool != "" {
			if _, err := exec.LookPath(r.tool); err != nil {
				if os.Getenv("CI") == "true" {
					t.Fatalf("%v: no %s on PATH (scripts/setup.sh installs it)", r.p, r.tool)
				}
				t.Logf("%v: no %s on PATH: not compared", r.p, r.tool)
				continue
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		bin := filepath.Join(dir, "printid"+string(rune('0'+i)))
		build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./testdata/printid")
		build.Env = r.p.env()
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build for %v: %v\n%s", r.p, err, out)
		}
		run := exec.CommandContext(ctx, bin)
		if r.tool != "" {
			run = exec.CommandContext(ctx, r.tool, append(r.args, bin)...)
		}
		out, err := run.Output()
		if err != nil {
			t.Fatalf("printid on %v: %v", r.p, err)
		}
		got := strings.TrimSpace(string(out))
		t.Logf("%v: %s", r.p, got)
		if !strings.HasPrefix(got, "simulation code ") || !strings.HasSuffix(got, "unsummed [] warnings 0") {
			t.Errorf("%v: %q, want an exact identity with no warning", r.p, got)
		}
		if first == "" {
			first = got
		} else if got != first {
			t.Errorf("%v: %s\n%v: %s", r.p, got, runs[0].p, first)
		}
	}
}
