package ecs

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
)

// ExtractStats describes the latest frame extraction.
type ExtractStats struct {
	Frames uint64 // frames extracted so far
	Passes int    // passes in the latest frame
	Drawn  int    // packets written to the latest frame
	Culled int    // sprites and texts left out of the latest frame (outside a view, hidden or empty)
	// TextErrors counts texts the latest frame could not lay out (no
	// library, a stale font); LastTextError says why for the latest one.
	TextErrors    int
	LastTextError error
	// ShapeErrors counts the shapes that could not be tessellated so far
	// (a [Shape] once per frame, a [Sys.Draw] call once);
	// LastShapeError says why for the latest one.
	ShapeErrors    int
	LastShapeError error
}

type extractor struct {
	w          *World
	sprites    *generic.Filter2[Transform, Sprite]
	texts      *generic.Filter2[Transform, Text]
	shapes     *generic.Filter2[Transform, Shape]
	tess       shape.Tessellator
	gizmos     *Draw
	cameras    *generic.Filter2[Transform, Camera]
	transforms generic.Map[Transform]
	camMap     generic.Map[Camera]
	lib        *assets.Library
	views      []view
	// firstPass is the index in the frame of the pass of views[0]: the
	// draw systems that add to these passes (tile maps, particles) find
	// them there, whatever passes other Extract systems began after them.
	firstPass int
	lastLayer int16
	scratch   []render2d.DrawPacket2D
	counts    []int32
	stats     ExtractStats

	// screen is the App's screen (App.SetScreen); layout is where it lies
	// in the framebuffer of the frame being extracted, and laidOut says
	// whether window cameras take their viewport from it.
	screen  render2d.Screen
	layout  render2d.Layout
	laidOut bool

	// What extraction remembers for interpolation, indexed by entity ID:
	// where each entity it met was at the frame being extracted and at the
	// previous one, in the two slots of its record (slot epoch&1 is this
	// frame's). A frame reads the other slot only and writes its own only,
	// so an entity met several times in a frame (by several cameras, as a
	// sprite and a text, as a camera's target) gets the same previous
	// placement every time. The previous slot counts only if it is from the
	// previous frame (epoch), for the same incarnation of the entity (gen)
	// and for the same run of motion (no teleport since). The two slots
	// share a record so that reading one brings the other into the cache
	// for the write. None of this is game state: drawing changes nothing
	// the simulation sees. Camera zooms, for a few cameras, are kept in
	// two short lists.
	interp bool
	epoch  uint32
	recs   []placed
	cams   [2][]camZoom
}

// placed is what extraction remembers of one entity.
type placed struct {
	gen    uint32
	epoch  uint32 // of the latest frame that met the entity
	motion uint32 // Transform.motion then
	// prevOK says, from the latest frame's first meeting, whether the other
	// slot holds the entity's placement at the frame before.
	prevOK bool
	slots  [2]pose
}

// pose is a placement without its set flag.
type pose struct {
	pos   geom.Vec2
	rot   float32
	scale geom.Vec2
	tint  render2d.Color // the sprite's; texts and cameras leave it alone
}

type camZoom struct {
	e    arche.Entity
	zoom float32
}

// view is a camera prepared for one frame.
type view struct {
	desc  render2d.PassDesc
	order int16
	cull  bool
	// world-space bounds of what the camera shows, at its previous and
	// current placement together
	minX, minY, maxX, maxY float32
}

func (x *extractor) init(w *World) {
	x.w = w
	x.sprites = generic.NewFilter2[Transform, Sprite]()
	x.texts = generic.NewFilter2[Transform, Text]()
	x.shapes = generic.NewFilter2[Transform, Shape]()
	x.cameras = generic.NewFilter2[Transform, Camera]()
	x.transforms = generic.NewMap[Transform](&w.w)
	x.camMap = generic.NewMap[Camera](&w.w)
	x.epoch = 1
}

// run extracts one frame into fw; interp says whether packets and cameras
// get their previous placements.
func (x *extractor) run(fw *render2d.FrameWriter, interp bool, win *input.Window) {
	x.stats.Frames++
	x.stats.Passes, x.stats.Drawn, x.stats.Culled, x.stats.TextErrors = 0, 0, 0, 0
	x.interp = interp
	if interp {
		x.epoch++
		if x.epoch == 0 { // after 2^32 frames: forget everything rather than match stale records
			clear(x.recs)
			x.epoch = 2
		}
		x.cams[x.epoch&1] = x.cams[x.epoch&1][:0]
	}
	fw.SetClear(x.screen.ClearColor)
	x.layout, x.laidOut = x.screen.Layout(win.Framebuffer.Width, win.Framebuffer.Height, win.Size.Width, win.Size.Height), x.screen.Logical()
	x.collectViews(win)
	x.firstPass = len(fw.Frame().Passes)
	for i := range x.views {
		v := &x.views[i]
		pw := fw.BeginPass(v.desc)
		f := fw.Frame()
		pass := &f.Passes[len(f.Passes)-1]
		n0 := len(pass.Packets)
		sorted := x.drawSprites(pass, v)
		sorted = x.drawTexts(pass, v) && sorted
		sorted = x.drawShapes(pass, pw, n0) && sorted
		if !sorted {
			x.sortByLayer(pass.Packets[n0:])
		}
		if x.gizmos != nil {
			x.gizmos.appendTo(pass) // at the top layer, after the sort
		}
		x.stats.Passes++
	}
}

// builtinPasses returns the passes the latest run began in frame f, one
// per view, or nil when f no longer holds them all.
func (x *extractor) builtinPasses(f *render2d.Frame) []render2d.Pass {
	end := x.firstPass + x.stats.Passes
	if x.firstPass < 0 || end > len(f.Passes) {
		return nil
	}
	return f.Passes[x.firstPass:end]
}

// recall returns where e was in the previous frame (unset when it was not
// met there, has teleported since or is not interpolated) and records
// where it is now in the slot it returns, leaving the slot's tint as it
// was. Only called while interpolating. The sprite loop has a copy of it.
func (x *extractor) recall(e arche.Entity, t *Transform) (prev render2d.Placement, now *pose) {
	id := e.ID()
	if int(id) >= len(x.recs) {
		x.grow(id)
	}
	r := &x.recs[id]
	epoch := x.epoch
	if r.epoch != epoch {
		r.prevOK = r.epoch == epoch-1 && r.gen == e.Generation() && r.motion == t.motion
		r.gen, r.epoch, r.motion = e.Generation(), epoch, t.motion
	}
	if r.prevOK && t.motion&motionStill == 0 {
		p := &r.slots[(epoch-1)&1]
		prev = render2d.Placement{Position: p.pos, Rotation: p.rot, Scale: p.scale, Tint: p.tint, Set: true}
	}
	now = &r.slots[epoch&1]
	now.pos, now.rot, now.scale = t.Position, t.Rotation, t.Scale
	return prev, now
}

// grow makes the records hold entity ID id. New records are zero, whose
// epoch never matches.
func (x *extractor) grow(id uint32) {
	x.recs = append(x.recs, make([]placed, max(int(id)+1, 2*len(x.recs), 256)-len(x.recs))...)
}

func (x *extractor) collectViews(win *input.Window) {
	x.views = x.views[:0]
	q := x.cameras.Query(&x.w.w)
	for q.Next() {
		t, c := q.Get()
		cam, target := x.cameraOf(t, c)
		desc := render2d.PassDesc{Camera: cam, Target: c.Target, Clear: c.Clear, ClearColor: c.ClearColor}
		if x.interp {
			desc.PrevCamera = x.prevCamera(q.Entity(), t, c, target)
		}
		if c.Disabled || !x.place(&desc.Camera, c.Target) {
			continue
		}
		x.views = append(x.views, makeView(desc, c.Order, win))
	}
	if len(x.views) == 0 {
		if desc := (render2d.PassDesc{}); x.place(&desc.Camera, desc.Target) {
			x.views = append(x.views, makeView(desc, 0, win))
		}
	}
	slices.SortStableFunc(x.views, func(a, b view) int { return cmp.Compare(a.order, b.order) })
}

// cameraOf returns the view of a camera entity with transform t and
// camera c, before any screen layout, and the transform of the entity it
// follows (nil when it follows none).
func (x *extractor) cameraOf(t *Transform, c *Camera) (render2d.Camera, *Transform) {
	cam := render2d.Camera{Position: t.Position, Anchor: c.Anchor, Zoom: c.Zoom, Rotation: t.Rotation, Viewport: c.Viewport}
	var target *Transform
	if f := c.Follow.e; !f.IsZero() && x.w.w.Alive(f) && x.transforms.Has(f) {
		target = x.transforms.Get(f)
		cam.Position = geom.Vec2{X: target.Position.X + t.Position.X, Y: target.Position.Y + t.Position.Y}
	}
	return cam, target
}

// place lays a camera drawing into target out on the screen: for the
// window, under a logical screen, its viewport (in logical units, zero
// for all of the screen) becomes framebuffer pixels and its size the
// viewport's logical size. It reports false for a view of no area (a
// minimised window, a viewport that rounds to nothing), which draws no
// pass.
func (x *extractor) place(cam *render2d.Camera, target render2d.TargetHandle) bool {
	return placeView(cam, target, &x.layout, x.laidOut)
}

// placeView is [extractor.place] on layout l (on: the screen has a logical
// resolution).
func placeView(cam *render2d.Camera, target render2d.TargetHandle, l *render2d.Layout, on bool) bool {
	if !on || !target.IsZero() {
		return true
	}
	v := cam.Viewport
	cam.Size = geom.Vec2{X: v.W, Y: v.H}
	if v.IsZero() {
		cam.Size = l.Size
	}
	cam.Viewport = l.Place(v)
	return cam.Viewport.W > 0 && cam.Viewport.H > 0 && cam.Size.X > 0 && cam.Size.Y > 0
}

// prevCamera records the camera entity e (and the entity it follows, whose
// Transform is target, if any) and returns the camera's placement in the
// previous frame.
func (x *extractor) prevCamera(e arche.Entity, t *Transform, c *Camera, target *Transform) render2d.CameraPlacement {
	own, _ := x.recall(e, t)
	pos := own.Position
	set := own.Set
	if !set {
		pos = t.Position
	}
	if target != nil {
		tp, _ := x.recall(c.Follow.e, target)
		set = set || tp.Set
		if !tp.Set {
			tp.Position = target.Position
		}
		pos = geom.Vec2{X: tp.Position.X + pos.X, Y: tp.Position.Y + pos.Y}
	}
	cur := &x.cams[x.epoch&1]
	*cur = append(*cur, camZoom{e: e, zoom: c.Zoom})
	if !set {
		return render2d.CameraPlacement{}
	}
	pc := render2d.CameraPlacement{Position: pos, Zoom: c.Zoom, Rotation: t.Rotation, Set: true}
	if own.Set {
		pc.Rotation = own.Rotation
		for _, z := range x.cams[(x.epoch-1)&1] {
			if z.e == e {
				pc.Zoom = z.zoom
				break
			}
		}
	}
	return pc
}

// makeView computes the world-space box a camera shows, at its previous
// placement and at its current one. Without a viewport or a known
// framebuffer size it cannot tell, and culls nothing.
func makeView(desc render2d.PassDesc, order int16, win *input.Window) view {
	v := view{desc: desc, order: order}
	c := desc.Camera
	w, h := c.Viewport.W, c.Viewport.H
	if c.Viewport.IsZero() {
		w, h = float32(win.Framebuffer.Width), float32(win.Framebuffer.Height)
	}
	if c.Size != (geom.Vec2{}) { // a logical view: its size in view units
		w, h = c.Size.X, c.Size.Y
	}
	if w <= 0 || h <= 0 {
		return v
	}
	v.minX, v.minY = float32(math.Inf(1)), float32(math.Inf(1))
	v.maxX, v.maxY = float32(math.Inf(-1)), float32(math.Inf(-1))
	v.cover(c.Position, c.Rotation, c.EffectiveZoom(), c.Anchor, w, h)
	if p := desc.PrevCamera; p.Set {
		z := p.Zoom
		if z == 0 {
			z = 1
		}
		v.cover(p.Position, p.Rotation, z, c.Anchor, w, h)
	}
	v.cull = true
	return v
}

// cover grows the view's box to hold what a camera at pos, turned by rot
// at zoom z, shows in a view of w x h view units.
func (v *view) cover(pos geom.Vec2, rot, z float32, anchor geom.Vec2, w, h float32) {
	// Screen offsets from the anchor, in world units, turned back by the
	// camera's rotation (a positive rotation turns the world
	// counter-clockwise on screen, so the view turns clockwise in the world).
	sin, cos := math.Sincos(float64(rot))
	s, co := float32(sin), float32(cos)
	x0, x1 := -anchor.X*w/z, (1-anchor.X)*w/z
	y0, y1 := -anchor.Y*h/z, (1-anchor.Y)*h/z
	for _, p := range [4]geom.Vec2{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}} {
		wx := pos.X + co*p.X - s*p.Y
		wy := pos.Y + s*p.X + co*p.Y
		v.minX, v.maxX = min(v.minX, wx), max(v.maxX, wx)
		v.minY, v.maxY = min(v.minY, wy), max(v.maxY, wy)
	}
}

// drawSprites appends the visible sprites to pass and reports whether their
// layers came out in order.
func (x *extractor) drawSprites(pass *render2d.Pass, v *view) (sorted bool) {
	q := x.sprites.Query(&x.w.w)
	n0 := len(pass.Packets)
	pass.Packets = slices.Grow(pass.Packets, q.Count())
	out := pass.Packets[n0:cap(pass.Packets)]
	n := 0
	sorted = true
	last := int16(math.MinInt16)
	cull, interp := v.cull, x.interp
	epoch, recs := x.epoch, x.recs
	for q.Next() {
		t, s := q.Get()
		tint := s.Tint
		if tint == (render2d.Color{}) {
			tint = render2d.White
		}
		// recall, written out for this hot loop, with the tint.
		var prev render2d.Placement
		if interp {
			e := q.Entity()
			id, gen := e.ID(), e.Generation()
			if int(id) >= len(recs) {
				x.grow(id)
				recs = x.recs
			}
			r := &recs[id]
			if r.epoch != epoch {
				r.prevOK = r.epoch == epoch-1 && r.gen == gen && r.motion == t.motion
				r.gen, r.epoch, r.motion = gen, epoch, t.motion
			}
			if r.prevOK && t.motion&motionStill == 0 {
				p := &r.slots[(epoch-1)&1]
				prev = render2d.Placement{Position: p.pos, Rotation: p.rot, Scale: p.scale, Tint: p.tint, Set: true}
			}
			r.slots[epoch&1] = pose{pos: t.Position, rot: t.Rotation, scale: t.Scale, tint: tint}
		}
		size := s.Size
		if size.X == 0 && size.Y == 0 {
			size = geom.Vec2{X: s.Source.W, Y: s.Source.H}
		}
		if s.Hidden || size.X == 0 || size.Y == 0 {
			x.stats.Culled++
			continue
		}
		// Culled only when outside the view both where it is and where it
		// was, so a sprite crossing the edge is drawn all the way.
		if cull && outside(v, t.Position, t.Scale, size, s.Origin) && (!prev.Set || outside(v, prev.Position, prev.Scale, size, s.Origin)) {
			x.stats.Culled++
			continue
		}
		d := &out[n]
		d.Texture = s.Texture
		d.Source = s.Source
		d.Transform = render2d.Transform{Position: t.Position, Rotation: t.Rotation, Scale: t.Scale, Origin: s.Origin}
		d.Size = size
		d.Tint = tint
		d.Prev = prev
		d.Params = [render2d.ParamCount]float32{}
		d.Material = s.Material
		d.Blend = s.Blend
		d.Layer = s.Layer
		if s.Layer < last {
			sorted = false
		}
		last = s.Layer
		n++
	}
	pass.Packets = pass.Packets[:n0+n]
	x.stats.Drawn += n
	x.lastLayer = last
	return sorted
}

// drawTexts lays out the visible texts into pass and reports whether the
// pass is still in layer order. Every glyph of a text moves between frames
// as the text's Transform does: turned and scaled about its corner.
func (x *extractor) drawTexts(pass *render2d.Pass, v *view) (sorted bool) {
	sorted = true
	q := x.texts.Query(&x.w.w)
	for q.Next() {
		t, txt := q.Get()
		var prev render2d.Placement
		if x.interp {
			prev, _ = x.recall(q.Entity(), t)
		}
		if txt.Hidden || txt.Content == "" {
			x.stats.Culled++
			continue
		}
		if x.lib == nil {
			x.textError(errNoLibrary)
			continue
		}
		pos, rot := t.Position, t.Rotation
		s := textScale(t.Scale)
		n0 := len(pass.Packets)
		var b assets.TextBounds
		var err error
		pass.Packets, b, err = x.lib.AppendText(pass.Packets, txt.Font, txt.Content, assets.TextOptions{
			Width: txt.Width, Align: txt.Align, LineSpacing: txt.LineSpacing, Scale: s,
			Color: txt.Color, Layer: txt.Layer, Blend: txt.Blend,
		})
		if err != nil {
			pass.Packets = pass.Packets[:n0]
			x.textError(err)
			continue
		}
		// The box was laid out at the origin: cull it by the circle around
		// the pivot that holds it (where it is and where it was), then move
		// (and turn) it into place.
		r := b.Rect
		ex := max(abs32(r.X), abs32(r.X+r.W))
		ey := max(abs32(r.Y), abs32(r.Y+r.H))
		one := geom.Vec2{X: 1, Y: 1}
		if v.cull && outside(v, pos, one, geom.Vec2{X: ex, Y: ey}, geom.Vec2{}) {
			k := float32(0)
			if prev.Set {
				k = textScale(prev.Scale) / s
			}
			if !prev.Set || outside(v, prev.Position, one, geom.Vec2{X: ex * k, Y: ey * k}, geom.Vec2{}) {
				pass.Packets = pass.Packets[:n0]
				x.stats.Culled++
				continue
			}
		}
		place(pass.Packets[n0:], pos, rot, prev, s)
		if len(pass.Packets) > n0 {
			if txt.Layer < x.lastLayer {
				sorted = false
			}
			x.lastLayer = txt.Layer
		}
		x.stats.Drawn += len(pass.Packets) - n0
	}
	return sorted
}

// textScale is a Text's scale: its Transform's Scale.X, zero meaning 1.
func textScale(s geom.Vec2) float32 {
	if s.X == 0 {
		return 1
	}
	return s.X
}

// place moves glyphs laid out about the origin at scale s to the text's
// corner pos, turned by rot, and gives each the placement it had in the
// previous frame when prev is set: the same layout about prev's corner,
// turned by its rotation and scaled by its scale over s.
func place(glyphs []render2d.DrawPacket2D, pos geom.Vec2, rot float32, prev render2d.Placement, s float32) {
	sin, cos := math.Sincos(float64(rot))
	sn, cs := float32(sin), float32(cos)
	var psn, pcs, k float32
	if prev.Set {
		sin, cos := math.Sincos(float64(prev.Rotation))
		psn, pcs = float32(sin), float32(cos)
		k = textScale(prev.Scale) / s
	}
	for i := range glyphs {
		g := &glyphs[i]
		p := &g.Transform
		o, r0 := p.Position, p.Rotation
		p.Position = geom.Vec2{X: pos.X + cs*o.X - sn*o.Y, Y: pos.Y + sn*o.X + cs*o.Y}
		p.Rotation = r0 + rot
		if prev.Set {
			ox, oy := o.X*k, o.Y*k
			g.Prev = render2d.Placement{
				Position: geom.Vec2{X: prev.Position.X + pcs*ox - psn*oy, Y: prev.Position.Y + psn*ox + pcs*oy},
				Rotation: r0 + prev.Rotation,
				Scale:    geom.Vec2{X: p.Scale.X * k, Y: p.Scale.Y * k},
				Tint:     g.Tint,
				Set:      true,
			}
		}
	}
}

var errNoLibrary = errors.New("ecs: a Text needs an assets.Library: set Options.Assets")

func (x *extractor) textError(err error) {
	x.stats.TextErrors++
	x.stats.LastTextError = err
}

// outside reports whether a quad, bounded by the circle around its pivot
// that holds every corner, lies entirely outside the view.
func outside(v *view, pos, scale, size, origin geom.Vec2) bool {
	ex := max(abs32(origin.X), abs32(size.X-origin.X)) * scale.X
	ey := max(abs32(origin.Y), abs32(size.Y-origin.Y)) * scale.Y
	var dx, dy float32
	if pos.X < v.minX {
		dx = v.minX - pos.X
	} else if pos.X > v.maxX {
		dx = pos.X - v.maxX
	}
	if pos.Y < v.minY {
		dy = v.minY - pos.Y
	} else if pos.Y > v.maxY {
		dy = pos.Y - v.maxY
	}
	return dx*dx+dy*dy > ex*ex+ey*ey
}

func abs32(f float32) float32 { return math.Float32frombits(math.Float32bits(f) &^ (1 << 31)) }

// sortByLayer orders packets by layer, keeping extraction order inside a
// layer. Layers usually span a small range, so a counting sort does it in
// linear time; a wide spread falls back to a stable comparison sort.
func (x *extractor) sortByLayer(ps []render2d.DrawPacket2D) {
	lo, hi := ps[0].Layer, ps[0].Layer
	for i := range ps {
		lo, hi = min(lo, ps[i].Layer), max(hi, ps[i].Layer)
	}
	span := int(hi) - int(lo) + 1
	if span > 4*len(ps)+256 {
		slices.SortStableFunc(ps, func(a, b render2d.DrawPacket2D) int { return cmp.Compare(a.Layer, b.Layer) })
		return
	}
	if cap(x.counts) < span+1 {
		x.counts = make([]int32, span+1)
	}
	counts := x.counts[:span+1]
	clear(counts)
	for i := range ps {
		counts[int(ps[i].Layer)-int(lo)+1]++
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	x.scratch = slices.Grow(x.scratch[:0], len(ps))[:len(ps)]
	copy(x.scratch, ps)
	for i := range x.scratch {
		k := int(x.scratch[i].Layer) - int(lo)
		ps[counts[k]] = x.scratch[i]
		counts[k]++
	}
}
