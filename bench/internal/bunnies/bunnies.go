// Package bunnies is the scene of the browser bunnymark, shared by the
// Ebitengine and Metronome pages so that both move and draw the same
// sprites: positions and velocities in pixels, gravity, and bounces off
// the canvas's edges (cmd/bunnymark's motion), and the bunny image.
package bunnies

import (
	"image"
	"image/color"
	"math/rand/v2"
)

// Bunnies are n sprites of Size x Size pixels in a W x H canvas.
type Bunnies struct {
	Pos, Vel []float32 // x, y pairs
	W, H     float32
	Size     float32
}

// New places n bunnies at seeded random positions with random velocities.
func New(n, size int, w, h float32) *Bunnies {
	rng := rand.New(rand.NewPCG(1, 2))
	b := &Bunnies{Pos: make([]float32, 2*n), Vel: make([]float32, 2*n), W: w, H: h, Size: float32(size)}
	for i := range n {
		b.Pos[2*i] = rng.Float32() * (w - b.Size)
		b.Pos[2*i+1] = rng.Float32() * (h - b.Size)
		b.Vel[2*i] = (rng.Float32() - 0.5) * 400
		b.Vel[2*i+1] = (rng.Float32() - 0.5) * 400
	}
	return b
}

// Step moves the bunnies by dt seconds (at most 50 ms).
func (b *Bunnies) Step(dt float32) {
	dt = min(dt, 0.05)
	maxX, maxY := b.W-b.Size, b.H-b.Size
	pos, vel := b.Pos, b.Vel[:len(b.Pos)]
	for i := 0; i+1 < len(pos); i += 2 {
		vel[i+1] += 500 * dt
		x, y := pos[i]+vel[i]*dt, pos[i+1]+vel[i+1]*dt
		if x < 0 {
			x, vel[i] = 0, -vel[i]
		} else if x > maxX {
			x, vel[i] = maxX, -vel[i]
		}
		if y > maxY {
			y, vel[i+1] = maxY, -vel[i+1]*0.85
		} else if y < 0 {
			y, vel[i+1] = 0, 0
		}
		pos[i], pos[i+1] = x, y
	}
}

// Image draws a size x size bunny: a light disc with pink ears.
func Image(size int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			fx, fy := float32(x)/float32(size), float32(y)/float32(size)
			dx, dy := fx-0.5, fy-0.6
			switch {
			case dx*dx+dy*dy < 0.16:
				img.SetRGBA(x, y, color.RGBA{240, 240, 250, 255})
			case fy < 0.3 && (fx > 0.2 && fx < 0.35 || fx > 0.65 && fx < 0.8):
				img.SetRGBA(x, y, color.RGBA{250, 170, 190, 255})
			}
		}
	}
	return img
}
