//go:build !js

package glrender

import "github.com/metronome-go/metronome/render2d"

// GLTexture exposes the GL name behind a texture handle to the external
// tests, which check that releases really delete GL objects.
func GLTexture(r *Renderer, h render2d.TextureHandle) uint32 {
	if !r.HasTexture(h) {
		return 0
	}
	return r.res.MustTexture(h).Val.id
}

// CPUNanos is the process CPU time the benchmarks of both test packages
// report.
var CPUNanos = cpuNanos

// SetGetError replaces the renderer's glGetError with f until the test
// ends, for tests that count or fake its questions.
func SetGetError(t interface{ Cleanup(func()) }, f func() uint32) {
	old := getError
	getError = f
	t.Cleanup(func() { getError = old })
}

// CheckFrames is how many frames Render checks after a change.
const CheckFrames = checkFrames

// Textures is how many textures r holds, targets' included.
func Textures(r *Renderer) int { return r.res.Textures() }
