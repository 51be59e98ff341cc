package assets_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"sync"
	"testing/fstest"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// loopExec is a minimal executor: jobs on goroutines, and one queue that
// the example's loop drains as both the simulation owner and the graphics
// thread. On a runtime session, use assetsrt.New instead.
type loopExec struct {
	wg    *sync.WaitGroup
	queue chan func()
	gpu   assets.Uploader
}

func (e loopExec) Go(job func(context.Context)) error {
	e.wg.Go(func() { job(context.Background()) })
	return nil
}
func (e loopExec) Post(fn func()) error { e.queue <- fn; return nil }
func (e loopExec) Graphics(fn func(assets.Uploader)) error {
	e.queue <- func() { fn(e.gpu) }
	return nil
}

func ExampleLibrary_StartLoad() {
	fsys := fstest.MapFS{}
	for _, name := range []string{"hero.png", "tree.png"} {
		var buf bytes.Buffer
		_ = png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 16, 16)))
		fsys[name] = &fstest.MapFile{Data: buf.Bytes()}
	}
	files := []assets.File{
		assets.ImageFile("hero.png"),
		assets.ImageFile("tree.png"),
		assets.ImageFile("missing.png"),
		assets.GeneratedImage("sky", func(context.Context) (image.Image, error) { return assets.Pattern(1, 64, 32), nil }),
	}
	lib, _ := assets.NewLibrary(assets.DefaultOptions())
	exec := loopExec{wg: new(sync.WaitGroup), queue: make(chan func(), 16), gpu: rendertest.NewRecorder(64, 64, 4096)}
	load, err := lib.StartLoad(exec, fsys, files, assets.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// The simulation's updates: poll, draw a progress bar, go on.
	for !load.Done() {
		(<-exec.queue)() // what the runtime's mailbox drain does before an update
	}
	exec.wg.Wait()
	done, total := load.Progress()
	fmt.Printf("%d of %d files\n", done, total)
	fmt.Println(load.Err())
	sky, _ := load.Image(3)
	r, err := lib.Region(sky) // uploaded: ready to draw
	fmt.Println(r.Size(), err)
	// Output:
	// 4 of 4 files
	// assets: load image missing.png: file does not exist
	// {64 32} <nil>
}
