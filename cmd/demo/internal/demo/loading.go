package demo

import (
	"context"
	"image"
	"math"
	goruntime "runtime"
	"strconv"
	"sync"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/assets/assetsrt"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

// Background load defaults: the command loads DefaultAtlasImages generated
// images of DefaultAtlasSize texels a side (48 x 256 x 256 x 4 bytes,
// 12.6 MB of pixels, in a dozen atlas pages): big enough that the loading
// screen shows for a while on an ordinary machine.
const (
	DefaultAtlasImages = 48
	DefaultAtlasSize   = 256
	// MaxAtlasImages bounds Options.AtlasImages.
	MaxAtlasImages = 1024
)

// Layers of the loading screen, above the overlay; the loaded tiles lie
// below the bunnies.
const (
	layerTile        int16 = -1
	layerLoadBack    int16 = 20
	layerLoadBar     int16 = 21
	layerLoadFill    int16 = 22
	layerLoadText    int16 = 23
	loadBarWidth           = 480
	loadBarHeight          = 18
	tileAlpha              = 0.3
	loadingTitleText       = "Loading the atlas in the background"
)

// loadingPart marks an entity of the loading screen.
type loadingPart struct{ Role int }

const (
	partBack = iota
	partBar
	partFill
	partText
	partCount
)

// atlasTile marks a background tile that shows image Index of the load.
type atlasTile struct{ Index int }

// LoadReport says how the background load at start went: its size, how
// long it took, and how smoothly the game presented meanwhile (the frames
// the telemetry measured during the load and the longest interval between
// two of them, against the frame cap's interval).
type LoadReport struct {
	Images      int   `json:"images"`
	PixelBytes  int64 `json:"pixel_bytes"`
	Done        bool  `json:"done"`
	DurationNS  int64 `json:"duration_ns"`
	Frames      int   `json:"frames"`
	MaxInterval int64 `json:"max_interval_ns"`
	FrameCapNS  int64 `json:"frame_cap_ns"`
	// DuringToCap is MaxInterval over the frame cap's interval and
	// DuringToAfter over AfterMaxInterval: what a background load costs
	// the frames, against the cap and against the same run's frames after
	// it (0 where there is no cap or no frame after).
	DuringToCap   float64 `json:"during_to_cap"`
	DuringToAfter float64 `json:"during_to_after"`
	AfterToCap    float64 `json:"after_to_cap"`
	// AfterFrames and AfterMaxInterval are the same measure over the
	// frames presented after the load, to the end of the telemetry window
	// (the latest 120 frames) when the report was made: the baseline the
	// load is judged against on the same machine in the same run.
	AfterFrames      int   `json:"after_frames"`
	AfterMaxInterval int64 `json:"after_max_interval_ns"`
	// SlowFrames and AfterSlowFrames count the frames during and after
	// the load whose interval was longer than 1.5 times the frame cap.
	SlowFrames      int `json:"slow_frames"`
	AfterSlowFrames int `json:"after_slow_frames"`
	// Split says where the load's time went, to tell a long frame's
	// cause: the graphics thread's texel uploads and its waits for the
	// library's lock, the workers' decoding and packing, the time the
	// platform thread waited for a processor (whose CPU the workers
	// share) and the Go runtime's collections and pauses meanwhile.
	Split LoadSplit `json:"split"`
	// After is the platform thread's contention over the SinceFrames
	// frames from the load's end to the report, the baseline of
	// Split.Contention.
	After       Contention `json:"after_contention"`
	SinceFrames int        `json:"since_frames"`
	// Err is the load's error, "" when every image loaded.
	Err string `json:"error,omitempty"`
}

// LoadSplit is the load's time by where it was spent, as its owners
// measure it.
type LoadSplit struct {
	// Upload is what the graphics thread spent uploading texels during
	// the load (every present's step and the load's final steps), split
	// into texture creations, texel sends and lock waits; its longest
	// values are the load's. UploadBudgetNS is the library's budget for
	// one step.
	Upload         assets.UploadStats `json:"upload"`
	UploadBudgetNS int64              `json:"upload_budget_ns"`
	// Workers is the workers' time drawing the images, waiting for the
	// library's lock, packing the images into atlas pages under it and
	// copying their pixels, summed over the workers.
	Workers assets.LoadStats `json:"workers"`
	// Contention is what kept the platform thread from running during
	// the load: the kernel's run queue, the Go scheduler's waits for a
	// processor, collections and other stop-the-world pauses.
	Contention Contention `json:"contention"`
}

// atlasLoad is the background load and its screen. The load and the
// entities belong to the simulation owner; the report is read from any
// goroutine.
type atlasLoad struct {
	load        *assets.Load
	parts       *ecs.Filter3[ecs.Transform, ecs.Sprite, loadingPart]
	texts       *ecs.Filter3[ecs.Transform, ecs.Text, loadingPart]
	tiles       *ecs.Filter3[ecs.Transform, ecs.Sprite, atlasTile]
	shownDone   int
	started     bool
	finished    bool
	startAt     timing.Instant
	startFrames uint64
	startUpload assets.UploadStats
	startCont   contentionSample
	text        []byte
	frames      []timing.TelemetryFrame
	doneFrames  uint64 // telemetry frames measured when the load finished
	doneCont    contentionSample

	mu     sync.Mutex
	report LoadReport
}

// startAtlasLoad starts loading the generated atlas in the background
// through the session's machinery: a worker group for the drawing, the
// mailbox for the handles, the dispatcher for the upload (assetsrt).
// Platform thread, in Setup, before the simulation starts.
func (g *Game) startAtlasLoad(up assets.Uploader) error {
	n, size := g.opts.AtlasImages, g.opts.AtlasSize
	sim := g.sim.Load()
	exec := assetsrt.New(sim, up, sim.Workers.Group("assets"))
	// Leave one processor to the platform thread: with every processor
	// drawing images, the loop waits for the Go scheduler to preempt a
	// worker, and frames come late by a time slice.
	parallel := max(1, goruntime.GOMAXPROCS(0)-1)
	files := assets.PatternFiles("atlas/", n, size, size)
	if gate := g.opts.AtlasGate; gate != nil {
		for i, f := range files {
			files[i] = assets.GeneratedImage(f.Name(), func(ctx context.Context) (image.Image, error) {
				gate(i)
				return assets.Pattern(i, size, size), nil
			})
		}
	}
	load, err := g.lib.StartLoad(exec, nil, files, assets.LoadOptions{Parallel: parallel})
	if err != nil {
		return err
	}
	w := g.app.World()
	g.atlas = &atlasLoad{
		load:  load,
		parts: ecs.NewFilter3[ecs.Transform, ecs.Sprite, loadingPart](w),
		texts: ecs.NewFilter3[ecs.Transform, ecs.Text, loadingPart](w),
		tiles: ecs.NewFilter3[ecs.Transform, ecs.Sprite, atlasTile](w),
	}
	g.atlas.report = LoadReport{Images: n, PixelBytes: int64(n) * int64(size) * int64(size) * 4, FrameCapNS: int64(g.rt.Options().FrameCap)}
	return nil
}

// reserveAtlas makes room for the background load's images in empty atlas
// pages, in Setup before its upload, so that the upload creates their
// textures before the first present: a new 1024 page costs software GL
// (llvmpipe) 15-35 ms, which in the load's frames makes a present that
// late (reserved after the upload, the pages were created one per step in
// the middle of the load). Images too large for a page get textures of
// their own, which cannot be made ahead.
func (g *Game) reserveAtlas() error {
	n, size := g.opts.AtlasImages, g.opts.AtlasSize
	if o := g.lib.Options(); size+2*o.Extrude+o.Padding <= o.PageSize {
		return g.lib.Reserve(n, size, size)
	}
	return nil
}

// spawnLoading queues the loading screen and the background tiles. They
// are spawned at the start, whatever the load does, so that the entities
// of the game proper get the same IDs in every run; and they stay out of
// the world hash, because when the load finishes is up to the machine,
// not the simulation (a replay's load may finish on another tick).
// Gameplay itself never waits for the load, so a recording replays alike.
func (g *Game) spawnLoading(ctx *ecs.Sys) {
	a := g.atlas
	if a == nil {
		return
	}
	colours := [partCount]render2d.Color{
		partBack: {R: 0.07, G: 0.08, B: 0.12, A: 1},
		partBar:  {R: 0.25, G: 0.28, B: 0.36, A: 1},
		partFill: {R: 0.35, G: 0.8, B: 0.55, A: 1},
	}
	layers := [partCount]int16{partBack: layerLoadBack, partBar: layerLoadBar, partFill: layerLoadFill}
	for role := range partCount {
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.At(0, 0))
		if role == partText {
			ecs.With(p, ecs.Text{Font: g.font, Color: textColor, Layer: layerLoadText, Content: loadingTitleText})
		} else {
			ecs.With(p, solid(colours[role], 0, 0, layers[role]))
		}
		ecs.With(p, loadingPart{Role: role})
		ecs.With(p, ecs.Unhashed{})
	}
	for i := range g.opts.AtlasImages {
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.At(0, 0))
		s := solid(render2d.Color{R: 0.7, G: 0.7, B: 0.75, A: tileAlpha}, 0, 0, layerTile)
		s.Hidden = true
		ecs.With(p, s)
		ecs.With(p, atlasTile{Index: i})
		ecs.With(p, ecs.Unhashed{})
	}
}

// loadingSystem polls the load once per tick, draws its progress and, when
// it is done, takes the loading screen away and shows the loaded images
// as the scene's background. Simulation owner.
func (g *Game) loadingSystem(ctx *ecs.Sys) {
	a := g.atlas
	if a == nil || a.finished {
		return
	}
	if !a.started {
		a.started, a.startAt = true, ctx.Time.Start
		a.startFrames = g.rt.Telemetry().Frames
		g.lib.ResetUploadPeak()
		a.startUpload = g.lib.UploadStats()
		a.startCont = sampleContention()
	}
	done, total := a.load.Progress()
	w, h := g.arena(ctx)
	share := float32(1)
	if total > 0 {
		share = float32(done) / float32(total)
	}
	x0, y0 := (w-loadBarWidth)/2, h/2
	q := a.parts.Query()
	for q.Next() {
		t, s, part := q.Get()
		switch part.Role {
		case partBack:
			t.Position, s.Size = geom.Vec2{}, geom.Vec2{X: w, Y: h}
		case partBar:
			t.Position, s.Size = geom.Vec2{X: x0 - 3, Y: y0 - 3}, geom.Vec2{X: loadBarWidth + 6, Y: loadBarHeight + 6}
		case partFill:
			t.Position, s.Size = geom.Vec2{X: x0, Y: y0}, geom.Vec2{X: loadBarWidth * share, Y: loadBarHeight}
			s.Hidden = share == 0
		}
		t.Teleport()
	}
	if done != a.shownDone || a.text == nil {
		a.shownDone = done
		a.text = append(a.text[:0], loadingTitleText...)
		a.text = append(a.text, ": "...)
		a.text = strconv.AppendInt(a.text, int64(done), 10)
		a.text = append(a.text, " of "...)
		a.text = strconv.AppendInt(a.text, int64(total), 10)
		a.text = append(a.text, " images"...)
		tq := a.texts.Query()
		for tq.Next() {
			t, text, _ := tq.Get()
			text.Content = string(a.text)
			t.Position = geom.Vec2{X: x0, Y: y0 - 30}
			t.Teleport()
		}
	}
	if !a.load.Done() {
		return
	}
	a.finish(g, ctx, w, h)
}

// finish notes the report, hides the loading screen and lays the loaded
// images out as a grid of tiles over the arena.
func (a *atlasLoad) finish(g *Game, ctx *ecs.Sys, w, h float32) {
	a.finished = true
	rep := a.report
	rep.Done = true
	rep.DurationNS = int64(ctx.Time.End - a.startAt)
	if err := a.load.Err(); err != nil {
		rep.Err = err.Error()
	}
	// The frames measured since the first loading tick: the newest of the
	// telemetry window (it holds the latest 120).
	measured := g.rt.Telemetry().Frames
	n := int(measured - a.startFrames)
	a.frames = g.rt.TelemetryFrames(a.frames[:0])
	n = min(n, len(a.frames))
	rep.Frames = n
	for _, f := range a.frames[len(a.frames)-n:] {
		rep.MaxInterval = max(rep.MaxInterval, int64(f.Interval))
		if rep.slow(f) {
			rep.SlowFrames++
		}
	}
	cont := sampleContention()
	rep.Split = LoadSplit{
		Upload: g.lib.UploadStats().Since(a.startUpload), UploadBudgetNS: int64(g.lib.Options().UploadBudget),
		Workers: a.load.Stats(), Contention: cont.since(a.startCont),
	}
	rep.DuringToCap = ratio(rep.MaxInterval, rep.FrameCapNS)
	a.mu.Lock()
	a.report, a.doneFrames, a.doneCont = rep, measured, cont
	a.mu.Unlock()

	q := a.parts.Query()
	for q.Next() {
		_, s, _ := q.Get()
		s.Hidden = true
	}
	tq := a.texts.Query()
	for tq.Next() {
		_, text, _ := tq.Get()
		text.Hidden = true
	}
	count := g.opts.AtlasImages
	cols := max(1, int(math.Ceil(math.Sqrt(float64(count)*float64(w)/float64(max(h, 1))))))
	rows := max(1, (count+cols-1)/cols)
	tw, th := w/float32(cols), h/float32(rows)
	sq := a.tiles.Query()
	for sq.Next() {
		t, s, tile := sq.Get()
		img, err := a.load.Image(tile.Index)
		if err != nil {
			continue
		}
		r, err := g.lib.Region(img)
		if err != nil {
			continue
		}
		s.SetRegion(r)
		s.Size, s.Hidden = geom.Vec2{X: tw, Y: th}, false
		t.Position = geom.Vec2{X: float32(tile.Index%cols) * tw, Y: float32(tile.Index/cols) * th}
		t.Teleport()
	}
	g.overlay.dirty = true
}

// Loading reports the background load's progress: files delivered and
// the total, and whether the loading screen is gone (the load finished or
// failed). No load: 0, 0, true. Simulation owner (or after the session).
func (g *Game) Loading() (done, total int, finished bool) {
	if g.atlas == nil {
		return 0, 0, true
	}
	done, total = g.atlas.load.Progress()
	return done, total, g.atlas.finished
}

// LoadReport returns the background load's report; false when the demo
// loads nothing. Safe from any goroutine; complete once Done.
func (g *Game) LoadReport() (LoadReport, bool) {
	if g.atlas == nil {
		return LoadReport{}, false
	}
	return g.atlas.reportWith(g.rt.Telemetry().Frames, g.rt.TelemetryFrames(nil)), true
}

// reportWith completes the report with the frames measured after the
// load, measured the telemetry's frame count and window its latest frames,
// and the platform thread's contention since the load's end.
func (a *atlasLoad) reportWith(measured uint64, window []timing.TelemetryFrame) LoadReport {
	a.mu.Lock()
	r, done, cont := a.report, a.doneFrames, a.doneCont
	a.mu.Unlock()
	if !r.Done {
		return r
	}
	r.After = sampleContention().since(cont)
	r.SinceFrames = int(measured - done)
	n := min(r.SinceFrames, len(window))
	r.AfterFrames = n
	for _, f := range window[len(window)-n:] {
		r.AfterMaxInterval = max(r.AfterMaxInterval, int64(f.Interval))
		if r.slow(f) {
			r.AfterSlowFrames++
		}
	}
	r.DuringToAfter = ratio(r.MaxInterval, r.AfterMaxInterval)
	r.AfterToCap = ratio(r.AfterMaxInterval, r.FrameCapNS)
	return r
}

// ratio is a / b, rounded to hundredths; 0 when b is not positive.
func ratio(a, b int64) float64 {
	if b <= 0 {
		return 0
	}
	return math.Round(100*float64(a)/float64(b)) / 100
}

// slow reports a frame longer than 1.5 times the frame cap.
func (r *LoadReport) slow(f timing.TelemetryFrame) bool {
	return r.FrameCapNS > 0 && 2*int64(f.Interval) > 3*r.FrameCapNS
}

// String is the report's line for the command's output.
func (r LoadReport) String() string {
	if !r.Done {
		return "background load: " + strconv.Itoa(r.Images) + " images, not finished when the session ended"
	}
	ms := func(ns int64) string { return strconv.FormatFloat(float64(ns)/1e6, 'f', 1, 64) + " ms" }
	s := "background load: " + strconv.Itoa(r.Images) + " images (" + strconv.FormatFloat(float64(r.PixelBytes)/1e6, 'f', 1, 64) + " MB of pixels) in " +
		ms(r.DurationNS) + "; " + strconv.Itoa(r.Frames) + " frames meanwhile, longest interval " + ms(r.MaxInterval)
	x := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	if r.FrameCapNS > 0 {
		s += " = " + x(r.DuringToCap) + "x the frame cap's " + ms(r.FrameCapNS)
	}
	if r.AfterFrames > 0 {
		s += "; after it, over " + strconv.Itoa(r.AfterFrames) + " frames, " + ms(r.AfterMaxInterval)
		if r.FrameCapNS > 0 {
			s += " = " + x(r.AfterToCap) + "x the cap"
		}
		if r.AfterMaxInterval > 0 {
			s += " (during/after " + x(r.DuringToAfter) + ")"
		}
	}
	if r.FrameCapNS > 0 {
		s += "; frames over 1.5x the cap: " + strconv.Itoa(r.SlowFrames) + " during, " + strconv.Itoa(r.AfterSlowFrames) + " after"
	}
	u, wk, d := r.Split.Upload, r.Split.Workers, func(t time.Duration) string { return ms(int64(t)) }
	n := func(v uint64) string { return strconv.FormatUint(v, 10) }
	s += "; split: uploads " + d(u.Time) + " in " + n(u.Calls) + " steps (" +
		strconv.FormatFloat(float64(u.Bytes)/1e6, 'f', 1, 64) + " MB, longest " + d(u.Longest) + ", budget " + ms(r.Split.UploadBudgetNS) +
		", " + n(u.Deferred) + " left work for the next; " + n(u.Creates) + " textures created in " + d(u.CreateTime) + ", longest " + d(u.LongestCreate) +
		"; " + n(u.Sends) + " sends in " + d(u.SendTime) + ", longest " + d(u.LongestSend) +
		"; waiting for the lock " + d(u.LockWait) + ", longest " + d(u.LongestLockWait) +
		"), workers drawing " + d(wk.Decode) + ", waiting for the lock " + d(wk.PlaceWait) + ", packing " + d(wk.Place) + ", copying " + d(wk.Copy)
	s += "; platform thread waiting for a processor " + r.Split.Contention.perFrame(r.Frames, ms)
	if r.SinceFrames > 0 {
		s += " during, " + r.After.perFrame(r.SinceFrames, ms) + " after"
	}
	if r.Err != "" {
		s += "; error: " + r.Err
	}
	return s
}

// perFrame says the contention per frame over frames frames.
func (c Contention) perFrame(frames int, ms func(int64) string) string {
	s := ""
	if c.RunDelayMeasured && frames > 0 {
		s = ms(c.RunDelayNS/int64(frames)) + "/frame in the run queue, "
	}
	n := func(v uint64) string { return strconv.FormatUint(v, 10) }
	return s + n(c.SchedWaits) + " Go scheduler waits over 1 ms (longest " + ms(c.SchedLongestNS) + "), " +
		n(c.GCCycles) + " collections (" + n(c.GCPauses) + " pauses, longest " + ms(c.GCPauseLongestNS) + "; assists " + ms(c.GCAssistNS) +
		", collector CPU " + ms(c.GCCPUNS) + ", " + strconv.FormatFloat(float64(c.AllocBytes)/1e6, 'f', 1, 64) + " MB allocated), " +
		n(c.OtherPauses) + " other pauses (longest " + ms(c.OtherPauseLongestNS) + ")"
}
