package rendertest_test

import (
	"testing"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

func TestRecorderConformance(t *testing.T) {
	rendertest.TestRenderer(t, func(t *testing.T) render2d.Renderer {
		return rendertest.NewRecorder(32, 32, 4096)
	})
}
