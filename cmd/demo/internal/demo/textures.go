package demo

import (
	"image"
	"image/color"
)

// bunnyImage draws the bunny: a pale body with pink ears and dark eyes on a
// transparent background, size x size texels (at least 8).
func bunnyImage(size int) *image.RGBA {
	s := max(size, 8)
	img := image.NewRGBA(image.Rect(0, 0, s, s))
	body := color.RGBA{240, 240, 250, 255}
	ear := color.RGBA{250, 160, 185, 255}
	eye := color.RGBA{40, 40, 60, 255}
	for y := range s {
		for x := range s {
			fx, fy := (float32(x)+0.5)/float32(s), (float32(y)+0.5)/float32(s)
			dx, dy := fx-0.5, fy-0.62
			switch {
			case dy > -0.1 && dy < 0 && (abs32(dx-0.13) < 0.06 || abs32(dx+0.13) < 0.06):
				img.SetRGBA(x, y, eye)
			case dx*dx+dy*dy < 0.14:
				img.SetRGBA(x, y, body)
			case fy < 0.36 && (fx > 0.22 && fx < 0.38 || fx > 0.62 && fx < 0.78):
				img.SetRGBA(x, y, ear)
			}
		}
	}
	return img
}

// playerImage draws the player: a ring with a bright core and a notch that
// shows where it faces (right), size x size texels (at least 8).
func playerImage(size int) *image.RGBA {
	s := max(size, 8)
	img := image.NewRGBA(image.Rect(0, 0, s, s))
	ring := color.RGBA{255, 200, 60, 255}
	core := color.RGBA{255, 250, 220, 255}
	for y := range s {
		for x := range s {
			fx, fy := (float32(x)+0.5)/float32(s)-0.5, (float32(y)+0.5)/float32(s)-0.5
			d := fx*fx + fy*fy
			switch {
			case fx > 0.25 && abs32(fy) < 0.06:
				// the notch: left transparent
			case d < 0.04:
				img.SetRGBA(x, y, core)
			case d < 0.24 && d > 0.12:
				img.SetRGBA(x, y, ring)
			}
		}
	}
	return img
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}
