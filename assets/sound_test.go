package assets_test

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/media"
)

// beep makes a short generated sound.
func beep(t testing.TB, name string, freq float64) *audio.Sound {
	t.Helper()
	s, err := audio.Synth{Wave: audio.Sine, Freq: freq, Amplitude: 0.5, Duration: 10 * time.Millisecond, Rate: 48000}.Sound(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func wavOf(t testing.TB, s *audio.Sound) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := audio.EncodeWAV(&b, s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func newLibrary(t testing.TB) *assets.Library {
	t.Helper()
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

func TestLoadSound(t *testing.T) {
	src := beep(t, "src", 440)
	fsys := fstest.MapFS{"sfx/beep.wav": {Data: wavOf(t, src)}}
	lib := newLibrary(t)
	h, err := lib.LoadSound(fsys, "sfx/beep.wav")
	if err != nil {
		t.Fatal(err)
	}
	if h.IsZero() {
		t.Fatal("LoadSound returned the zero handle")
	}
	s, err := lib.AudioSound(h)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name() != "sfx/beep.wav" || s.Rate() != 48000 || s.Channels() != 1 || s.Frames() != src.Frames() {
		t.Errorf("sound %q %d Hz, %d channels, %d frames; want sfx/beep.wav 48000 Hz, 1 channel, %d frames",
			s.Name(), s.Rate(), s.Channels(), s.Frames(), src.Frames())
	}
	if name, err := lib.SoundName(h); err != nil || name != "sfx/beep.wav" {
		t.Errorf("SoundName = %q, %v; want sfx/beep.wav", name, err)
	}
	if got := lib.SoundCount(); got != 1 {
		t.Errorf("SoundCount = %d, want 1", got)
	}
}

// A file that cannot be loaded fails with a *media.Error of this package
// naming it and wrapping the sentinel the audio package found; the library
// is left as it was.
func TestLoadSoundErrorsNameTheFile(t *testing.T) {
	good := wavOf(t, beep(t, "good", 440))
	fsys := fstest.MapFS{
		"sfx/garbage.wav":   {Data: []byte("this is not a sound file at all")},
		"sfx/truncated.wav": {Data: good[:60]},
		"sfx/tiny.ogg":      {Data: []byte("Og")},
		"sfx/fake.ogg":      {Data: append([]byte("OggS"), make([]byte, 64)...)},
		"sfx/dir/x.wav":     {Data: good},
	}
	tests := []struct {
		name     string
		sentinel error
	}{
		{"sfx/garbage.wav", media.ErrUnsupported},
		{"sfx/truncated.wav", media.ErrCorrupt},
		{"sfx/tiny.ogg", media.ErrCorrupt},
		{"sfx/fake.ogg", media.ErrCorrupt},
		{"sfx/missing.wav", fs.ErrNotExist},
		{"sfx/dir", media.ErrInvalid},
	}
	lib := newLibrary(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := lib.LoadSound(fsys, tt.name)
			if err == nil {
				t.Fatalf("LoadSound(%s) = %v, want an error", tt.name, h)
			}
			var e *media.Error
			if !errors.As(err, &e) || e.Pkg != "assets" || e.Path != tt.name || e.Op != "load sound" {
				t.Fatalf("error %v (%T), want an assets *media.Error for load sound %s", err, err, tt.name)
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("error %v: errors.Is %v = false, want true", err, tt.sentinel)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "assets: load sound "+tt.name+": ") {
				t.Errorf("message %q, want it to start with assets: load sound %s:", msg, tt.name)
			}
			if tt.sentinel != fs.ErrNotExist && strings.Count(msg, tt.name) != 1 { // io/fs names it again
				t.Errorf("message %q names the file more than once", msg)
			}
			if !h.IsZero() {
				t.Errorf("failed load returned handle %v, want the zero handle", h)
			}
		})
	}
	if got := lib.SoundCount(); got != 0 {
		t.Errorf("SoundCount after failed loads = %d, want 0", got)
	}
}

func TestSoundHandles(t *testing.T) {
	fsys := fstest.MapFS{"a.wav": {Data: wavOf(t, beep(t, "a", 440))}}
	lib := newLibrary(t)
	a, err := lib.LoadSound(fsys, "a.wav")
	if err != nil {
		t.Fatal(err)
	}
	made, err := lib.AddSound(beep(t, "synth/blip", 880))
	if err != nil {
		t.Fatal(err)
	}
	if a == made {
		t.Fatal("two sounds share a handle")
	}
	old, _ := lib.AudioSound(a)

	// Reload: a new handle for new samples, the old one stale.
	fsys["a.wav"] = &fstest.MapFile{Data: wavOf(t, beep(t, "a", 220))}
	a2, err := lib.ReloadSound(a)
	if err != nil {
		t.Fatal(err)
	}
	if a2 == a {
		t.Fatal("ReloadSound returned the same handle")
	}
	if _, err := lib.AudioSound(a); !errors.Is(err, assets.ErrStale) {
		t.Errorf("old handle after reload: %v, want ErrStale", err)
	}
	if s, err := lib.AudioSound(a2); err != nil || s == old {
		t.Errorf("new handle: %v, %v; want the reloaded sound", s, err)
	}

	// A failed reload keeps the handle.
	fsys["a.wav"] = &fstest.MapFile{Data: []byte("RIFF\x00\x00\x00\x00WAVEjunk")}
	if got, err := lib.ReloadSound(a2); !errors.Is(err, media.ErrCorrupt) || got != a2 {
		t.Errorf("failed reload = %v, %v; want the same handle and ErrCorrupt", got, err)
	}
	if _, err := lib.AudioSound(a2); err != nil {
		t.Errorf("handle after a failed reload: %v, want it still valid", err)
	}

	// In-memory sounds have no file.
	if got, err := lib.ReloadSound(made); !errors.Is(err, media.ErrInvalid) || got != made || !strings.Contains(err.Error(), "synth/blip") {
		t.Errorf("reload of an added sound = %v, %v; want the same handle and ErrInvalid naming synth/blip", got, err)
	}

	// Release.
	if err := lib.ReleaseSound(made); err != nil {
		t.Fatal(err)
	}
	if err := lib.ReleaseSound(made); !errors.Is(err, assets.ErrStale) {
		t.Errorf("second release: %v, want ErrStale", err)
	}
	if _, err := lib.AudioSound(made); !errors.Is(err, assets.ErrStale) {
		t.Errorf("released handle: %v, want ErrStale", err)
	}
	// A slot reused after a release does not answer to the old handle.
	again, err := lib.AddSound(beep(t, "again", 660))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lib.AudioSound(made); !errors.Is(err, assets.ErrStale) || again == made {
		t.Errorf("old handle after its slot was reused: %v (new %v, old %v), want ErrStale", err, again, made)
	}
	if _, err := lib.AudioSound(assets.Sound{}); !errors.Is(err, assets.ErrStale) {
		t.Errorf("zero handle: %v, want ErrStale", err)
	}
	if _, err := lib.AddSound(nil); !errors.Is(err, media.ErrInvalid) {
		t.Errorf("AddSound(nil): %v, want ErrInvalid", err)
	}
	if got := lib.SoundCount(); got != 2 {
		t.Errorf("SoundCount = %d, want 2", got)
	}
}

// Sounds and images live side by side; loading one leaves the other's
// counters alone.
func TestSoundsBesideImages(t *testing.T) {
	lib := newLibrary(t)
	if _, err := lib.AddSound(beep(t, "s", 440)); err != nil {
		t.Fatal(err)
	}
	if st := lib.Stats(); st.Images != 0 || st.Pages != 0 {
		t.Errorf("stats after a sound: %+v, want no image and no page", st)
	}
}

// Decoding damaged data never panics and always names the file.
func FuzzLoadSound(f *testing.F) {
	good := wavOf(f, beep(f, "seed", 440))
	f.Add(good)
	f.Add(good[:50])
	f.Add([]byte("OggS"))
	f.Add([]byte("ID3\x04\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lib := newLibrary(t)
		h, err := lib.LoadSound(fstest.MapFS{"f.snd": {Data: data}}, "f.snd")
		if err != nil {
			var e *media.Error
			if !errors.As(err, &e) || e.Path != "f.snd" {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		if _, err := lib.AudioSound(h); err != nil {
			t.Fatal(err)
		}
	})
}
