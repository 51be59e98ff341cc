package audio

import (
	"encoding/binary"
	"io"

	"github.com/hajimehoshi/go-mp3"

	"github.com/metronome-go/metronome/media"
)

// MP3 goes through github.com/hajimehoshi/go-mp3, which always yields
// 16-bit stereo. It allocates an ID3 tag's declared size before reading
// it, so newMP3Decoder checks that size against the file first.
type mp3Decoder struct {
	d       *mp3.Decoder
	closer  io.Closer
	rate    int
	scratch []byte
	fill    int // bytes of a partial frame carried in scratch
}

func newMP3Decoder(rs io.ReadSeeker, size int64, closer io.Closer) (_ decoder, err error) {
	var h [10]byte
	n, _ := io.ReadFull(rs, h[:])
	if n >= 3 && string(h[:3]) == "ID3" {
		if n < 10 {
			return nil, media.Detail(media.ErrCorrupt, "truncated ID3 header")
		}
		tag := int64(h[6]&0x7f)<<21 | int64(h[7]&0x7f)<<14 | int64(h[8]&0x7f)<<7 | int64(h[9]&0x7f)
		if tag > size-10 {
			return nil, media.Detail(media.ErrCorrupt, "ID3 tag of %d bytes in a %d-byte file", tag, size)
		}
	}
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	defer guard(&err)
	d, err := mp3.NewDecoder(rs)
	if err != nil {
		return nil, media.Detail(media.ErrCorrupt, "%v", err)
	}
	rate := d.SampleRate()
	if rate < MinRate || rate > MaxRate {
		return nil, media.Detail(media.ErrUnsupported, "sample rate %d outside [%d, %d]", rate, MinRate, MaxRate)
	}
	return &mp3Decoder{d: d, closer: closer, rate: rate, scratch: make([]byte, 4096*4)}, nil
}

func (d *mp3Decoder) format() (int, int) { return d.rate, 2 }
func (d *mp3Decoder) close() error       { return d.closer.Close() }

func (d *mp3Decoder) read(dst []float32) (n int, err error) {
	defer guard(&err)
	want := min(len(dst)/2*4, len(d.scratch))
	for d.fill < 4 && err == nil {
		var k int
		k, err = d.d.Read(d.scratch[d.fill:want])
		d.fill += k
		if k == 0 && err == nil {
			break
		}
	}
	whole := d.fill / 4 * 4
	le := binary.LittleEndian
	for i := 0; i < whole; i += 2 {
		dst[n] = float32(int16(le.Uint16(d.scratch[i:]))) / (1 << 15)
		n++
	}
	d.fill = copy(d.scratch, d.scratch[whole:d.fill])
	if err != nil && err != io.EOF {
		err = media.Detail(media.ErrCorrupt, "%v", err)
	}
	return n, err
}
