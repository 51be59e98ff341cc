// Command bunnymark measures how many moving textured sprites the render2d
// OpenGL renderer draws per second, and compares it with a plain hand-written
// instanced loop in the same run.
//
// Usage:
//
//	bunnymark [-n 10000] [-size 2] [-duration 5s] [-mode renderer|plain|compare]
//	          [-interp off|on|compare] [-filter linear|nearest] [-find60] [-screenshot out.png]
//
// It opens a 1280x720 window with vsync off and, in the default mode,
// prints one line:
//
//	filter=linear interp=off sprites=N frames=F seconds=S fps=X frame_ms=Y
//
// -mode compare runs the renderer and the plain loop alternately in short
// slices (-slice; each at least one frame and ended by glFinish, so
// -slice 1ns alternates frame by frame) for the whole duration, so both
// see the same machine load, and prints a line for each plus their ratio. -find60 searches for the sprite
// count each implementation draws at 60 frames per second.
//
// -interp on gives every packet its previous placement and draws each
// frame at an alpha between 0 and 1, so the GL renderer interpolates in
// its vertex shader; -interp compare runs the renderer with interpolation
// off and on alternately, like -mode compare, and prints the ratio.
// -filter picks the bunny texture's filtering (the renderer's default is
// linear; Ebitengine's is nearest) for the renderer and the plain loop
// alike; the filter used is printed.
package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"runtime"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/metronome-go/metronome/internal/cputime"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
)

func init() { runtime.LockOSThread() } // GLFW and GL live on the main thread

const winW, winH = 1280, 720

type options struct {
	n          int
	size       int
	duration   time.Duration
	mode       string
	interp     string
	filter     string
	find60     bool
	screenshot string
	slice      time.Duration
}

func main() {
	var o options
	flag.IntVar(&o.n, "n", 10000, "number of sprites")
	flag.IntVar(&o.size, "size", 2, "sprite width and height in pixels")
	flag.DurationVar(&o.duration, "duration", 5*time.Second, "measuring time (per implementation with -find60: per probe)")
	flag.StringVar(&o.mode, "mode", "renderer", "renderer, plain (the hand-written instanced loop) or compare (both, interleaved)")
	flag.StringVar(&o.interp, "interp", "off", "renderer interpolation: off, on (previous placements, alpha between 0 and 1) or compare (both, interleaved)")
	flag.StringVar(&o.filter, "filter", defaultFilter(), "bunny texture filtering: linear or nearest (default: the renderer's)")
	flag.BoolVar(&o.find60, "find60", false, "search for the sprite count reachable at 60 fps instead of measuring -n")
	flag.StringVar(&o.screenshot, "screenshot", "", "write the last renderer frame to this PNG file")
	flag.DurationVar(&o.slice, "slice", 250*time.Millisecond, "length of one interleaved slice in compare mode (at least one frame: 1ns alternates frame by frame)")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bunnymark:", err)
		os.Exit(1)
	}
}

func validate(o options) error {
	var errs []error
	if o.n < 0 {
		errs = append(errs, fmt.Errorf("-n is %d, want >= 0", o.n))
	}
	if o.size < 1 || o.size > 256 {
		errs = append(errs, fmt.Errorf("-size is %d, want 1 to 256", o.size))
	}
	if o.duration <= 0 {
		errs = append(errs, fmt.Errorf("-duration is %v, want > 0", o.duration))
	}
	if o.slice <= 0 {
		errs = append(errs, fmt.Errorf("-slice is %v, want > 0", o.slice))
	}
	switch o.mode {
	case "renderer", "plain", "compare":
	default:
		errs = append(errs, fmt.Errorf("-mode is %q, want renderer, plain or compare", o.mode))
	}
	switch o.interp {
	case "off", "on", "compare":
	default:
		errs = append(errs, fmt.Errorf("-interp is %q, want off, on or compare", o.interp))
	}
	if _, ok := filters[o.filter]; !ok {
		errs = append(errs, fmt.Errorf("-filter is %q, want linear or nearest", o.filter))
	}
	if o.mode == "plain" && o.interp != "off" {
		errs = append(errs, fmt.Errorf("-interp %s needs the renderer: -mode renderer or compare", o.interp))
	}
	return errors.Join(errs...)
}

var filters = map[string]render2d.Filter{"linear": render2d.FilterLinear, "nearest": render2d.FilterNearest}

// defaultFilter names the filter of the zero TextureOptions.
func defaultFilter() string {
	for name, f := range filters {
		if f == (render2d.TextureOptions{}).Filter {
			return name
		}
	}
	return "linear"
}

// benchOrder returns the benches to run, in the order their slices
// alternate: the plain loop first, then the renderer without and with
// interpolation, as the mode and -interp ask.
func benchOrder(o options) []string {
	var order []string
	if o.mode != "renderer" {
		order = append(order, "plain")
	}
	if o.mode != "plain" {
		if o.interp != "on" {
			order = append(order, "renderer")
		}
		if o.interp != "off" {
			order = append(order, "renderer-interp")
		}
	}
	return order
}

func run(o options) error {
	if err := validate(o); err != nil {
		return err
	}
	if err := glfw.Init(); err != nil {
		return err
	}
	defer glfw.Terminate()
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.Resizable, glfw.False)
	win, err := glfw.CreateWindow(winW, winH, "bunnymark", nil, nil)
	if err != nil {
		return err
	}
	defer win.Destroy()
	win.MakeContextCurrent()
	glfw.SwapInterval(0)
	fbW, fbH := win.GetFramebufferSize()

	img := bunnyImage(o.size)
	filter := filters[o.filter]
	r, err := glrender.New()
	if err != nil {
		return err
	}
	defer r.Close()
	r.SetFramebufferSize(fbW, fbH)
	tex, err := r.CreateTexture(img, render2d.TextureOptions{Filter: filter})
	if err != nil {
		return err
	}
	rb := newRendererBench(r, tex, fbW, fbH, false)
	ri := newRendererBench(r, tex, fbW, fbH, true)
	pb, err := newPlainBench(img, filter, fbW, fbH)
	if err != nil {
		return err
	}
	defer pb.close()

	present := func() {
		win.SwapBuffers()
		glfw.PollEvents()
	}
	benches := map[string]bench{"renderer": rb, "renderer-interp": ri, "plain": pb}
	order := benchOrder(o)
	if o.find60 {
		found := find60(benches, order, o, present)
		for _, name := range order {
			fmt.Printf("mode=%s filter=%s sprites_at_60fps=%d\n", name, o.filter, found[name])
		}
		if found["plain"] > 0 && found["renderer"] > 0 {
			fmt.Printf("ratio_renderer_to_plain=%.3f\n", float64(found["renderer"])/float64(found["plain"]))
		}
		if found["renderer"] > 0 && found["renderer-interp"] > 0 {
			fmt.Printf("ratio_interp_to_still=%.3f\n", float64(found["renderer-interp"])/float64(found["renderer"]))
		}
	} else {
		ns := map[string]int{}
		for _, name := range order {
			ns[name] = o.n
		}
		res := measure(benches, order, ns, o.size, o.duration, o.slice, present)
		for _, name := range order {
			m := res[name]
			prefix := fmt.Sprintf("filter=%s interp=%s ", o.filter, o.interp)
			if len(order) > 1 {
				prefix = "mode=" + name + " filter=" + o.filter + " "
			}
			suffix := ""
			if len(order) > 1 {
				suffix = fmt.Sprintf(" cpu_ms=%.3f", m.cpuMS())
			}
			fmt.Printf("%ssprites=%d frames=%d seconds=%.3f fps=%.1f frame_ms=%.3f%s\n", prefix, o.n, m.frames, m.seconds, m.fps(), m.frameMS(), suffix)
		}
		if res["plain"].fps() > 0 && res["renderer"].cpuMS() > 0 {
			fmt.Printf("ratio_renderer_to_plain_fps=%.3f ratio_plain_to_renderer_cpu_per_frame=%.3f\n",
				res["renderer"].fps()/res["plain"].fps(), res["plain"].cpuMS()/res["renderer"].cpuMS())
		}
		if res["renderer"].fps() > 0 && res["renderer-interp"].cpuMS() > 0 {
			fmt.Printf("ratio_interp_to_still_fps=%.3f ratio_still_to_interp_cpu_per_frame=%.3f\n",
				res["renderer-interp"].fps()/res["renderer"].fps(), res["renderer"].cpuMS()/res["renderer-interp"].cpuMS())
		}
	}
	if o.screenshot != "" {
		sb := rb
		if o.interp == "on" {
			sb = ri
		}
		sb.setup(min(o.n, 50000), o.size)
		sb.frame(1.0 / 60)
		img, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, fbW, fbH))
		if err != nil {
			return err
		}
		f, err := os.Create(o.screenshot)
		if err != nil {
			return err
		}
		if err := png.Encode(f, img); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	return nil
}

type result struct {
	frames  int
	seconds float64
	cpu     float64 // process CPU seconds (all threads, llvmpipe's included)
}

// cpuSeconds returns the process's user+system CPU time. Under load from
// other processes wall time per frame grows, CPU time per frame much less,
// so compare mode reports both.
func cpuSeconds() float64 {
	d, _ := cputime.Process() // 0 where the system reports none
	return d.Seconds()
}

func (m result) cpuMS() float64 {
	if m.frames == 0 {
		return 0
	}
	return m.cpu * 1000 / float64(m.frames)
}

func (m result) fps() float64 {
	if m.seconds == 0 {
		return 0
	}
	return float64(m.frames) / m.seconds
}

func (m result) frameMS() float64 {
	if m.frames == 0 {
		return 0
	}
	return m.seconds * 1000 / float64(m.frames)
}

// measure runs each bench with n sprites. With several benches it
// alternates between them in slices of at least one frame (a tiny -slice
// alternates frame by frame), so a change in machine load during the run
// affects all alike; the totals per bench are returned. total is the time
// each bench gets. Each slice ends with glFinish, so the GPU work of its
// frames counts in it.
func measure(benches map[string]bench, order []string, n map[string]int, size int, total, slice time.Duration, present func()) map[string]result {
	res := map[string]result{}
	last := map[string]time.Time{}
	for _, name := range order {
		benches[name].setup(n[name], size)
		// Warm up: first frames compile shaders and grow buffers.
		for range 5 {
			benches[name].frame(1.0 / 60)
			present()
		}
		last[name] = time.Now()
	}
	if len(order) == 1 {
		slice = total
	}
	spent := time.Duration(0)
	for spent < total {
		round := time.Now()
		for _, name := range order {
			b := benches[name]
			start := time.Now()
			cpu0 := cpuSeconds()
			frames := 0
			for frames == 0 || time.Since(start) < slice {
				now := time.Now()
				b.frame(float32(now.Sub(last[name]).Seconds())) // the bunnies move by real time, whatever the slices
				present()
				last[name] = now
				frames++
			}
			gl.Finish() // the slice's frames are drawn within the slice, not the next one's
			el := time.Since(start)
			m := res[name]
			m.frames += frames
			m.seconds += el.Seconds()
			m.cpu += cpuSeconds() - cpu0
			res[name] = m
		}
		spent += time.Since(round) / time.Duration(len(order))
	}
	return res
}

// find60 searches, for every bench in order, for the largest sprite count
// drawn at 60 fps or more: doubling from 1,000, then bisecting to within 2%.
// The searches run in lockstep: each probe measures every bench's own
// candidate count in interleaved slices, so all see the same machine load.
// Each probe lasts a quarter of -duration (at least one second).
func find60(benches map[string]bench, order []string, o options, present func()) map[string]int {
	probe := max(o.duration/4, time.Second)
	type search struct {
		lo, hi   int
		doubling bool
	}
	st := map[string]*search{}
	for _, name := range order {
		st[name] = &search{lo: 0, hi: 1000, doubling: true}
	}
	done := func(s *search) bool { return !s.doubling && s.hi-s.lo <= max(s.lo/50, 100) }
	for {
		var active []string
		ns := map[string]int{}
		for _, name := range order {
			s := st[name]
			if done(s) {
				continue
			}
			active = append(active, name)
			if s.doubling {
				ns[name] = s.hi
			} else {
				ns[name] = (s.lo + s.hi) / 2
			}
		}
		if len(active) == 0 {
			break
		}
		res := measure(benches, active, ns, o.size, probe, min(o.slice, probe), present)
		for _, name := range active {
			s, n, ok := st[name], ns[name], res[name].fps() >= 60
			switch {
			case s.doubling && ok:
				s.lo, s.hi = n, 2*n
				if s.hi > 4_000_000 {
					s.doubling, s.hi = false, s.lo
				}
			case s.doubling:
				s.doubling = false
			case ok:
				s.lo = n
			default:
				s.hi = n
			}
		}
	}
	out := map[string]int{}
	for _, name := range order {
		out[name] = st[name].lo
	}
	return out
}
