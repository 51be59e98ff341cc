//go:build !js

package glrender_test

import (
	"testing"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

func TestConformance(t *testing.T) {
	gltest.Use(t)
	rendertest.TestRenderer(t, func(t *testing.T) render2d.Renderer { return gltest.Renderer(t) })
}
