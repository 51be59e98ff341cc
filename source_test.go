package metronome_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome"
)

const module = "github.com/metronome-go/metronome"

// leftOut are the framework's packages whose source the identity does not
// hash, each with why: they draw, sound, poll devices, record or
// compute the identity, and cannot change a world's state.
var leftOut = map[string]string{
	"":                          "this package: the list of what is embedded",
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
	"internal/xvfb":             "starts an X server",
	"internal/suggest":          "spelling suggestions in error messages",
	"internal/srcid":            "computes the identity",
	"input/glfwinput":           "GLFW's input devices (inputs cross the network as values)",
	"runtime/glfwplatform":      "the desktop window",
	"runtime/webplatform":       "the browser page",
}

// Every package of the framework a game links, on any platform, is either
// in Source or left out for a stated reason; so a new package is hashed or
// classed here, never forgotten. Every file of Source is a package's Go
// file, so a pattern cannot quietly embed something else.
func TestSourceCoversTheSimulationPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the framework's packages for four platforms")
	}
	embedded := map[string]bool{}
	err := fs.WalkDir(metronome.Source(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if path.Ext(p) != ".go" {
			t.Errorf("Source holds %s, not a Go file", p)
		}
		embedded[path.Dir(p)] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, env := range [][]string{{"CGO_ENABLED=1"}, {"CGO_ENABLED=0"}, {"GOOS=windows"}, {"GOOS=js", "GOARCH=wasm"}} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, "go", "list", "-deps", "./framework")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("go list %v: %v", env, err)
		}
		for p := range strings.FieldsSeq(string(out)) {
			if p == module {
				linked[""] = true
			} else if rel, ok := strings.CutPrefix(p, module+"/"); ok {
				linked[rel] = true
			}
		}
	}
	for p := range linked {
		_, out := leftOut[p]
		switch {
		case embedded[p] && out:
			t.Errorf("%s is both in Source and left out (%s)", p, leftOut[p])
		case !embedded[p] && !out:
			t.Errorf("package %s is linked into games but neither in Source (source.go's go:embed) nor left out for a reason (leftOut)", p)
		}
	}
	for p := range embedded {
		if !linked[p] {
			t.Errorf("Source holds %s, which no game links", p)
		}
	}
	for p := range leftOut {
		if !linked[p] {
			t.Errorf("leftOut names %s, which no game links", p)
		}
	}
}

// Source holds the framework's simulation source as it was built.
func ExampleSource() {
	data, err := fs.ReadFile(metronome.Source(), "schedule/doc.go")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Contains(string(data), "package schedule"))
	// Output: true
}
