package assets_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"testing/fstest"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// A game embeds its files; here a MapFS holds a 4-frame, 16x16 sheet.
func exampleFS() fstest.MapFS {
	img := image.NewRGBA(image.Rect(0, 0, 64, 16))
	for x := 0; x < 64; x++ {
		for y := 0; y < 16; y++ {
			img.Set(x, y, color.RGBA{uint8(x / 16 * 60), 80, 160, 255})
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return fstest.MapFS{"sprites/walker.png": {Data: buf.Bytes()}}
}

func ExampleLibrary_LoadSheet() {
	lib, _ := assets.NewLibrary(assets.DefaultOptions())
	sheet, err := lib.LoadSheet(exampleFS(), "sprites/walker.png", assets.SheetSpec{
		FrameWidth: 16, FrameHeight: 16,
		Animations: map[string]assets.Animation{
			"walk": {Frames: []int{0, 1, 2, 3}, FrameTime: 100 * time.Millisecond},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	// Graphics thread, before rendering: put the atlas on the GPU.
	renderer := rendertest.NewRecorder(320, 240, 4096)
	if err := lib.Upload(renderer); err != nil {
		fmt.Println(err)
		return
	}

	// Simulation side, preparing a frame: 250 ms into the walk cycle.
	var frame render2d.Frame
	pass := render2d.NewFrameWriter(&frame).BeginPass(render2d.PassDesc{})
	region, err := lib.AnimationFrame(sheet, "walk", 250*time.Millisecond)
	if err != nil {
		fmt.Println(err)
		return
	}
	pass.Draw(region.Sprite(geom.Vec2{X: 40, Y: 30}))

	// Graphics thread again: upload anything new, then render.
	_ = lib.Upload(renderer)
	if err := renderer.Render(&frame); err != nil {
		fmt.Println(err)
		return
	}
	p := renderer.Frames[0].Passes[0].Packets[0]
	texels, _ := renderer.Texels(p.Texture)
	fmt.Printf("drew %vx%v at (%v, %v)\n", p.Size.X, p.Size.Y, p.Transform.Position.X, p.Transform.Position.Y)
	fmt.Println("texel colour:", texels.RGBAAt(int(p.Source.X), int(p.Source.Y)))
	// Output:
	// drew 16x16 at (40, 30)
	// texel colour: {120 80 160 255}
}

func ExampleLibrary_DrawText() {
	lib, _ := assets.NewLibrary(assets.DefaultOptions())
	font, _ := lib.DefaultFont(16) // Go Regular, embedded
	renderer := rendertest.NewRecorder(320, 240, 4096)
	_ = lib.Upload(renderer)

	// Simulation side: lay the paragraph out into glyph packets.
	var frame render2d.Frame
	pass := render2d.NewFrameWriter(&frame).BeginPass(render2d.PassDesc{})
	bounds, err := lib.DrawText(pass, font, "Grüße, naïve café! The quick brown fox jumps over the lazy dog.", assets.TextOptions{
		Position: geom.Vec2{X: 10, Y: 10},
		Width:    150,
		Align:    assets.AlignCenter,
		Color:    render2d.RGBA8(255, 220, 120, 255),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d glyphs on %d lines, %v pending\n", bounds.Glyphs, bounds.Lines, bounds.Pending)
	fmt.Printf("fits the box: %v\n", bounds.Rect.X >= 10 && bounds.Rect.X+bounds.Rect.W <= 160)

	// Graphics thread: new glyphs reach the GPU before the frame is drawn.
	_ = lib.Upload(renderer)
	fmt.Println("render:", renderer.Render(&frame))
	// Output:
	// 52 glyphs on 4 lines, 0 pending
	// fits the box: true
	// render: <nil>
}

func ExampleAnimation_Frame() {
	walk := assets.Animation{Frames: []int{4, 5, 6, 7}, FrameTime: 100 * time.Millisecond, Mode: assets.PingPong}
	for _, ms := range []int{0, 150, 350, 450, 650} {
		fmt.Print(walk.Frame(time.Duration(ms)*time.Millisecond), " ")
	}
	fmt.Println()
	// Output: 4 5 7 6 4
}

func ExamplePacker() {
	p := assets.NewPacker(64, 32)
	for _, size := range []image.Point{{32, 32}, {16, 8}, {16, 8}, {40, 8}} {
		at, ok := p.Pack(size.X, size.Y)
		fmt.Println(size, "->", at, ok)
	}
	// Output:
	// (32,32) -> (0,0) true
	// (16,8) -> (32,0) true
	// (16,8) -> (48,0) true
	// (40,8) -> (0,0) false
}

// Fonts load from any fs.FS at a chosen size; an OpenType font with CFF
// (PostScript) outlines works like a TrueType one once the program imports
// package assets/cff (these tests do). This one is the tiny
// test font in testdata, which has the glyphs 0, 1, Q and 中.
func ExampleLibrary_LoadFont() {
	lib, _ := assets.NewLibrary(assets.DefaultOptions())
	fsys := os.DirFS("testdata")
	var fonts []assets.Font
	for _, size := range []float64{20, 40} {
		font, err := lib.LoadFont(fsys, "CFFTest.otf", size)
		if err != nil {
			fmt.Println(err)
			return
		}
		fonts = append(fonts, font)
	}
	_ = lib.Upload(rendertest.NewRecorder(64, 64, 4096)) // graphics thread: readies a page for glyphs
	for _, font := range fonts {
		m, _ := lib.Metrics(font)
		ps, b, _ := lib.AppendText(nil, font, "10Q\n中", assets.TextOptions{})
		fmt.Printf("%vpx: ascent %v, line height %v; %d glyphs on %d lines, %v wide\n", m.Size, m.Ascent, m.LineHeight, len(ps), b.Lines, b.Rect.W)
	}
	_, err := lib.LoadFont(fsys, "missing.otf", 20)
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	// Output:
	// 20px: ascent 16, line height 18; 4 glyphs on 2 lines, 40 wide
	// 40px: ascent 32, line height 36; 4 glyphs on 2 lines, 80 wide
	// true
}
