package framework_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework"
)

// TestHostCheck: a page (the browser build) refuses --host and
// --dedicated, saying why and what to do instead; the desktop hosts, and
// a page may still --join. runtime/webplatform's TestPageRefusesHost runs
// the same through Validate under Node.js.
func TestHostCheck(t *testing.T) {
	for _, f := range []framework.Flags{{Host: "127.0.0.1:7777"}, {Host: ":7777", Dedicated: true}} {
		if err := f.ValidateHost(false); err != nil {
			t.Errorf("on the desktop, --host %q: %v, want nil", f.Host, err)
		}
		err := f.ValidateHost(true)
		if err == nil {
			t.Fatalf("in a page, --host %q: nil, want a refusal", f.Host)
		}
		for _, want := range []string{"--host in a web page", "cannot host", "desktop build", "lobby"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("in a page, --host %q: %q does not say %q", f.Host, err, want)
			}
		}
	}
	f := framework.Flags{Join: "127.0.0.1:7777", Token: "t"}
	if err := f.ValidateHost(true); err != nil {
		t.Errorf("in a page, --join: %v, want nil", err)
	}
}
