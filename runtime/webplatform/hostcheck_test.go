//go:build js && wasm

package webplatform_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework"
)

// TestPageRefusesHost: in the browser build --host (and --dedicated with
// it) is refused, saying why and what to do instead, before a page waits
// for players who cannot reach it; --join still validates.
func TestPageRefusesHost(t *testing.T) {
	for _, f := range []framework.Flags{
		{Host: "127.0.0.1:7777"},
		{Host: ":7777", Dedicated: true},
	} {
		err := f.Validate()
		if err == nil {
			t.Fatalf("Validate(%+v) in a page: nil, want a refusal", f)
		}
		for _, want := range []string{"--host in a web page", "cannot host", "desktop build", "lobby"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("Validate(%+v) in a page: %q does not say %q", f, err, want)
			}
		}
	}
	if f := (framework.Flags{Join: "127.0.0.1:7777", Token: "t"}); f.Validate() != nil {
		t.Errorf("Validate(%+v) in a page: %v, want nil", f, f.Validate())
	}
}
