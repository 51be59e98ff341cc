package testdisplay_test

import (
	"os"
	"testing"

	"github.com/metronome-go/metronome/internal/testdisplay"
)

func TestStart(t *testing.T) {
	old := os.Getenv("DISPLAY")
	defer os.Setenv("DISPLAY", old)
	d, err := testdisplay.Start()
	if err != nil {
		testdisplay.Unavailable(t, err)
	}
	defer d.Close()
	if d.Name == "" || os.Getenv("DISPLAY") != d.Name {
		t.Fatalf("DISPLAY = %q, display name %q", os.Getenv("DISPLAY"), d.Name)
	}
}
