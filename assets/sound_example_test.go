package assets_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing/fstest"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/media"
)

// Sounds load from any fs.FS into generation-checked handles; a damaged
// file's error names it.
func ExampleLibrary_LoadSound() {
	lib, _ := assets.NewLibrary(assets.DefaultOptions())
	blip, _ := audio.Synth{Wave: audio.Square, Freq: 660, Amplitude: 0.3, Duration: 50 * time.Millisecond, Rate: 48000}.Sound("blip")
	var wav bytes.Buffer
	audio.EncodeWAV(&wav, blip)
	gameFS := fstest.MapFS{
		"sfx/blip.wav":   {Data: wav.Bytes()},
		"sfx/broken.wav": {Data: wav.Bytes()[:40]},
	}

	h, err := lib.LoadSound(gameFS, "sfx/blip.wav")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _ := lib.AudioSound(h) // what audio.Player.Play takes
	fmt.Println(h, s.Name(), s.Duration())

	_, err = lib.LoadSound(gameFS, "sfx/broken.wav")
	var e *media.Error
	fmt.Println(errors.As(err, &e), e.Path, errors.Is(err, media.ErrCorrupt))
	// Output:
	// sound 1 gen 1 sfx/blip.wav 50ms
	// true sfx/broken.wav true
}
