package testdisplay_test

import (
	"os"
	goruntime "runtime"
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
	if goruntime.GOOS != "linux" {
		if d.Name != "" || d.Started() {
			t.Fatalf("off Linux: display %q, started %v; want the desktop (no name, nothing started)", d.Name, d.Started())
		}
		return
	}
	if d.Name == "" || os.Getenv("DISPLAY") != d.Name {
		t.Fatalf("DISPLAY = %q, display name %q", os.Getenv("DISPLAY"), d.Name)
	}
}
