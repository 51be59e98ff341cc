package recording_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/recording"
)

// TestOpenErrorNamesTheFileOnce: a file that cannot be opened is named
// once ("recording: x.rec: open x.rec: ..." used to name it twice), and
// the error still says why with errors.Is.
func TestOpenErrorNamesTheFileOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.rec")
	_, err := recording.Open(path)
	if err == nil {
		t.Fatal("Open of a missing file: no error")
	}
	if got, want := err.Error(), "recording: "+path+": open: "; !strings.HasPrefix(got, want) || strings.Count(got, path) != 1 {
		t.Errorf("Open of a missing file: got %q, want it to start %q and name the file once", got, want)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing file: %v is not fs.ErrNotExist", err)
	}
}
