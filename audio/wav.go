package audio

import (
	"encoding/binary"
	"io"
	"math"

	"github.com/metronome-go/metronome/media"
)

// wavDecoder reads PCM (8-bit unsigned, 16/24/32-bit signed) and IEEE
// float (32/64-bit) WAV data, mono or stereo, including the
// WAVE_FORMAT_EXTENSIBLE header. It is a small reader over the standard
// library: every length in the header is checked against the file's size
// before it is trusted.
type wavDecoder struct {
	r          io.Reader
	closer     io.Closer
	rate       int
	channels   int
	bits       int
	float      bool
	blockAlign int
	remaining  int64 // bytes of sample data left
	scratch    []byte
}

const (
	wavFormatPCM        = 1
	wavFormatFloat      = 3
	wavFormatExtensible = 0xFFFE
)

func newWAVDecoder(r io.Reader, size int64, closer io.Closer) (*wavDecoder, error) {
	var hdr [12]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, media.Detail(media.ErrCorrupt, "truncated RIFF header")
	}
	le := binary.LittleEndian
	left := size - 12
	d := &wavDecoder{r: r, closer: closer}
	haveFmt := false
	for {
		var ch [8]byte
		if _, err := io.ReadFull(r, ch[:]); err != nil {
			if !haveFmt {
				return nil, media.Detail(media.ErrCorrupt, "no fmt chunk")
			}
			return nil, media.Detail(media.ErrCorrupt, "no data chunk")
		}
		left -= 8
		id, n := string(ch[:4]), int64(le.Uint32(ch[4:]))
		if id == "data" {
			if !haveFmt {
				return nil, media.Detail(media.ErrCorrupt, "data chunk before fmt chunk")
			}
			if n > left {
				return nil, media.Detail(media.ErrCorrupt, "data chunk of %d bytes but only %d left in the file (truncated?)", n, left)
			}
			n -= n % int64(d.blockAlign)
			d.remaining = n
			d.scratch = make([]byte, 4096*d.blockAlign)
			return d, nil
		}
		if n > left {
			return nil, media.Detail(media.ErrCorrupt, "%q chunk of %d bytes but only %d left in the file", id, n, left)
		}
		padded := n + n&1
		if id == "fmt " {
			if n < 16 || n > 1<<10 {
				return nil, media.Detail(media.ErrCorrupt, "fmt chunk of %d bytes (expected 16 to 1024)", n)
			}
			b := make([]byte, padded)
			if _, err := io.ReadFull(r, b[:min(padded, left)]); err != nil {
				return nil, media.Detail(media.ErrCorrupt, "truncated fmt chunk")
			}
			if err := d.parseFmt(b[:n]); err != nil {
				return nil, err
			}
			haveFmt = true
		} else if _, err := io.CopyN(io.Discard, r, min(padded, left)); err != nil {
			return nil, media.Detail(media.ErrCorrupt, "truncated %q chunk", id)
		}
		left -= min(padded, left)
	}
}

func (d *wavDecoder) parseFmt(b []byte) error {
	le := binary.LittleEndian
	tag := le.Uint16(b[0:])
	d.channels = int(le.Uint16(b[2:]))
	rate := le.Uint32(b[4:])
	d.blockAlign = int(le.Uint16(b[12:]))
	d.bits = int(le.Uint16(b[14:]))
	if tag == wavFormatExtensible {
		if len(b) < 40 {
			return media.Detail(media.ErrCorrupt, "extensible fmt chunk of %d bytes (expected 40)", len(b))
		}
		tag = le.Uint16(b[24:]) // first two bytes of the sub-format GUID
	}
	switch tag {
	case wavFormatPCM:
		if d.bits != 8 && d.bits != 16 && d.bits != 24 && d.bits != 32 {
			return media.Detail(media.ErrUnsupported, "%d-bit PCM (allowed: 8, 16, 24, 32)", d.bits)
		}
	case wavFormatFloat:
		d.float = true
		if d.bits != 32 && d.bits != 64 {
			return media.Detail(media.ErrUnsupported, "%d-bit float (allowed: 32, 64)", d.bits)
		}
	default:
		return media.Detail(media.ErrUnsupported, "WAV format tag %#x (allowed: PCM, IEEE float)", tag)
	}
	if d.channels != 1 && d.channels != 2 {
		return media.Detail(media.ErrUnsupported, "%d channels (allowed: 1 or 2)", d.channels)
	}
	if rate < MinRate || rate > MaxRate {
		return media.Detail(media.ErrUnsupported, "sample rate %d outside [%d, %d]", rate, MinRate, MaxRate)
	}
	d.rate = int(rate)
	if want := d.channels * d.bits / 8; d.blockAlign != want {
		return media.Detail(media.ErrCorrupt, "block align %d, expected %d for %d channels of %d bits", d.blockAlign, want, d.channels, d.bits)
	}
	return nil
}

func (d *wavDecoder) format() (int, int) { return d.rate, d.channels }

func (d *wavDecoder) close() error { return d.closer.Close() }

func (d *wavDecoder) read(dst []float32) (int, error) {
	if d.remaining == 0 {
		return 0, io.EOF
	}
	frames := min(int64(len(dst)/d.channels), int64(len(d.scratch)/d.blockAlign), d.remaining/int64(d.blockAlign))
	b := d.scratch[:frames*int64(d.blockAlign)]
	if _, err := io.ReadFull(d.r, b); err != nil {
		d.remaining = 0
		return 0, media.Detail(media.ErrCorrupt, "truncated sample data")
	}
	d.remaining -= int64(len(b))
	n := int(frames) * d.channels
	le := binary.LittleEndian
	switch {
	case d.float && d.bits == 32:
		for i := range n {
			v := math.Float32frombits(le.Uint32(b[4*i:]))
			dst[i] = clampSample(v)
		}
	case d.float:
		for i := range n {
			dst[i] = clampSample(float32(math.Float64frombits(le.Uint64(b[8*i:]))))
		}
	case d.bits == 8:
		for i := range n {
			dst[i] = float32(int(b[i])-128) / 128
		}
	case d.bits == 16:
		for i := range n {
			dst[i] = float32(int16(le.Uint16(b[2*i:]))) / (1 << 15)
		}
	case d.bits == 24:
		for i := range n {
			v := int32(uint32(b[3*i])<<8|uint32(b[3*i+1])<<16|uint32(b[3*i+2])<<24) >> 8
			dst[i] = float32(v) / (1 << 23)
		}
	default:
		for i := range n {
			dst[i] = float32(float64(int32(le.Uint32(b[4*i:]))) / (1 << 31))
		}
	}
	return n, nil
}

// clampSample keeps float samples finite and in [-1, 1]: a damaged float
// file can hold NaNs and infinities, which would poison the whole mix.
func clampSample(v float32) float32 {
	if v != v {
		return 0
	}
	return min(1, max(-1, v))
}

// EncodeWAV writes s as a 16-bit PCM WAV file, for tools and tests that
// make sound files.
func EncodeWAV(w io.Writer, s *Sound) error {
	le := binary.LittleEndian
	data := len(s.data) * 2
	h := make([]byte, 44)
	copy(h[0:], "RIFF")
	le.PutUint32(h[4:], uint32(36+data))
	copy(h[8:], "WAVEfmt ")
	le.PutUint32(h[16:], 16)
	le.PutUint16(h[20:], wavFormatPCM)
	le.PutUint16(h[22:], uint16(s.channels))
	le.PutUint32(h[24:], uint32(s.rate))
	le.PutUint32(h[28:], uint32(s.rate*s.channels*2))
	le.PutUint16(h[32:], uint16(s.channels*2))
	le.PutUint16(h[34:], 16)
	copy(h[36:], "data")
	le.PutUint32(h[40:], uint32(data))
	if _, err := w.Write(h); err != nil {
		return err
	}
	b := make([]byte, data)
	for i, v := range s.data {
		le.PutUint16(b[2*i:], uint16(int16(math.Round(float64(min(1, max(-1, v)))*32767))))
	}
	_, err := w.Write(b)
	return err
}
