package assets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/draw"
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
	draw.Draw(dst, dst.Rect, img, b.Min, draw.Src)
	return dst
}
