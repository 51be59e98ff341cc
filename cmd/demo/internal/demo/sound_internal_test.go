package demo

import (
	"strings"
	"testing"
)

// A long reason for silence (a backend listing every device it tried) is
// cut to one overlay line; a short one is shown whole.
func TestAudioLineCutsALongReason(t *testing.T) {
	long := audioLine{Off: strings.Repeat("x", 200)}
	got := string(appendAudioLine(nil, &long))
	if want := "audio: off (" + strings.Repeat("x", maxOffReason) + "...), requests 0 (silent)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	short := audioLine{Off: "audio.enabled = false"}
	if got, want := string(appendAudioLine(nil, &short)), "audio: off (audio.enabled = false), requests 0 (silent)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
