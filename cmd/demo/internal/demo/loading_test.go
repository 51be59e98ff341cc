package demo_test

import (
	"math"
	"testing"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/render2d"
)

// Layers of the loading screen and the loaded tiles (loading.go).
const (
	layerTile     = -1
	layerLoadFill = 22
	layerLoadText = 23
)

// countLayer counts the visible packets of f on layer, and those with a
// texture.
func countLayer(f *render2d.Frame, layer int16) (n, textured int) {
	if f == nil {
		return 0, 0
	}
	for _, p := range f.Passes {
		for _, pk := range p.Packets {
			if pk.Layer == layer {
				n++
				if pk.Texture != (render2d.TextureHandle{}) {
					textured++
				}
			}
		}
	}
	return n, textured
}

// fillWidth returns the width of the loading bar's fill in f.
func fillWidth(f *render2d.Frame) (float32, bool) {
	if f == nil {
		return 0, false
	}
	for _, p := range f.Passes {
		for _, pk := range p.Packets {
			if pk.Layer == layerLoadFill {
				return pk.Size.X, true
			}
		}
	}
	return 0, false
}

// TestLoadingScreen: while the atlas loads in the background, the game
// presents a loading screen whose bar follows the load's progress, rising
// to every file; then the screen goes and the loaded images show as the
// scene's background. The scene itself runs from the first tick.
func TestLoadingScreen(t *testing.T) {
	const images, size = 16, 128
	// The test lets the workers draw one image at a time, the next once
	// the last has arrived, so that the bar's steps do not depend on how
	// fast the machine draws.
	release, stop := make(chan struct{}, images), make(chan struct{})
	gate := func(int) {
		select {
		case <-release:
		case <-stop:
		}
	}
	g, sim := newSim(t, demo.Options{Sprites: 20, Seed: 4, AtlasImages: images, AtlasSize: size, AtlasGate: gate})
	defer sim.Close()
	defer close(stop)
	released := 0
	var progress []int
	sawScreen := false
	presentsWhileLoading := 0
	shown := 0 // the progress of the tick that drew the latest frame
	for step := 0; ; step++ {
		if step == 5000 {
			t.Fatalf("the load did not finish in %d ticks; progress %v", step, progress)
		}
		if d, _, _ := g.Loading(); d == released && released < images {
			release <- struct{}{}
			released++
		}
		before := sim.Presents()
		if err := sim.Step(1); err != nil {
			t.Fatal(err)
		}
		done, total, finished := g.Loading()
		if total != images {
			t.Fatalf("load total: got %d, want %d", total, images)
		}
		if len(progress) == 0 || progress[len(progress)-1] != done {
			progress = append(progress, done)
		}
		if finished {
			break
		}
		presentsWhileLoading += sim.Presents() - before
		if text, _ := countLayer(sim.LastFrame(), layerLoadText); text > 0 {
			sawScreen = true
		}
		// The bar's fill is its share of the 480-pixel bar, as the latest
		// tick saw it: a paused Sim has already drained the mailbox for the
		// next tick, so Loading is one tick ahead of the frame.
		if w, ok := fillWidth(sim.LastFrame()); shown > 0 && (!ok || w != 480*float32(shown)/images) {
			t.Errorf("%d of %d loaded: bar fill %v (drawn %v), want %v", shown, images, w, ok, 480*float32(shown)/images)
		}
		shown = done
	}
	t.Logf("progress by tick: %v", progress)
	for i := 1; i < len(progress); i++ {
		if progress[i] < progress[i-1] {
			t.Errorf("progress went back: %v", progress)
		}
	}
	if len(progress) < 3 {
		t.Errorf("progress by tick %v: want at least one step between none and all", progress)
	}
	if got := progress[len(progress)-1]; got != images {
		t.Errorf("final progress: got %d, want %d (%v)", got, images, progress)
	}
	if !sawScreen {
		t.Error("no frame showed the loading screen's text while loading")
	}
	if presentsWhileLoading == 0 && len(progress) > 1 {
		t.Error("nothing was presented while loading")
	}
	if got := g.Bunnies(); got != 20 {
		t.Errorf("bunnies under the loading screen: got %d, want 20 (the scene starts at once)", got)
	}
	// The next frame shows the tiles and no loading screen.
	if err := sim.Step(1); err != nil {
		t.Fatal(err)
	}
	f := sim.LastFrame()
	if n, _ := countLayer(f, layerLoadFill); n != 0 {
		t.Errorf("loading bar packets after the load: got %d, want 0", n)
	}
	if n, _ := countLayer(f, layerLoadText); n != 0 {
		t.Errorf("loading text packets after the load: got %d, want 0", n)
	}
	if n, textured := countLayer(f, layerTile); n != images || textured != images {
		t.Errorf("background tiles: got %d packets, %d textured; want %d of each", n, textured, images)
	}
	r, ok := g.LoadReport()
	if !ok || !r.Done || r.Images != images || r.Err != "" || r.PixelBytes != images*size*size*4 {
		t.Errorf("load report: got %+v (%v), want done, %d images, no error", r, ok, images)
	}
}

// TestNoLoad: without a background load there is no loading screen and no
// tile, and the report has no load section.
func TestNoLoad(t *testing.T) {
	g, sim := newSim(t, demo.Options{Sprites: 20, Seed: 4})
	if err := sim.RunTicks(5); err != nil {
		t.Fatal(err)
	}
	if _, _, finished := g.Loading(); !finished {
		t.Error("Loading: got unfinished without a load")
	}
	for _, layer := range []int16{layerTile, layerLoadFill, layerLoadText} {
		if n, _ := countLayer(sim.LastFrame(), layer); n != 0 {
			t.Errorf("layer %d: got %d packets, want none", layer, n)
		}
	}
	if r := g.Report(); r.Load != nil {
		t.Errorf("report load section: got %+v, want none", *r.Load)
	}
}

// TestLoadCreatesNoTextureInItsFrames: the load's atlas pages get their
// textures in the setup's upload, before the first present, so the load's
// frames only send texels. A texture's creation cannot be split by the
// upload budget and costs software GL a frame or two for a 1024 page: the
// demo reserved its pages after the setup's upload, and each was created
// in the middle of the load, making that present 2-3 times the cap late.
func TestLoadCreatesNoTextureInItsFrames(t *testing.T) {
	const images, size = 20, 256 // 9 a page: three pages
	g, sim := newSim(t, demo.Options{Sprites: 20, Seed: 4, AtlasImages: images, AtlasSize: size})
	defer sim.Close()
	for step := 0; ; step++ {
		if _, total, finished := g.Loading(); finished && total > 0 {
			break
		}
		if step == 5000 {
			t.Fatalf("the load did not finish in %d ticks", step)
		}
		if err := sim.Step(1); err != nil {
			t.Fatal(err)
		}
	}
	r, _ := g.LoadReport()
	u := r.Split.Upload
	if r.Err != "" || u.Bytes < images*size*size*4 || u.Sends == 0 {
		t.Fatalf("load report: error %q, %d bytes in %d sends; want no error and at least %d bytes", r.Err, u.Bytes, u.Sends, images*size*size*4)
	}
	if u.Creates != 0 || u.CreateTime != 0 {
		t.Errorf("textures created during the load: got %d in %v, want none (made by the setup's upload)", u.Creates, u.CreateTime)
	}
	// The timing report's load section is the same report, with the
	// platform thread's contention after the load measured where the one
	// during it is (it was left out of the file).
	if err := sim.Step(2); err != nil {
		t.Fatal(err)
	}
	lr := g.Report().Load
	if lr == nil || lr.SinceFrames == 0 || lr.After.RunDelayMeasured != lr.Split.Contention.RunDelayMeasured {
		t.Errorf("timing report's load section %+v: want frames since the load and the contention after it measured as during it", lr)
	}
	if lr != nil && lr.FrameCapNS > 0 && lr.DuringToCap != math.Round(100*float64(lr.MaxInterval)/float64(lr.FrameCapNS))/100 {
		t.Errorf("during_to_cap %v, want %d / %d ns", lr.DuringToCap, lr.MaxInterval, lr.FrameCapNS)
	}
}
