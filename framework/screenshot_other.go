//go:build !js

package framework

import (
	"bytes"
	"image"
	"image/png"
)

// encodePNG encodes a screenshot (--screenshot) as a PNG file's bytes.
// screenshot_js.go has the browser encode it instead.
func encodePNG(img *image.RGBA) ([]byte, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
