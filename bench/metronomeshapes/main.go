// Command metronomeshapes draws the shape benchmark's scene (package
// scene) with Metronome: every frame it tessellates the shapes with
// render2d/shape (as ECS extraction does) and draws them with the GL
// renderer, then prints one result line:
//
//	metronomeshapes -kind lines|circles|line-sprites|circle-sprites -n 1000 [-frames 300]
//
// The sprite kinds draw sprites covering the same area instead: a 26x2
// quad turned like each line, a 12x12 disc texture for each circle.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/bench/internal/scene"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/render2d/shape"
)

func init() { runtime.LockOSThread() }

func main() {
	kind := flag.String("kind", "lines", "lines, circles, line-sprites or circle-sprites")
	n := flag.Int("n", 1000, "shapes per frame")
	frames := flag.Int("frames", 300, "frames measured (after 30 to warm up)")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the measured frames to this file")
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fmt.Fprintln(os.Stderr, "metronomeshapes:", err)
			os.Exit(1)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "metronomeshapes:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	res, err := run(*kind, *n, *frames)
	if err != nil {
		fmt.Fprintln(os.Stderr, "metronomeshapes:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
	fmt.Println(res)
}

func run(kind string, n, frames int) (scene.Result, error) {
	switch kind {
	case "lines", "circles", "line-sprites", "circle-sprites":
	default:
		return scene.Result{}, fmt.Errorf("-kind is %q, want lines, circles, line-sprites or circle-sprites", kind)
	}
	if err := glfw.Init(); err != nil {
		return scene.Result{}, err
	}
	defer glfw.Terminate()
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.Resizable, glfw.False)
	win, err := glfw.CreateWindow(scene.W, scene.H, "metronomeshapes", nil, nil)
	if err != nil {
		return scene.Result{}, err
	}
	defer win.Destroy()
	win.MakeContextCurrent()
	glfw.SwapInterval(0)
	r, err := glrender.New()
	if err != nil {
		return scene.Result{}, err
	}
	defer r.Close()
	fbW, fbH := win.GetFramebufferSize()
	r.SetFramebufferSize(fbW, fbH)
	disc, err := r.CreateTexture(discImage(2*scene.Radius), render2d.TextureOptions{})
	if err != nil {
		return scene.Result{}, err
	}

	var f render2d.Frame
	fw := render2d.NewFrameWriter(&f)
	var tess shape.Tessellator
	line := shape.Line(geom.Vec2{}, geom.Vec2{X: scene.LineDX, Y: scene.LineDY}, scene.LineWidth)
	circle := shape.Circle(scene.Radius)
	angle := float32(math.Atan2(scene.LineDY, scene.LineDX))
	length := float32(math.Hypot(scene.LineDX, scene.LineDY))
	var t0 time.Time
	var c0 time.Duration
	for fr := range 30 + frames {
		if fr == 30 {
			t0, c0 = time.Now(), scene.CPU()
		}
		f.Reset()
		pw := fw.BeginPass(render2d.PassDesc{Clear: true, ClearColor: render2d.RGBA8(51, 51, 64, 255)})
		for i := range n {
			x, y := scene.At(i, fr)
			cr, cg, cb, ca := scene.Color(i)
			c := render2d.RGBA8(cr, cg, cb, ca)
			pos := geom.Vec2{X: x, Y: y}
			switch kind {
			case "lines":
				err = tess.Draw(pw, &line, shape.Packet(pos, c))
			case "circles":
				err = tess.Draw(pw, &circle, shape.Packet(pos, c))
			case "line-sprites":
				p := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, pos, geom.Vec2{X: length, Y: scene.LineWidth})
				p.Transform.Origin = geom.Vec2{Y: scene.LineWidth / 2}
				p.Transform.Rotation, p.Tint = angle, c
				pw.Draw(p)
			case "circle-sprites":
				p := render2d.Sprite(disc, geom.Rect{}, pos, geom.Vec2{X: 2 * scene.Radius, Y: 2 * scene.Radius})
				p.Transform.Origin = geom.Vec2{X: scene.Radius, Y: scene.Radius}
				p.Tint = c
				pw.Draw(p)
			}
			if err != nil {
				return scene.Result{}, err
			}
		}
		if err := r.Render(&f); err != nil {
			return scene.Result{}, err
		}
		win.SwapBuffers()
		glfw.PollEvents()
	}
	return scene.Result{Engine: "metronome", Kind: kind, N: n, Frames: frames, Wall: time.Since(t0), CPU: scene.CPU() - c0}, nil
}

// discImage is a white disc with a soft edge, premultiplied.
func discImage(size int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	c := float64(size) / 2
	for y := range size {
		for x := range size {
			d := math.Hypot(float64(x)+0.5-c, float64(y)+0.5-c)
			a := uint8(255 * math.Max(0, math.Min(1, c-d+0.5)))
			img.SetRGBA(x, y, color.RGBA{a, a, a, a})
		}
	}
	return img
}
