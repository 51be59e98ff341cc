package demo

import (
	"math"
	"sync"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/render2d"
)

// The motion probe: a small sprite that crosses a track under the overlay
// at constant simulated speed, so that what the player sees of motion can
// be measured. Its layer is above everything else, so in the frame's one
// pass (sorted by layer) it is the last packet.
const (
	layerProbe  int16 = 13
	probeSpeed        = 240 // px per simulated second
	probeTrack        = 480 // px, then it starts again at the left
	probeSize         = 6
	probeWindow       = 120 // presents the judder figure covers
)

var probeColor = render2d.Color{R: 1, G: 0.62, B: 0.2, A: 1}

// probeMarker marks the probe entity; X is its distance along the track.
type probeMarker struct{ X float32 }

// probeSystem moves the probe by the tick's simulation delta. At the end of
// the track it starts again at the left, teleported so that no frame draws
// it sliding back across the screen.
func (g *Game) probeSystem() ecs.System {
	return ecs.System{Name: "motion probe", Run: func(ctx *ecs.Context) {
		ov := g.overlay
		q := ov.probes.Query()
		for q.Next() {
			t, _, m := q.Get()
			m.X += float32(probeSpeed * ctx.DeltaSeconds())
			wrapped := m.X >= probeTrack
			for m.X >= probeTrack {
				m.X -= probeTrack
			}
			t.Position = ecs.Vec2{X: ov.probeX + m.X, Y: ov.probeY}
			if wrapped {
				t.Teleport()
			}
		}
	}}
}

// presentProbe watches every present: it wraps the session's renderer and
// notes, at each Render, the present's alpha and where the
// probe sprite is drawn at that alpha ([render2d.DrawPacket2D.Resolved],
// exactly what the renderer draws). Render runs on the platform thread;
// [presentProbe.Summary] may be called from any goroutine.
type presentProbe struct {
	render2d.Renderer

	mu sync.Mutex
	// A ring of the probe's drawn x at the latest presents (NaN when the
	// frame had no probe): probeWindow+1 places, probeWindow steps.
	x      [probeWindow + 1]float32
	next   int
	filled int
	alpha  float32
}

// Render notes the present, then draws it.
func (p *presentProbe) Render(f *render2d.Frame) error {
	x := float32(math.NaN())
	if n := len(f.Passes); n > 0 {
		pk := f.Passes[n-1].Packets
		for i := len(pk) - 1; i >= 0 && pk[i].Layer >= layerProbe; i-- {
			if pk[i].Layer == layerProbe {
				x = pk[i].Resolved(f.Present.Alpha).Transform.Position.X
				break
			}
		}
	}
	p.mu.Lock()
	p.x[p.next] = x
	p.next = (p.next + 1) % len(p.x)
	p.filled = min(p.filled+1, len(p.x))
	p.alpha = f.Present.Alpha
	p.mu.Unlock()
	return p.Renderer.Render(f)
}

// PresentSummary describes the latest presents.
type PresentSummary struct {
	// Alpha is the interpolation factor of the latest present.
	Alpha float32
	// Judder is the coefficient of variation (standard deviation over
	// mean) of the probe's on-screen displacement from one present to the
	// next, over the latest 120 presents: 0 is perfectly even motion. Each
	// present draws the probe where it is at that instant; if every
	// present shows an equal share of the motion the displacements are
	// equal. 60 Hz ticks on a 144 Hz display without interpolation move it
	// 0, 0, then a whole step, and so on: about 1.2. Steps across the wrap
	// of the track and presents without the probe are left out.
	Judder float64
	// Steps is the number of displacements Judder is computed from; zero
	// when the probe did not move (Judder is then 0 and means nothing).
	Steps int
}

// Summary computes the summary of the latest presents. Any goroutine;
// allocation-free.
func (p *presentProbe) Summary() PresentSummary {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := PresentSummary{Alpha: p.alpha}
	n := len(p.x)
	start := (p.next - p.filled + n) % n
	var sum, sumSq float64
	for k := 1; k < p.filled; k++ {
		a, b := p.x[(start+k-1)%n], p.x[(start+k)%n]
		d := float64(b - a)
		if a != a || b != b || d < 0 {
			continue // no probe, or the wrap
		}
		sum += d
		sumSq += d * d
		s.Steps++
	}
	s.Judder = judder(sum, sumSq, s.Steps)
	return s
}

// judder returns the coefficient of variation of n values with the given
// sum and sum of squares, and 0 when their mean is not positive.
func judder(sum, sumSq float64, n int) float64 {
	if n == 0 || sum <= 0 {
		return 0
	}
	mean := sum / float64(n)
	v := sumSq/float64(n) - mean*mean
	return math.Sqrt(max(v, 0)) / mean
}
