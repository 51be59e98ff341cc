package audio_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/media"
)

func fuzzSeeds(f *testing.F) {
	wav := wavBytes(f, tone(f, 8000, 5*time.Millisecond))
	ogg, _ := os.ReadFile("testdata/tone.ogg")
	mp3, _ := os.ReadFile("testdata/tone.mp3")
	for _, d := range [][]byte{wav, ogg, mp3} {
		f.Add(d)
		f.Add(d[:len(d)/2])
		f.Add(d[:min(len(d), 64)])
	}
	f.Add(rawWAV(0xFFFE, 2, 24, 96000, make([]byte, 12)))
	f.Add([]byte("ID3\x04\x00\x00\x00\x00\x00\x10\xff\xfb"))
}

// checkErr requires a decoding failure to be a *media.Error that names
// the file and wraps one of the package's sentinels.
func checkErr(t *testing.T, err error, name string) {
	if err == nil {
		return
	}
	var ae *media.Error
	if !errors.As(err, &ae) || ae.Path != name || !strings.Contains(err.Error(), name) {
		t.Fatalf("error %v does not name %s", err, name)
	}
	if !errors.Is(err, media.ErrCorrupt) && !errors.Is(err, media.ErrUnsupported) && !errors.Is(err, media.ErrTooLarge) {
		t.Fatalf("error %v wraps no audio sentinel", err)
	}
}

func FuzzDecodeSound(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := audio.DecodeSound("fuzz.snd", data)
		checkErr(t, err, "fuzz.snd")
		if err == nil {
			if s.Frames() == 0 || s.Frames() > audio.MaxSoundFrames {
				t.Fatalf("decoded %d frames", s.Frames())
			}
			for i, v := range s.Samples() {
				if !(v >= -1 && v <= 1) {
					t.Fatalf("sample %d = %g, outside [-1, 1]", i, v)
				}
			}
		}
	})
}

func FuzzStream(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		o := options()
		o.StreamBuffer = 20 * time.Millisecond
		m := newMixer(t, o)
		st, err := m.Player().OpenStream(fstest.MapFS{"fuzz.snd": {Data: data}}, "fuzz.snd")
		checkErr(t, err, "fuzz.snd")
		if err != nil {
			return
		}
		defer st.Close()
		p := audio.DefaultParams()
		p.Loop = true
		if _, err := m.Player().PlayStream(st, atFrame(0), p); err != nil {
			t.Fatal(err)
		}
		buf := make([]float32, 2*480)
		for range 20 {
			m.Pump()
			m.Render(buf)
			for i, v := range buf {
				if !(v >= -1 && v <= 1) {
					t.Fatalf("sample %d = %g, outside [-1, 1]", i, v)
				}
			}
		}
		checkErr(t, st.Err(), "fuzz.snd")
	})
}
