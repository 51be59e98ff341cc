package demo

import (
	"math"
	"sync"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

// The motion probe: a small sprite circling a hub under the overlay's
// statistics at a constant simulated speed, so that what the player sees of
// motion can be measured. It goes round rather than across so that it never
// jumps back (a jump is no motion to measure); at 4 pixels a tick on a
// 24-pixel radius each tick's chord is as long as the next. Its layer is
// above everything else, so in the frame's one pass (sorted by layer) it is
// the last packet.
const (
	layerProbe  int16 = 13
	probeSpeed        = 240 // px per simulated second
	probeRadius       = 24  // px
	probeSize         = 6
	probeWindow       = 120 // presents the judder figure covers
)

var probeColor = render2d.Color{R: 1, G: 0.62, B: 0.2, A: 1}

// probeMarker marks the probe entity; Angle is where it is on its circle.
type probeMarker struct{ Angle float64 }

// probeSystem moves the probe by the tick's simulation delta.
func (g *Game) probeSystem() ecs.System {
	return ecs.System{Name: "motion probe", Run: func(ctx *ecs.Sys) {
		ov := g.overlay
		q := ov.probes.Query()
		for q.Next() {
			t, _, m := q.Get()
			m.Angle = math.Mod(m.Angle+probeSpeed/probeRadius*ctx.RunDeltaSeconds(), 2*math.Pi)
			sin, cos := math.Sincos(m.Angle)
			t.Position = geom.Vec2{X: ov.probeX + float32(probeRadius*cos), Y: ov.probeY + float32(probeRadius*sin)}
		}
	}}
}

// BenchMeasure is what a benchmark measured of one variant: the presents
// and the real time between them.
type BenchMeasure struct {
	Frames  uint64
	Elapsed time.Duration
}

// FPS returns presents per second, 0 when nothing was measured.
func (m BenchMeasure) FPS() float64 {
	if m.Elapsed <= 0 {
		return 0
	}
	return float64(m.Frames) / m.Elapsed.Seconds()
}

// presentProbe watches every present: it wraps the session's renderer and
// notes, at each Render, the present's alpha and where the probe sprite is
// drawn at that alpha ([render2d.DrawPacket2D.Resolved], exactly what the
// renderer draws). While a benchmark measures, it also adds each present
// and the time since the previous one to the variant the frame shows:
// interpolated (a frame with a step) or not. Render runs on the platform
// thread; the other methods may be called from any goroutine.
type presentProbe struct {
	render2d.Renderer

	mu sync.Mutex
	// A ring of the latest presents: the instant and the probe's drawn
	// position (X NaN when the frame had no probe). probeWindow+1 presents
	// give probeWindow steps, and cover probeWindow frame slots when
	// presents are at most one a slot.
	at     [probeWindow + 1]timing.Instant
	pos    [probeWindow + 1]geom.Vec2
	next   int
	filled int
	alpha  float32

	measuring bool
	lastAt    timing.Instant
	variant   [2]BenchMeasure // off, on
}

// Render notes the present, then draws it. A frame without a present
// instant is drawn but not noted: it is not a present (the framework's
// screenshot draws the final state that way).
func (p *presentProbe) Render(f *render2d.Frame) error {
	if f.Present.At == 0 {
		return p.Renderer.Render(f)
	}
	pos := geom.Vec2{X: float32(math.NaN())}
	if n := len(f.Passes); n > 0 {
		pk := f.Passes[n-1].Packets
		for i := len(pk) - 1; i >= 0 && pk[i].Layer >= layerProbe; i-- {
			if pk[i].Layer == layerProbe {
				pos = pk[i].Resolved(f.Present.Alpha).Transform.Position
				break
			}
		}
	}
	p.mu.Lock()
	p.at[p.next], p.pos[p.next] = f.Present.At, pos
	p.next = (p.next + 1) % len(p.pos)
	p.filled = min(p.filled+1, len(p.pos))
	p.alpha = f.Present.Alpha
	if at := f.Present.At; p.measuring {
		if p.lastAt != 0 && at > p.lastAt {
			v := &p.variant[b2i(f.Span.Step > 0)]
			v.Frames++
			v.Elapsed += time.Duration(at - p.lastAt)
		}
		p.lastAt = at
	}
	p.mu.Unlock()
	return p.Renderer.Render(f)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// measure starts counting presents by variant; the first present after it
// only marks the start.
func (p *presentProbe) measure() {
	p.mu.Lock()
	p.measuring, p.lastAt = true, 0
	p.mu.Unlock()
}

// variants returns what was measured with interpolation on and off.
func (p *presentProbe) variants() (on, off BenchMeasure) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.variant[1], p.variant[0]
}

// PresentSummary describes the latest presents.
type PresentSummary struct {
	// Alpha is the interpolation factor of the latest present.
	Alpha float32
	// Judder is the coefficient of variation (standard deviation over
	// mean) of the probe's on-screen displacement from one frame slot to
	// the next, over the latest 120 slots: 0 is perfectly even motion.
	// Under a frame cap a slot is one cap interval, the time the screen
	// shows each picture when every slot gets a present; a slot without a
	// present shows the previous picture again, a displacement of 0.
	// Without a cap each present is a slot. So 60 Hz ticks under a 144 fps
	// cap without interpolation move the probe 0, 0, then a whole tick's
	// step, and so on (about 1.2), and with interpolation an equal share of
	// the motion at every slot (about 0). Presents without the probe
	// (overlay hidden) are left out.
	Judder float64
	// Steps is the number of displacements Judder is computed from; zero
	// when the probe did not move (Judder is then 0 and means nothing).
	Steps int
}

// Summary computes the summary of the latest presents, with frame slots
// of length slot (the frame cap's interval; 0 for none: each present is a
// slot). Any goroutine; allocation-free.
func (p *presentProbe) Summary(slot time.Duration) PresentSummary {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := PresentSummary{Alpha: p.alpha}
	n := len(p.pos)
	// i counts back from the latest present: 0 is the newest.
	idx := func(i int) int { return (p.next - 1 - i + 2*n) % n }
	var sum, sumSq float64
	add := func(a, b geom.Vec2) {
		if a.X != a.X || b.X != b.X {
			return // a present without the probe
		}
		d := math.Hypot(float64(b.X-a.X), float64(b.Y-a.Y))
		sum += d
		sumSq += d * d
		s.Steps++
	}
	if slot <= 0 {
		for i := 1; i < p.filled; i++ {
			add(p.pos[idx(i)], p.pos[idx(i-1)])
		}
	} else if p.filled > 0 {
		// Sample the screen half a slot after each slot's present is due,
		// counting back from the newest present: what a present a little
		// late or early for its slot shows is still its slot's picture.
		at := p.at[idx(0)].AddSaturating(slot / 2)
		i := 0 // the present on screen at the sample
		var prev geom.Vec2
		for k := 0; k <= probeWindow; k++ {
			for i < p.filled && p.at[idx(i)] > at {
				i++
			}
			if i >= p.filled {
				break // the ring does not reach back this far
			}
			cur := p.pos[idx(i)]
			if k > 0 {
				add(cur, prev)
			}
			prev, at = cur, at.AddSaturating(-slot)
		}
	}
	if sum <= 0 {
		s.Steps = 0 // nothing moved: no figure
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
