//go:build !js

package glrender_test

import (
	"testing"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// TestConformance runs the suite on each draw path.
func TestConformance(t *testing.T) {
	gltest.Use(t)
	for _, path := range drawPaths {
		t.Run(path.String(), func(t *testing.T) {
			rendertest.TestRenderer(t, func(t *testing.T) render2d.Renderer { return rendererOn(t, path) })
		})
	}
}
