package assetsrt_test

import (
	"fmt"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/assets/assetsrt"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
)

// loadScreen starts a load when the simulation starts and polls it every
// update, as a loading screen would, until it is done.
type loadScreen struct {
	runtime.Base
	renderer render2d.Renderer // the session\'s, from InitPlatform
	lib      *assets.Library
	load     *assets.Load
}

func (g *loadScreen) InitPlatform(plat *runtime.Platform) error {
	g.renderer = plat.Adapters.Renderer
	return nil
}

func (g *loadScreen) InitSimulation(sim *runtime.Simulation) error {
	exec := assetsrt.New(sim, g.renderer, sim.Workers.Group("assets"))
	var err error
	g.load, err = g.lib.StartLoad(exec, nil, assets.PatternFiles("gen/", 200, 32, 32), assets.LoadOptions{})
	return err
}

func (g *loadScreen) Update(t *runtime.TickContext) error {
	if !g.load.Done() {
		return nil // draw the bar from g.load.Progress() here
	}
	done, total := g.load.Progress()
	img, _ := g.load.Image(199)
	_, err := g.lib.Region(img)
	fmt.Printf("%d of %d files, err %v; the last one draws: %v\n", done, total, g.load.Err(), err == nil)
	return t.RequestStop()
}

func ExampleNew() {
	lib, _ := assets.NewLibrary(assets.DefaultOptions())
	clock := runtimetest.NewClock()
	ctx, fakes := runtimetest.NewAdapters(clock)
	ctx.Renderer = assets.NewUploadingRenderer(lib, fakes.Renderer) // as the framework does
	rt, _ := runtime.New(&loadScreen{lib: lib}, ctx, runtimetest.Options(clock, runtime.Concurrent))
	fmt.Println("run:", rt.Run())
	// Output:
	// 200 of 200 files, err <nil>; the last one draws: true
	// run: <nil>
}
