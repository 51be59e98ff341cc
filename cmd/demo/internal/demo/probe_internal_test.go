package demo

import (
	"math"
	"testing"
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

// nullRenderer draws nothing; the probe's Render passes frames on to it.
type nullRenderer struct{ render2d.Renderer }

func (nullRenderer) Render(*render2d.Frame) error { return nil }

// probeFrame is a frame presented now (a millisecond after the previous
// one) whose one pass ends with the probe at x, or has no probe when x is
// NaN.
func probeFrame(x float32, alpha float32) *render2d.Frame {
	probeClock += timing.Instant(time.Millisecond)
	f := &render2d.Frame{Present: render2d.Presentation{At: probeClock, Alpha: alpha}}
	pass := render2d.Pass{Packets: []render2d.DrawPacket2D{{Layer: layerText}}}
	if x == x {
		pass.Packets = append(pass.Packets, render2d.DrawPacket2D{Layer: layerProbe, Transform: render2d.Transform{Position: geom.Vec2{X: x}}})
	}
	f.Passes = []render2d.Pass{pass}
	return f
}

var probeClock timing.Instant

// cv is the coefficient of variation of ds, written out plainly.
func cv(ds []float64) float64 {
	mean := 0.0
	for _, d := range ds {
		mean += d
	}
	mean /= float64(len(ds))
	v := 0.0
	for _, d := range ds {
		v += (d - mean) * (d - mean)
	}
	return math.Sqrt(v/float64(len(ds))) / mean
}

func TestPresentProbe(t *testing.T) {
	// 60 Hz ticks on 144 Hz presents without interpolation: each tick's
	// 4-pixel step shows on one present in 2.4, the others repeat it.
	var held []float32
	var heldSteps []float64
	x := float32(0)
	for i := range 200 {
		next := float32(math.Floor(float64(i)*60/144)) * 4
		if i > 0 {
			heldSteps = append(heldSteps, float64(next-x))
		}
		x = next
		held = append(held, x)
	}
	even := make([]float32, 200)
	for i := range even {
		even[i] = float32(i) * 1.5
	}
	nan := float32(math.NaN())
	tests := []struct {
		name      string
		xs        []float32
		wantSteps int
		want      float64
	}{
		{"even motion", even, probeWindow, 0},
		{"held ticks: only the latest 120 steps count", held, probeWindow, cv(heldSteps[len(heldSteps)-probeWindow:])},
		{"a step back is a step of its length", []float32{0, 2, 4, 2, 0}, 4, 0},
		{"presents without the probe are left out", []float32{0, 2, nan, 6, 8}, 2, 0},
		{"alternating 1 and 3 pixels", []float32{0, 1, 4, 5, 8, 9, 12}, 6, 0.5},
		{"standing still", []float32{5, 5, 5}, 0, 0},
		{"no presents", nil, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &presentProbe{Renderer: nullRenderer{}}
			for i, x := range tt.xs {
				if err := p.Render(probeFrame(x, float32(i%10)/10)); err != nil {
					t.Fatal(err)
				}
			}
			s := p.Summary(0)
			if s.Steps != tt.wantSteps {
				t.Errorf("steps: got %d, want %d", s.Steps, tt.wantSteps)
			}
			if math.Abs(s.Judder-tt.want) > 1e-6 {
				t.Errorf("judder: got %.6f, want %.6f", s.Judder, tt.want)
			}
			if n := len(tt.xs); n > 0 && s.Alpha != float32((n-1)%10)/10 {
				t.Errorf("alpha: got %v, want the latest present's %v", s.Alpha, float32((n-1)%10)/10)
			}
		})
	}
	if got := cv(heldSteps); got < 1.1 || got > 1.3 {
		t.Errorf("held ticks give a judder of %.3f, want about 1.2 as the overlay's doc says", got)
	}
}

// The probe draws where the renderer draws: a packet with a previous
// placement is taken at the present's alpha.
func TestPresentProbeResolvesAlpha(t *testing.T) {
	p := &presentProbe{Renderer: nullRenderer{}}
	for i, alpha := range []float32{0, 0.25, 0.5, 0.75} {
		f := probeFrame(10, alpha)
		pk := &f.Passes[0].Packets[1]
		pk.Transform.Scale = geom.Vec2{X: 1, Y: 1}
		pk.Prev = render2d.Placement{Position: geom.Vec2{X: 6}, Scale: pk.Transform.Scale, Set: true}
		if err := p.Render(f); err != nil {
			t.Fatal(err)
		}
		if got, want := p.pos[i].X, 6+4*alpha; got != want {
			t.Errorf("present %d at alpha %v: probe at %v, want %v", i, alpha, got, want)
		}
	}
	if s := p.Summary(0); s.Steps != 3 || s.Judder > 1e-6 {
		t.Errorf("got %d steps with judder %v, want 3 even steps", s.Steps, s.Judder)
	}
}

// Under a frame cap the figure is taken per frame slot: the screen holds
// the latest present's picture through slots without one.
func TestPresentProbeSlots(t *testing.T) {
	const slot = time.Second / 144
	run := func(presentsPerSecond float64, jitter time.Duration) PresentSummary {
		p := &presentProbe{Renderer: nullRenderer{}}
		for i := range 400 {
			// The probe moves 240 px/s; each present shows where it is
			// at its slot's instant, whether it comes a little late or not.
			due := time.Duration(float64(i) / presentsPerSecond * 1e9)
			at := due
			if i%2 == 1 {
				at += jitter
			}
			f := probeFrame(float32(due.Seconds()*240), 1)
			f.Present.At = timing.Instant(int64(time.Hour) + int64(at))
			if err := p.Render(f); err != nil {
				t.Fatal(err)
			}
		}
		return p.Summary(slot)
	}
	// A present at every slot, every other one a little late: even.
	if s := run(144, 300*time.Microsecond); s.Steps != probeWindow || s.Judder > 0.01 {
		t.Errorf("a present every slot: %d steps, judder %.3f; want %d steps, about 0", s.Steps, s.Judder, probeWindow)
	}
	// 60 presents a second under a 144 fps cap: each picture held for two
	// or three slots.
	if s := run(60, 0); s.Steps != probeWindow || s.Judder < 1.1 || s.Judder > 1.3 {
		t.Errorf("60 presents under 144 slots: %d steps, judder %.3f; want %d steps, about 1.2", s.Steps, s.Judder, probeWindow)
	}
	// Each present alone, whatever the slots.
	p := &presentProbe{Renderer: nullRenderer{}}
	for i := range 10 {
		f := probeFrame(float32(i*4), 1)
		f.Present.At = timing.Instant(int64(i+1) * int64(50*time.Millisecond))
		_ = p.Render(f)
	}
	if s := p.Summary(0); s.Steps != 9 || s.Judder > 1e-9 {
		t.Errorf("per present: %d steps, judder %v; want 9, 0", s.Steps, s.Judder)
	}
}

// A frame drawn without a present instant (the framework's screenshot) is
// not a present.
func TestPresentProbeIgnoresScreenshots(t *testing.T) {
	p := &presentProbe{Renderer: nullRenderer{}}
	for i := range 5 {
		_ = p.Render(probeFrame(float32(i), 0.5))
	}
	shot := probeFrame(100, 1)
	shot.Present.At = 0
	_ = p.Render(shot)
	if s := p.Summary(0); s.Steps != 4 || s.Alpha != 0.5 {
		t.Errorf("after a screenshot: %d steps, alpha %v; want the 4 steps and the alpha of the presents", s.Steps, s.Alpha)
	}
}

// While a benchmark measures, each present and the time since the previous
// one count for the variant the frame shows.
func TestPresentProbeVariants(t *testing.T) {
	p := &presentProbe{Renderer: nullRenderer{}}
	present := func(at int64, step time.Duration) {
		f := probeFrame(0, 1)
		f.Present.At, f.Span.Step = timing.Instant(at), step
		if err := p.Render(f); err != nil {
			t.Fatal(err)
		}
	}
	present(1000, time.Millisecond) // before measuring: not counted
	p.measure()
	present(2000, time.Millisecond) // marks the start
	present(2010, time.Millisecond)
	present(2030, 0)
	present(2060, 0)
	present(2100, time.Millisecond)
	on, off := p.variants()
	if want := (BenchMeasure{Frames: 2, Elapsed: 50}); on != want {
		t.Errorf("on: got %+v, want %+v", on, want)
	}
	if want := (BenchMeasure{Frames: 2, Elapsed: 50}); off != want {
		t.Errorf("off: got %+v, want %+v", off, want)
	}
	if got, want := on.FPS(), 2/50e-9; math.Abs(got-want) > 1e-3 {
		t.Errorf("fps: got %v, want %v", got, want)
	}
}
