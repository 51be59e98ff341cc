package audio

import (
	"bufio"
	"encoding/binary"
	"io"
	"math"

	"github.com/jfreymuth/oggvorbis"

	"github.com/metronome-go/metronome/media"
)

// Ogg Vorbis goes through github.com/jfreymuth/oggvorbis. That library
// trusts the counts in the headers when it allocates (a comment count or a
// codebook's size straight from the file), so a damaged header could ask
// for gigabytes before any check. vorbisPrecheck reads the three header
// packets first and refuses counts the file cannot back, which bounds what
// the library allocates by the file's size and a fixed cap.
const (
	maxVorbisHeaderBytes   = 1 << 20 // all three header packets together
	maxCodebookValues      = 1 << 20 // entries × dimensions of one codebook
	maxTotalCodebookValues = 1 << 22 // of all codebooks
)

type vorbisDecoder struct {
	r        *oggvorbis.Reader
	closer   io.Closer
	rate, ch int
}

func newVorbisDecoder(rs io.ReadSeeker, size int64, closer io.Closer) (_ decoder, err error) {
	if err := vorbisPrecheck(bufio.NewReader(rs)); err != nil {
		return nil, err
	}
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	defer guard(&err)
	r, err := oggvorbis.NewReader(rs)
	if err != nil {
		return nil, media.Detail(media.ErrCorrupt, "%v", err)
	}
	return &vorbisDecoder{r: r, closer: closer, rate: r.SampleRate(), ch: r.Channels()}, nil
}

func (d *vorbisDecoder) format() (int, int) { return d.rate, d.ch }
func (d *vorbisDecoder) close() error       { return d.closer.Close() }

func (d *vorbisDecoder) read(dst []float32) (n int, err error) {
	defer guard(&err)
	n, err = d.r.Read(dst[:len(dst)/d.ch*d.ch])
	if err != nil && err != io.EOF {
		err = media.Detail(media.ErrCorrupt, "%v", err)
	}
	for i, v := range dst[:n] {
		if v != v { // the library clamps, but NaN passes a clamp
			dst[i] = 0
		}
	}
	return n, err
}

// vorbisPrecheck parses the Ogg pages up to the end of the third packet
// and checks the identification, comment and setup headers' counts.
func vorbisPrecheck(r io.Reader) error {
	var packets [3][]byte
	k, total := 0, 0
	var seg [255]byte
	for k < 3 {
		var h [27]byte
		if _, err := io.ReadFull(r, h[:]); err != nil {
			return media.Detail(media.ErrCorrupt, "truncated Ogg page header")
		}
		if string(h[:4]) != "OggS" || h[4] != 0 {
			return media.Detail(media.ErrCorrupt, "bad Ogg page (capture %q, version %d)", h[:4], h[4])
		}
		nseg := int(h[26])
		if _, err := io.ReadFull(r, seg[:nseg]); err != nil {
			return media.Detail(media.ErrCorrupt, "truncated Ogg segment table")
		}
		for _, s := range seg[:nseg] {
			if k >= 3 {
				break
			}
			if total += int(s); total > maxVorbisHeaderBytes {
				return media.Detail(media.ErrTooLarge, "Vorbis headers larger than %d bytes", maxVorbisHeaderBytes)
			}
			b := make([]byte, s)
			if _, err := io.ReadFull(r, b); err != nil {
				return media.Detail(media.ErrCorrupt, "truncated Ogg page")
			}
			packets[k] = append(packets[k], b...)
			if s < 255 {
				k++
			}
		}
	}
	for i, typ := range [3]byte{1, 3, 5} {
		p := packets[i]
		if len(p) < 7 || p[0] != typ || string(p[1:7]) != "vorbis" {
			return media.Detail(media.ErrCorrupt, "Vorbis header packet %d is not a type-%d header", i+1, typ)
		}
		packets[i] = p[7:]
	}
	if err := checkVorbisID(packets[0]); err != nil {
		return err
	}
	if err := checkVorbisComments(packets[1]); err != nil {
		return err
	}
	return checkVorbisCodebooks(packets[2])
}

func checkVorbisID(p []byte) error {
	if len(p) < 23 {
		return media.Detail(media.ErrCorrupt, "Vorbis identification header of %d bytes", len(p))
	}
	le := binary.LittleEndian
	ch, rate := int(p[4]), le.Uint32(p[5:])
	b0, b1 := p[21]&15, p[21]>>4
	switch {
	case le.Uint32(p) != 0:
		return media.Detail(media.ErrUnsupported, "Vorbis version %d", le.Uint32(p))
	case ch != 1 && ch != 2:
		return media.Detail(media.ErrUnsupported, "%d channels (allowed: 1 or 2)", ch)
	case rate < MinRate || rate > MaxRate:
		return media.Detail(media.ErrUnsupported, "sample rate %d outside [%d, %d]", rate, MinRate, MaxRate)
	case b0 < 6 || b1 > 13 || b0 > b1:
		return media.Detail(media.ErrCorrupt, "Vorbis block sizes 2^%d and 2^%d", b0, b1)
	}
	return nil
}

func checkVorbisComments(p []byte) error {
	le := binary.LittleEndian
	take := func() (uint64, bool) {
		if len(p) < 4 {
			return 0, false
		}
		v := uint64(le.Uint32(p))
		p = p[4:]
		return v, true
	}
	vendor, ok := take()
	if !ok || vendor > uint64(len(p)) {
		return media.Detail(media.ErrCorrupt, "Vorbis vendor string overruns its header")
	}
	p = p[vendor:]
	count, ok := take()
	if !ok || count > uint64(len(p)/4) {
		return media.Detail(media.ErrCorrupt, "Vorbis comment count %d overruns its header", count)
	}
	for range count {
		n, _ := take()
		if n > uint64(len(p)) {
			return media.Detail(media.ErrCorrupt, "Vorbis comment overruns its header")
		}
		p = p[n:]
	}
	return nil
}

// bitReader reads Vorbis's least-significant-bit-first bit packing and
// remembers running past the end.
type bitReader struct {
	data []byte
	pos  uint64 // in bits
	eof  bool
}

func (b *bitReader) read(n uint) uint64 {
	var v uint64
	for i := range n {
		byteAt := b.pos >> 3
		if byteAt >= uint64(len(b.data)) {
			b.eof = true
			return 0
		}
		v |= uint64(b.data[byteAt]>>(b.pos&7)&1) << i
		b.pos++
	}
	return v
}

func (b *bitReader) skip(n uint64) {
	if b.pos+n > uint64(len(b.data))*8 {
		b.eof = true
		return
	}
	b.pos += n
}

func checkVorbisCodebooks(p []byte) error {
	b := &bitReader{data: p}
	count := b.read(8) + 1
	var values, entriesTotal uint64
	for i := range count {
		if b.read(24) != 0x564342 {
			return media.Detail(media.ErrCorrupt, "Vorbis codebook %d has no sync pattern", i)
		}
		dims, entries := b.read(16), b.read(24)
		if dims == 0 || entries == 0 {
			return media.Detail(media.ErrCorrupt, "Vorbis codebook %d has %d dimensions and %d entries", i, dims, entries)
		}
		if dims*entries > maxCodebookValues {
			return media.Detail(media.ErrTooLarge, "Vorbis codebook %d: %d entries of %d dimensions (at most %d values)", i, entries, dims, maxCodebookValues)
		}
		if values += dims * entries; values > maxTotalCodebookValues {
			return media.Detail(media.ErrTooLarge, "Vorbis codebooks hold more than %d values", maxTotalCodebookValues)
		}
		entriesTotal += entries
		if b.read(1) == 0 { // not ordered
			sparse := b.read(1) == 1
			for range entries {
				if !sparse || b.read(1) == 1 {
					b.skip(5)
				}
				if b.eof {
					break
				}
			}
		} else {
			length := b.read(5) + 1
			for cur := uint64(0); cur < entries && !b.eof; length++ {
				if length > 32 {
					return media.Detail(media.ErrCorrupt, "Vorbis codebook %d has codewords longer than 32 bits", i)
				}
				cur += b.read(uint(bitsLen(entries - cur)))
				if cur > entries {
					return media.Detail(media.ErrCorrupt, "Vorbis codebook %d lists more lengths than entries", i)
				}
			}
		}
		switch lookup := b.read(4); lookup {
		case 0:
		case 1, 2:
			b.skip(64)
			valueBits := b.read(4) + 1
			b.skip(1)
			mult := dims * entries
			if lookup == 1 {
				mult = uint64(math.Floor(math.Pow(float64(entries), 1/float64(dims))))
			}
			b.skip(mult * valueBits)
		default:
			return media.Detail(media.ErrCorrupt, "Vorbis codebook %d has lookup type %d", i, lookup)
		}
		if b.eof {
			return media.Detail(media.ErrCorrupt, "Vorbis setup header truncated in codebook %d", i)
		}
	}
	return nil
}

func bitsLen(x uint64) int {
	n := 0
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}
