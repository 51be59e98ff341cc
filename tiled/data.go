package tiled

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/metronome-go/metronome/media"
)

// rawData is a layer's or chunk's tile data as the file holds it, before
// decoding: text in an encoding (CSV or base64, maybe compressed), or GIDs
// already numbers (XML <tile> elements, a JSON array).
type rawData struct {
	encoding, compression string
	text                  string
	gids                  []GID
	numbers               bool // gids is the data, whatever its length
}

// rawChunk is one chunk of an infinite map's layer.
type rawChunk struct {
	x, y, w, h int
	data       rawData
}

// decode returns the n GIDs of d. Every length is checked against n
// before anything of that size is kept, and compressed data is read
// through a limit of n GIDs plus one byte, so a small file that inflates
// to gigabytes costs at most what its layer declared.
func (d *rawData) decode(n int) ([]GID, error) {
	if d.numbers {
		if len(d.gids) != n {
			return nil, media.Detail(media.ErrCorrupt, "data holds %d tiles, want width*height = %d", len(d.gids), n)
		}
		return d.gids, nil
	}
	switch d.encoding {
	case "csv":
		if d.compression != "" {
			return nil, media.Detail(media.ErrCorrupt, "compression %q with csv encoding (compression needs base64 encoding)", d.compression)
		}
		return decodeCSV(d.text, n)
	case "base64":
	case "":
		return nil, media.Detail(media.ErrCorrupt, "tile data with no encoding and no <tile> elements (want encoding csv or base64)")
	default:
		return nil, media.Detail(media.ErrUnsupported, "encoding %q (want csv or base64)", d.encoding)
	}
	raw, err := decodeBase64(d.text)
	if err != nil {
		return nil, err
	}
	want := int64(n) * 4
	var r io.Reader
	// ratio is the most the compression can inflate one byte to, so a
	// buffer of the declared size, capped by it, is never larger than the
	// data can fill.
	ratio := int64(1032) // deflate: 258 bytes from 2 bits
	switch d.compression {
	case "":
		if int64(len(raw)) != want {
			return nil, media.Detail(media.ErrCorrupt, "base64 data is %d bytes, want width*height*4 = %d", len(raw), want)
		}
		return gidsOf(raw), nil
	case "zlib":
		zr, err := zlib.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, media.Detail(media.ErrCorrupt, "zlib data: %v", err)
		}
		r = zr
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, media.Detail(media.ErrCorrupt, "gzip data: %v", err)
		}
		zr.Multistream(false)
		r = zr
	case "zstd":
		zr, err := newZstd(raw, want)
		if err != nil {
			return nil, media.Detail(media.ErrCorrupt, "zstd data: %v", err)
		}
		defer zr.Close()
		r = zr
		ratio = zstdRatio
	default:
		return nil, media.Detail(media.ErrUnsupported, "compression %q (want zlib, gzip, zstd or none)", d.compression)
	}
	out := make([]byte, min(want, ratio*int64(len(raw))+1024))
	got, err := io.ReadFull(r, out)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return nil, media.Detail(media.ErrCorrupt, "%s data inflates to %d bytes, want width*height*4 = %d", d.compression, got, want)
	}
	if errors.Is(err, zstd.ErrWindowSizeExceeded) {
		return nil, media.Detail(media.ErrTooLarge, "zstd data asks for a window larger than %d bytes (the most a layer of width*height*4 = %d bytes needs)", zstdWindow(want), want)
	}
	if err != nil {
		return nil, media.Detail(media.ErrCorrupt, "%s data after %d bytes: %v", d.compression, got, err)
	}
	if int64(got) < want {
		return nil, media.Detail(media.ErrCorrupt, "%s data inflates to more than %d times its size, impossible for %s", d.compression, ratio, d.compression)
	}
	// The stream must end here: one byte more is a layer larger than
	// declared, and reading to the end checks the stream's checksum.
	var one [1]byte
	switch k, err := io.ReadFull(r, one[:]); {
	case k > 0:
		return nil, media.Detail(media.ErrTooLarge, "%s data inflates past width*height*4 = %d bytes", d.compression, want)
	case err != io.EOF:
		return nil, media.Detail(media.ErrCorrupt, "%s data after %d bytes: %v", d.compression, got, err)
	}
	return gidsOf(out), nil
}

// zstdRatio bounds how far zstd inflates: every block costs at least a
// 3-byte header and one byte of content, and yields at most 128 KiB.
const zstdRatio = 128 << 10 / 4

// newZstd returns a decoder of raw that decodes in the caller's goroutine
// and refuses a frame whose window is larger than zstdWindow, so a
// hostile header cannot make it reserve gigabytes of history.
func newZstd(raw []byte, want int64) (*zstd.Decoder, error) {
	return zstd.NewReader(bytes.NewReader(raw),
		zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(zstdWindow(want)))
}

// zstdWindow is the largest window a layer of want bytes may ask for: the
// layer rounded up to a power of two (the most libzstd, which Tiled uses,
// picks for input of known size), at least 1 MiB and at most 1 GiB.
func zstdWindow(want int64) uint64 {
	return min(max(uint64(1)<<bits.Len64(uint64(max(want, 1)-1)), 1<<20), 1<<30)
}

func gidsOf(b []byte) []GID {
	g := make([]GID, len(b)/4)
	for i := range g {
		g[i] = GID(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return g
}

// decodeBase64 reads base64 text with Tiled's surrounding whitespace, with
// or without padding.
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, s)
	enc := base64.StdEncoding
	if len(s)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	b, err := enc.DecodeString(s)
	if err != nil {
		return nil, media.Detail(media.ErrCorrupt, "base64 data: %v", err)
	}
	return b, nil
}

// decodeCSV reads n comma-separated GIDs. It counts the values before
// keeping any, so a short text declaring a huge layer costs nothing.
func decodeCSV(s string, n int) ([]GID, error) {
	s = strings.TrimSpace(s)
	count := 0
	if s != "" {
		count = strings.Count(s, ",") + 1
		if strings.HasSuffix(s, ",") {
			count-- // a trailing comma ends the last value
		}
	}
	if count != n {
		return nil, media.Detail(media.ErrCorrupt, "csv data holds %d tiles, want width*height = %d", count, n)
	}
	g := make([]GID, n)
	for i := range g {
		v, rest, _ := strings.Cut(s, ",")
		s = rest
		u, err := strconv.ParseUint(strings.TrimSpace(v), 10, 32)
		if err != nil {
			return nil, media.Detail(media.ErrCorrupt, "csv value %d is %q, want a GID from 0 to %d", i, clip(v), uint32(1<<32-1))
		}
		g[i] = GID(u)
	}
	return g, nil
}

// clip shortens a quoted piece of a bad file for an error message.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 24 {
		return s[:24] + "..."
	}
	return s
}

// grid decodes a tile layer's data, or merges its chunks, into the dense
// grid of l (setting X, Y, Width, Height and Tiles). w and h are the
// layer's declared size; maxTiles bounds every grid.
func grid(l *Layer, w, h int, data *rawData, chunks []rawChunk, maxTiles int) error {
	if len(chunks) == 0 {
		if err := checkSize("layer", w, h, maxTiles); err != nil {
			return err
		}
		if data == nil {
			if w*h != 0 {
				return media.Detail(media.ErrCorrupt, "tile layer of %dx%d has no data", w, h)
			}
			l.Width, l.Height = w, h
			return nil
		}
		tiles, err := data.decode(w * h)
		if err != nil {
			return err
		}
		l.Width, l.Height, l.Tiles = w, h, tiles
		return nil
	}
	// The grid spans every chunk.
	x0, y0, x1, y1 := chunks[0].x, chunks[0].y, chunks[0].x, chunks[0].y
	for i, c := range chunks {
		if err := checkSize(fmt.Sprintf("chunk %d at (%d, %d)", i, c.x, c.y), c.w, c.h, maxTiles); err != nil {
			return err
		}
		if c.x < -1<<30 || c.y < -1<<30 || c.x > 1<<30 || c.y > 1<<30 {
			return media.Detail(media.ErrCorrupt, "chunk %d at (%d, %d) lies beyond ±2^30 tiles", i, c.x, c.y)
		}
		x0, y0 = min(x0, c.x), min(y0, c.y)
		x1, y1 = max(x1, c.x+c.w), max(y1, c.y+c.h)
	}
	if err := checkSize("the chunks' bounding box", x1-x0, y1-y0, maxTiles); err != nil {
		return err
	}
	gw := x1 - x0
	l.X, l.Y, l.Width, l.Height = x0, y0, gw, y1-y0
	l.Tiles = make([]GID, gw*(y1-y0))
	for i := range chunks {
		c := &chunks[i]
		tiles, err := c.data.decode(c.w * c.h)
		if err != nil {
			return fmt.Errorf("chunk %d at (%d, %d): %w", i, c.x, c.y, err)
		}
		for row := range c.h {
			copy(l.Tiles[(c.y-y0+row)*gw+c.x-x0:], tiles[row*c.w:(row+1)*c.w])
		}
	}
	return nil
}

// checkSize refuses a grid of negative size or of more than maxTiles.
func checkSize(what string, w, h, maxTiles int) error {
	if w < 0 || h < 0 {
		return media.Detail(media.ErrCorrupt, "%s is %dx%d tiles, want sizes of 0 or more", what, w, h)
	}
	if int64(w)*int64(h) > int64(maxTiles) {
		return media.Detail(media.ErrTooLarge, "%s is %dx%d tiles, more than Options.MaxTiles = %d", what, w, h, maxTiles)
	}
	return nil
}
