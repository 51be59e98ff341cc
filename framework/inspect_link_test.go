package framework

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A browser build leaves the inspector out: it is an HTTP server a page
// cannot run, and it linked net/http and crypto/tls into every module.
func TestAPageLinksNoInspector(t *testing.T) {
	if testing.Short() {
		t.Skip("lists packages with go list")
	}
	const module = "github.com/metronome-go/metronome"
	for _, pkg := range []string{module + "/framework", module + "/examples/breakout"} {
		cmd := exec.Command("go", "list", "-deps", pkg)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps %s for js/wasm: %v", pkg, err)
		}
		for p := range strings.FieldsSeq(string(out)) {
			if p == "net/http" || p == "crypto/tls" || p == module+"/inspect" {
				t.Errorf("%s for js/wasm links %s", pkg, p)
			}
		}
	}
}
