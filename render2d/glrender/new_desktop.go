//go:build !js

package glrender

import (
	"fmt"

	"github.com/metronome-go/metronome/internal/gl"
)

// New returns a renderer for the context current on the calling thread.
// It loads the GL entry points, checks for OpenGL 4.1 or later, and takes
// the initial framebuffer size from the current viewport (the window size
// for a fresh context); call SetFramebufferSize on resize.
func New() (*Renderer, error) {
	if err := gl.Init(); err != nil {
		return nil, fmt.Errorf("glrender: loading OpenGL entry points (is a 4.1 core context current?): %w", err)
	}
	var major, minor int32
	gl.GetIntegerv(gl.MAJOR_VERSION, &major)
	gl.GetIntegerv(gl.MINOR_VERSION, &minor)
	if major < 4 || (major == 4 && minor < 1) {
		return nil, fmt.Errorf("glrender: OpenGL %d.%d context, want 4.1 or later", major, minor)
	}
	return newRenderer()
}
