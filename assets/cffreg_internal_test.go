package assets

import (
	"errors"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/assets/internal/cffont"
	"github.com/metronome-go/metronome/media"
)

// TestCFFNeedsItsPackage: a game that does not import assets/cff links no
// CFF reader, and a font with CFF outlines is refused with an error that
// names the package to import, not read as a corrupt TrueType file.
func TestCFFNeedsItsPackage(t *testing.T) {
	saved := cffont.Parse
	cffont.Parse = nil
	defer func() { cffont.Parse = saved }()
	_, err := parseFont("face.otf", []byte("OTTO\x00\x01\x00\x00 and the rest of a font"))
	if !errors.Is(err, media.ErrUnsupported) || !strings.Contains(err.Error(), `import _ "github.com/metronome-go/metronome/assets/cff"`) {
		t.Errorf("a CFF font without assets/cff: got %v, want ErrUnsupported naming the package to import", err)
	}
}
