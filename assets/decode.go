package assets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/png"
	"io/fs"

	"github.com/metronome-go/metronome/media"
)

// DefaultMaxTextureSize is the largest texture side accepted when neither
// [Options.MaxTextureSize] nor a renderer says otherwise. OpenGL 4.1
// guarantees 16384; 4096 keeps one page to 64 MiB.
const DefaultMaxTextureSize = 4096

// DecodePNG reads the PNG file name from fsys and returns it as an
// [image.RGBA] whose bounds start at (0, 0). Images with a side longer than
// maxSize are refused from their header, before any pixel is decoded; a
// maxSize of zero or less means [DefaultMaxTextureSize].
//
// Every error is a [*media.Error] naming the file and wraps [fs.ErrNotExist] (or
// the file system's own error), [media.ErrCorrupt], [ErrEmpty] or [media.ErrTooLarge].
// It is safe to call from any goroutine.
func DecodePNG(fsys fs.FS, name string, maxSize int) (*image.RGBA, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &media.Error{Pkg: "assets", Op: "load image", Path: name, Err: err}
	}
	img, err := decodePNGBytes(data, maxSize)
	if err != nil {
		return nil, &media.Error{Pkg: "assets", Op: "load image", Path: name, Err: err}
	}
	return img, nil
}

func decodePNGBytes(data []byte, maxSize int) (*image.RGBA, error) {
	if maxSize <= 0 {
		maxSize = DefaultMaxTextureSize
	}
	// The header's size, read before the decoder, which calls a zero side
	// malformed: say what is actually wrong.
	if len(data) >= 24 && string(data[:8]) == pngSignature && string(data[12:16]) == "IHDR" {
		w, h := binary.BigEndian.Uint32(data[16:]), binary.BigEndian.Uint32(data[20:])
		if w == 0 || h == 0 {
			return nil, media.Detail(ErrEmpty, "image is %dx%d, both sides must be at least 1", w, h)
		}
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, media.Detail(media.ErrCorrupt, "not a valid PNG: %v", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, media.Detail(ErrEmpty, "image is %dx%d, both sides must be at least 1", cfg.Width, cfg.Height)
	}
	if cfg.Width > maxSize || cfg.Height > maxSize {
		return nil, media.Detail(media.ErrTooLarge, "image is %dx%d, the maximum texture size is %d", cfg.Width, cfg.Height, maxSize)
	}
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, media.Detail(media.ErrCorrupt, "not a valid PNG: %v", err)
	}
	return toRGBA(src), nil
}

const pngSignature = "\x89PNG\r\n\x1a\n"

// toRGBA returns img as premultiplied RGBA with bounds at the origin,
// converting (and copying) only when it has to.
func toRGBA(img image.Image) *image.RGBA {
	b := img.Bounds()
	if m, ok := img.(*image.RGBA); ok && b.Min == (image.Point{}) && m.Stride == 4*b.Dx() {
		return m
	}
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	// The conversion image/draw's Draw(dst, r, img, b.Min, Src) makes, by
	// hand: Draw linked 55 kB of code (every mask and operator) into each
	// game for this one copy. NRGBA, what most PNGs decode to, is
	// premultiplied in place; any other model goes through its own RGBA
	// method, as Draw's general case does.
	if m, ok := img.(*image.NRGBA); ok {
		for y := range b.Dy() {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:4*b.Dx()]
			out := dst.Pix[y*dst.Stride:][:4*b.Dx()]
			for i := 0; i < len(src); i += 4 {
				a := uint32(src[i+3]) * 0x101
				out[i+0] = uint8(uint32(src[i+0]) * a / 0xff >> 8)
				out[i+1] = uint8(uint32(src[i+1]) * a / 0xff >> 8)
				out[i+2] = uint8(uint32(src[i+2]) * a / 0xff >> 8)
				out[i+3] = src[i+3]
			}
		}
		return dst
	}
	for y := range b.Dy() {
		out := dst.Pix[y*dst.Stride:]
		for x := range b.Dx() {
			r, g, bl, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			out[4*x+0], out[4*x+1], out[4*x+2], out[4*x+3] = uint8(r>>8), uint8(g>>8), uint8(bl>>8), uint8(a>>8)
		}
	}
	return dst
}
