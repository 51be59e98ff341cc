package recording_test

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/metronome-go/metronome/recording"
)

// TestOpenRefusesNonFiles: a FIFO would block Open for ever and a device
// never ends; neither is a recording.
func TestOpenRefusesNonFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{t.TempDir(), fifo, "/dev/zero"} {
		r, err := recording.Open(p)
		if r != nil {
			r.Close()
		}
		if !errors.Is(err, recording.ErrNotRecording) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Open(%s): got %v, want it refused as not a regular file", p, err)
		}
	}
}
