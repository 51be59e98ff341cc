package input_test

import (
	"testing"

	"github.com/metronome-go/metronome/input"
)

func TestSizeText(t *testing.T) {
	var s input.Size
	if err := s.UnmarshalText([]byte(" 1280 x 720 ")); err != nil || s != (input.Size{Width: 1280, Height: 720}) {
		t.Errorf("UnmarshalText = %v, %v", s, err)
	}
	if b, _ := s.MarshalText(); string(b) != "1280x720" {
		t.Errorf("MarshalText = %q, want 1280x720", b)
	}
	for _, bad := range []string{"1280", "1280:720", "wide x 720", ""} {
		if err := s.UnmarshalText([]byte(bad)); err == nil || err.Error() != `input: want a size string "WxH" such as "1280x720"` {
			t.Errorf("UnmarshalText(%q) = %v", bad, err)
		}
	}
}
