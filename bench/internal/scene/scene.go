// Package scene is the workload both shape benchmarks draw, so that
// Ebitengine and Metronome draw exactly the same shapes: n stroked lines
// or n filled circles a frame, spread over the window and moving a little
// every frame, each with its own colour.
package scene

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/internal/cputime"
)

// Window size of both programs.
const W, H = 800, 600

// Line is each line's extent from its start (a 26-unit line) and width.
const (
	LineDX, LineDY = 24, 10
	LineWidth      = 2
	// Radius of each circle.
	Radius = 6
)

// At returns where shape i starts in frame f.
func At(i, f int) (x, y float32) {
	return float32(20 + (i*37+f*3)%(W-60)), float32(20 + (i*53+f*2)%(H-60))
}

// Color returns shape i's colour as 8-bit straight RGBA.
func Color(i int) (r, g, b, a uint8) {
	return uint8(i * 67), uint8(i * 131), 200, 255
}

// Result is one measured run.
type Result struct {
	Engine, Kind string
	N, Frames    int
	Wall, CPU    time.Duration
}

func (r Result) String() string {
	return fmt.Sprintf("engine=%s kind=%s n=%d frames=%d frame_ms=%.3f cpu_ms=%.3f",
		r.Engine, r.Kind, r.N, r.Frames, ms(r.Wall)/float64(r.Frames), ms(r.CPU)/float64(r.Frames))
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// CPU returns the process's CPU time so far (the software rasteriser's
// threads included), through the framework's per-system reader.
func CPU() time.Duration {
	d, _ := cputime.Process()
	return d
}
