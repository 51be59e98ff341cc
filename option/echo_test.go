package option_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/option"
)

func TestEcho(t *testing.T) {
	long := strings.Repeat("A", 900_000)
	for _, tc := range []struct{ in, want string }{
		{"fixed", "fixed"},
		{`"Breakout"`, `"Breakout"`},
		{strings.Repeat("x", option.EchoLimit), strings.Repeat("x", option.EchoLimit)},
		{long, `"AAAAAAAAAAAAAAAAAAAAAAAA…" (900,000 bytes)`},
		{`"` + long + `"`, `"AAAAAAAAAAAAAAAAAAAAAAAA…" (900,000 bytes)`},
		{strings.Repeat("9", 100_000), `"999999999999999999999999…" (100,000 bytes)`},
		{strings.Repeat("x", 65), `"xxxxxxxxxxxxxxxxxxxxxxxx…" (65 bytes)`},
		// Cut at a character: 23 bytes of x, then a two-byte é.
		{strings.Repeat("x", 23) + strings.Repeat("é", 40), `"xxxxxxxxxxxxxxxxxxxxxxx…" (103 bytes)`},
	} {
		if got := option.Echo(tc.in); got != tc.want {
			t.Errorf("Echo(%.40q…): got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestErrorCutsItsValue: an option error repeats a long value cut.
func TestErrorCutsItsValue(t *testing.T) {
	e := &option.Error{Pkg: "window", Field: "Options.Title", Value: strings.Repeat("A", 900_000), Problem: "is too long", Allowed: "at most 1024 bytes"}
	want := `window: Options.Title "AAAAAAAAAAAAAAAAAAAAAAAA…" (900,000 bytes) is too long; allowed: at most 1024 bytes`
	if got := e.Error(); got != want {
		t.Errorf("got %.200q, want %q", got, want)
	}
}
