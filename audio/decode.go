package audio

import (
	"bytes"
	"errors"
	"io"
	"io/fs"

	"github.com/metronome-go/metronome/media"
)

// decoder yields interleaved float32 samples of a file, in order. It is
// the glue between the decoding libraries and the mixer: one per format.
type decoder interface {
	format() (rate, channels int)
	// read fills dst with whole frames and returns the number of samples;
	// io.EOF (with n == 0 or not) at the end.
	read(dst []float32) (int, error)
	close() error
}

// Kind is a sound file format, found from the file's first bytes (never
// from its name).
type Kind uint8

const (
	UnknownKind Kind = iota
	WAV
	Vorbis
	MP3
)

func (k Kind) String() string {
	switch k {
	case WAV:
		return "wav"
	case Vorbis:
		return "ogg vorbis"
	case MP3:
		return "mp3"
	}
	return "unknown"
}

// Sniff names the format of a file from its first bytes (12 are enough).
func Sniff(head []byte) Kind {
	switch {
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WAVE":
		return WAV
	case len(head) >= 4 && string(head[:4]) == "OggS":
		return Vorbis
	case len(head) >= 3 && string(head[:3]) == "ID3":
		return MP3
	case len(head) >= 2 && head[0] == 0xFF && head[1]&0xE0 == 0xE0:
		return MP3 // an MPEG audio frame sync
	}
	return UnknownKind
}

// LoadSound reads name from fsys and decodes it whole (see [DecodeSound]).
// Files over MaxFileBytes are refused without being read.
func LoadSound(fsys fs.FS, name string) (*Sound, error) {
	data, err := readFile(fsys, name)
	if err != nil {
		return nil, &media.Error{Pkg: "audio", Op: "load sound", Path: name, Err: err}
	}
	s, err := decodeSound(name, data)
	if err != nil {
		return nil, &media.Error{Pkg: "audio", Op: "load sound", Path: name, Err: err}
	}
	return s, nil
}

// DecodeSound decodes a WAV, Ogg Vorbis or MP3 file held in data into a
// [Sound] named name. The format is sniffed from the content. Damaged or
// truncated data fails with a [*media.Error] naming the file and wrapping
// media.ErrCorrupt (or media.ErrUnsupported, media.ErrTooLarge); it never panics, and what
// it allocates is bounded by the file's size and MaxSoundFrames.
func DecodeSound(name string, data []byte) (*Sound, error) {
	s, err := decodeSound(name, data)
	if err != nil {
		return nil, &media.Error{Pkg: "audio", Op: "decode sound", Path: name, Err: err}
	}
	return s, nil
}

func decodeSound(name string, data []byte) (*Sound, error) {
	if len(data) > MaxFileBytes {
		return nil, media.Detail(media.ErrTooLarge, "%d bytes (at most %d)", len(data), MaxFileBytes)
	}
	dec, err := newDecoder(bytes.NewReader(data), int64(len(data)), nopCloser{})
	if err != nil {
		return nil, err
	}
	defer dec.close()
	rate, ch := dec.format()
	var out []float32
	if w, ok := dec.(*wavDecoder); ok {
		out = make([]float32, 0, w.remaining/int64(w.blockAlign)*int64(ch)) // header checked against the file size
	}
	buf := make([]float32, 4096*ch)
	empty := 0
	for {
		n, err := dec.read(buf)
		if len(out)/ch+n/ch > MaxSoundFrames {
			return nil, media.Detail(media.ErrTooLarge, "more than %d frames decoded (stream it instead)", MaxSoundFrames)
		}
		out = append(out, buf[:n]...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			if empty++; empty > maxEmptyReads {
				return nil, media.Detail(media.ErrCorrupt, "decoder made no progress in %d reads", maxEmptyReads)
			}
		} else {
			empty = 0
		}
	}
	if len(out) == 0 {
		return nil, media.Detail(media.ErrCorrupt, "no audio frames")
	}
	return &Sound{name: name, rate: rate, channels: ch, data: out}, nil
}

// newDecoder sniffs r (size bytes long) and opens the matching decoder.
// closer is closed with the decoder.
func newDecoder(r io.ReadSeeker, size int64, closer io.Closer) (dec decoder, err error) {
	defer func() {
		if p := recover(); p != nil {
			dec, err = nil, media.Detail(media.ErrCorrupt, "decoder failed: %v", p)
		}
	}()
	var head [12]byte
	n, _ := io.ReadFull(r, head[:])
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	switch k := Sniff(head[:n]); k {
	case WAV:
		return newWAVDecoder(r, size, closer)
	case Vorbis:
		return newVorbisDecoder(r, size, closer)
	case MP3:
		return newMP3Decoder(r, size, closer)
	default:
		if n < 4 {
			return nil, media.Detail(media.ErrCorrupt, "%d bytes is too short for a sound file", size)
		}
		return nil, media.Detail(media.ErrUnsupported, "not a WAV, Ogg Vorbis or MP3 file (starts % x)", head[:4])
	}
}

// openFileDecoder opens name for streaming. Files that cannot seek are read
// into memory (bounded by MaxFileBytes) and decoded from there.
func openFileDecoder(fsys fs.FS, name string) (decoder, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if info.IsDir() {
		f.Close()
		return nil, media.Detail(media.ErrInvalid, "is a directory")
	}
	if rs, ok := f.(io.ReadSeeker); ok && info.Size() > 0 {
		dec, err := newDecoder(rs, info.Size(), f)
		if err != nil {
			f.Close()
			return nil, err
		}
		return dec, nil
	}
	data, err := readLimited(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	return newDecoder(bytes.NewReader(data), int64(len(data)), nopCloser{})
}

func readFile(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil {
		if info.IsDir() {
			return nil, media.Detail(media.ErrInvalid, "is a directory")
		}
		if info.Size() > MaxFileBytes {
			return nil, media.Detail(media.ErrTooLarge, "%d bytes (at most %d)", info.Size(), MaxFileBytes)
		}
	}
	return readLimited(f)
}

func readLimited(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, media.Detail(media.ErrTooLarge, "more than %d bytes", MaxFileBytes)
	}
	return data, nil
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }

// guard turns a panic inside a decoding library into media.ErrCorrupt, so a
// damaged file is an error naming it rather than a crash of the game.
func guard(err *error) {
	if p := recover(); p != nil {
		*err = media.Detail(media.ErrCorrupt, "decoder failed: %v", p)
	}
}
