package audio_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/media"
)

func tone(t testing.TB, rate int, d time.Duration) *audio.Sound {
	t.Helper()
	s, err := audio.Synth{Wave: audio.Sine, Freq: 440, Amplitude: 0.5, Duration: d, Rate: rate}.Sound("tone")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func wavBytes(t testing.TB, s *audio.Sound) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := audio.EncodeWAV(&b, s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// rawWAV builds a WAV file by hand: format tag, channels, bits, and the
// sample bytes.
func rawWAV(tag uint16, channels, bits, rate int, data []byte, extra ...[]byte) []byte {
	le := binary.LittleEndian
	var b bytes.Buffer
	fmtLen := 16
	if tag == 0xFFFE {
		fmtLen = 40
	}
	b.WriteString("RIFF")
	binary.Write(&b, le, uint32(4+8+fmtLen+8+len(data)))
	b.WriteString("WAVE")
	for _, e := range extra {
		b.Write(e)
	}
	b.WriteString("fmt ")
	binary.Write(&b, le, uint32(fmtLen))
	binary.Write(&b, le, tag)
	binary.Write(&b, le, uint16(channels))
	binary.Write(&b, le, uint32(rate))
	binary.Write(&b, le, uint32(rate*channels*bits/8))
	binary.Write(&b, le, uint16(channels*bits/8))
	binary.Write(&b, le, uint16(bits))
	if tag == 0xFFFE {
		binary.Write(&b, le, uint16(22))
		binary.Write(&b, le, uint16(bits))
		binary.Write(&b, le, uint32(3))
		binary.Write(&b, le, uint16(1)) // PCM sub-format
		b.Write(make([]byte, 14))
	}
	b.WriteString("data")
	binary.Write(&b, le, uint32(len(data)))
	b.Write(data)
	return b.Bytes()
}

func TestDecodeWAVFormats(t *testing.T) {
	le := binary.LittleEndian
	f32 := make([]byte, 8)
	le.PutUint32(f32, math.Float32bits(0.5))
	le.PutUint32(f32[4:], math.Float32bits(float32(math.NaN())))
	f64 := make([]byte, 16)
	le.PutUint64(f64, math.Float64bits(-0.25))
	le.PutUint64(f64[8:], math.Float64bits(3))
	tests := []struct {
		name     string
		file     []byte
		channels int
		want     []float32
	}{
		{"8-bit", rawWAV(1, 1, 8, 8000, []byte{128, 192, 0}), 1, []float32{0, 0.5, -1}},
		{"16-bit stereo", rawWAV(1, 2, 16, 44100, []byte{0x00, 0x40, 0x00, 0xC0}), 2, []float32{0.5, -0.5}},
		{"24-bit", rawWAV(1, 1, 24, 48000, []byte{0, 0, 0x40, 0, 0, 0x80}), 1, []float32{0.5, -1}},
		{"32-bit", rawWAV(1, 1, 32, 48000, []byte{0, 0, 0, 0x40}), 1, []float32{0.5}},
		{"float32 with a NaN", rawWAV(3, 1, 32, 48000, f32), 1, []float32{0.5, 0}},
		{"float64 clamped", rawWAV(3, 1, 64, 48000, f64), 1, []float32{-0.25, 1}},
		{"extensible", rawWAV(0xFFFE, 1, 16, 48000, []byte{0x00, 0x40}), 1, []float32{0.5}},
		{"unknown chunk first", rawWAV(1, 1, 8, 8000, []byte{192}, []byte("LIST\x03\x00\x00\x00abc\x00")), 1, []float32{0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := audio.DecodeSound("x.wav", tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if s.Channels() != tt.channels {
				t.Errorf("channels %d, want %d", s.Channels(), tt.channels)
			}
			got := s.Samples()
			if len(got) != len(tt.want) {
				t.Fatalf("samples %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("sample %d = %g, want %g", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestDecodeErrorsNameTheFile(t *testing.T) {
	good := wavBytes(t, tone(t, 8000, 10*time.Millisecond))
	ogg, _ := os.ReadFile("testdata/tone.ogg")
	mp3, _ := os.ReadFile("testdata/tone.mp3")
	hugeData := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(hugeData[40:], 0xFFFFFF00)
	id3 := append([]byte("ID3\x03\x00\x00\x7f\x7f\x7f\x7f"), mp3...)
	comments := append([]byte(nil), ogg...)
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, media.ErrCorrupt},
		{"text", []byte("hello, this is not a sound"), media.ErrUnsupported},
		{"truncated wav header", good[:30], media.ErrCorrupt},
		{"truncated wav data", good[:len(good)-10], media.ErrCorrupt},
		{"wav data size beyond the file", hugeData, media.ErrCorrupt},
		{"5 channels", rawWAV(1, 5, 16, 8000, make([]byte, 10)), media.ErrUnsupported},
		{"adpcm", rawWAV(2, 1, 4, 8000, make([]byte, 10)), media.ErrUnsupported},
		{"rate 1 Hz", rawWAV(1, 1, 16, 1, make([]byte, 10)), media.ErrUnsupported},
		{"truncated ogg", ogg[:200], media.ErrCorrupt},
		{"ogg cut mid-stream", ogg[:len(ogg)/2], nil}, // decodes what is there
		{"ID3 tag larger than the file", id3, media.ErrCorrupt},
		{"ogg comment count overruns", corruptComments(comments), media.ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := audio.DecodeSound("sfx/boom.wav", tt.data)
			if tt.want == nil {
				if err != nil && !errors.Is(err, media.ErrCorrupt) {
					t.Errorf("err = %v, want nil or ErrCorrupt", err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			var ae *media.Error
			if !errors.As(err, &ae) || ae.Path != "sfx/boom.wav" || !strings.Contains(err.Error(), "sfx/boom.wav") {
				t.Errorf("err = %v, want a *media.Error naming sfx/boom.wav", err)
			}
		})
	}
}

// corruptComments sets the comment count of a Vorbis file's second header
// to 2^32-1, which the decoding library would allocate as strings.
func corruptComments(ogg []byte) []byte {
	i := bytes.Index(ogg, []byte("\x03vorbis"))
	if i < 0 {
		return ogg
	}
	vendor := binary.LittleEndian.Uint32(ogg[i+7:])
	binary.LittleEndian.PutUint32(ogg[i+11+int(vendor):], 0xFFFFFFFF)
	return ogg // the page CRC is now wrong too; either check may catch it
}

func TestDecodeCompressed(t *testing.T) {
	for _, name := range []string{"tone.ogg", "tone.mp3"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + name)
			if err != nil {
				t.Fatal(err)
			}
			s, err := audio.DecodeSound(name, data)
			if err != nil {
				t.Fatal(err)
			}
			if s.Rate() != 44100 {
				t.Errorf("rate %d, want 44100", s.Rate())
			}
			// 300 ms of audio; MP3 adds encoder padding.
			if d := s.Duration(); d < 290*time.Millisecond || d > 400*time.Millisecond {
				t.Errorf("duration %v, want about 300ms", d)
			}
			// The tone's peak is 0.5; lossy coding keeps it close.
			if p := s.Peak(); p < 0.4 || p > 0.6 {
				t.Errorf("peak %g, want about 0.5", p)
			}
		})
	}
}

func TestLoadSoundFromFS(t *testing.T) {
	ogg, _ := os.ReadFile("testdata/tone.ogg")
	fsys := fstest.MapFS{
		"a.wav":   {Data: wavBytes(t, tone(t, 22050, 50*time.Millisecond))},
		"b.ogg":   {Data: ogg},
		"dir/x":   {Data: []byte("x")},
		"bad.ogg": {Data: []byte("OggS nope")},
	}
	s, err := audio.LoadSound(fsys, "a.wav")
	if err != nil || s.Rate() != 22050 || s.Frames() != 1102 || s.Name() != "a.wav" {
		t.Errorf("LoadSound(a.wav) = %v rate/frames/name %v, err %v", s, s, err)
	}
	if _, err := audio.LoadSound(fsys, "b.ogg"); err != nil {
		t.Errorf("LoadSound(b.ogg): %v", err)
	}
	if _, err := audio.LoadSound(fsys, "missing.wav"); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing.wav") {
		t.Errorf("missing file: %v, want ErrNotExist naming it", err)
	}
	if _, err := audio.LoadSound(fsys, "bad.ogg"); !errors.Is(err, media.ErrCorrupt) || !strings.Contains(err.Error(), "bad.ogg") {
		t.Errorf("bad.ogg: %v, want ErrCorrupt naming it", err)
	}
}

func TestWAVRoundTrip(t *testing.T) {
	s := tone(t, 48000, 20*time.Millisecond)
	back, err := audio.DecodeSound("t.wav", wavBytes(t, s))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range s.Samples() {
		if d := math.Abs(float64(back.Samples()[i] - v)); d > 1.0/32767 {
			t.Fatalf("sample %d: %g after a round trip, want %g", i, back.Samples()[i], v)
		}
	}
}

// oggPage wraps packets (each under 255 bytes) in one Ogg page. The CRC
// is left zero: the header check runs before anything reads it.
func oggPage(packets ...[]byte) []byte {
	var seg, body []byte
	for _, p := range packets {
		seg = append(seg, byte(len(p)))
		body = append(body, p...)
	}
	h := append([]byte("OggS\x00\x02"), make([]byte, 20)...)
	h = append(h, byte(len(seg)))
	return append(append(h, seg...), body...)
}

func TestVorbisHeaderCountsAreCapped(t *testing.T) {
	id := append([]byte("\x01vorbis"), 0, 0, 0, 0, 2, 0x80, 0xbb, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xb8, 1)
	comments := []byte("\x03vorbis\x00\x00\x00\x00\x00\x00\x00\x00\x01")
	// One codebook: sync "BCV", 65535 dimensions, 2^24-1 entries: 10^12
	// values, which the decoding library would allocate.
	setup := []byte("\x05vorbis\x00\x42\x43\x56\xff\xff\xff\xff\xff")
	tests := []struct {
		name string
		file []byte
		want error
	}{
		{"huge codebook", oggPage(id, comments, setup), media.ErrTooLarge},
		{"comment count beyond the header", oggPage(id, []byte("\x03vorbis\x00\x00\x00\x00\xff\xff\xff\xff"), setup), media.ErrCorrupt},
		{"six channels", oggPage(append(append([]byte(nil), id[:11]...), append([]byte{6}, id[12:]...)...), comments, setup), media.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := audio.DecodeSound("bad.ogg", tt.file)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), "bad.ogg") {
				t.Errorf("err = %v, want %v naming bad.ogg", err, tt.want)
			}
		})
	}
}
