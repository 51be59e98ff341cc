package ecs

import (
	"cmp"
	"errors"
	"github.com/metronome-go/metronome/input"
	"math"
	"slices"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/render2d"
	"github.com/mlange-42/arche/generic"
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
}

type extractor struct {
	w         *World
	sprites   *generic.Filter2[Transform, Sprite]
	texts     *generic.Filter2[Transform, Text]
	cameras   *generic.Filter2[Transform, Camera]
	lib       *assets.Library
	views     []view
	lastLayer int16
	scratch   []render2d.DrawPacket2D
	counts    []int32
	stats     ExtractStats
}

// view is a camera prepared for one frame.
type view struct {
	desc  render2d.PassDesc
	order int16
	cull  bool
	// world-space bounds of what the camera shows
	minX, minY, maxX, maxY float32
}

func (x *extractor) init(w *World) {
	x.w = w
	x.sprites = generic.NewFilter2[Transform, Sprite]()
	x.texts = generic.NewFilter2[Transform, Text]()
	x.cameras = generic.NewFilter2[Transform, Camera]()
}

func (x *extractor) run(fw *render2d.FrameWriter, alpha float32, win *input.Window) {
	x.stats.Frames++
	x.stats.Passes, x.stats.Drawn, x.stats.Culled, x.stats.TextErrors = 0, 0, 0, 0
	x.collectViews(alpha, win)
	for i := range x.views {
		v := &x.views[i]
		fw.BeginPass(v.desc)
		f := fw.Frame()
		pass := &f.Passes[len(f.Passes)-1]
		n0 := len(pass.Packets)
		sorted := x.drawSprites(pass, v, alpha)
		if !x.drawTexts(pass, v, alpha) || !sorted {
			x.sortByLayer(pass.Packets[n0:])
		}
		x.stats.Passes++
	}
}

func (x *extractor) collectViews(alpha float32, win *input.Window) {
	x.views = x.views[:0]
	q := x.cameras.Query(&x.w.w)
	for q.Next() {
		t, c := q.Get()
		if c.Disabled {
			continue
		}
		pos, rot, _ := t.Interpolated(alpha)
		cam := render2d.Camera{Position: pos, Anchor: c.Anchor, Zoom: c.Zoom, Rotation: rot, Viewport: c.Viewport}
		desc := render2d.PassDesc{Camera: cam, Target: c.Target, Clear: c.Clear, ClearColor: c.ClearColor}
		x.views = append(x.views, makeView(desc, c.Order, win))
	}
	if len(x.views) == 0 {
		x.views = append(x.views, makeView(render2d.PassDesc{}, 0, win))
	}
	slices.SortStableFunc(x.views, func(a, b view) int { return cmp.Compare(a.order, b.order) })
}

// makeView computes the world-space box a camera shows. Without a viewport
// or a known framebuffer size it cannot tell, and culls nothing.
func makeView(desc render2d.PassDesc, order int16, win *input.Window) view {
	v := view{desc: desc, order: order}
	c := desc.Camera
	w, h := c.Viewport.W, c.Viewport.H
	if c.Viewport.IsZero() {
		w, h = float32(win.Framebuffer.Width), float32(win.Framebuffer.Height)
	}
	if w <= 0 || h <= 0 {
		return v
	}
	z := c.EffectiveZoom()
	// Screen offsets from the anchor, in world units, turned back by the
	// camera's rotation (a positive rotation turns the world
	// counter-clockwise on screen, so the view turns clockwise in the world).
	sin, cos := math.Sincos(float64(c.Rotation))
	s, co := float32(sin), float32(cos)
	x0, x1 := -c.Anchor.X*w/z, (1-c.Anchor.X)*w/z
	y0, y1 := -c.Anchor.Y*h/z, (1-c.Anchor.Y)*h/z
	v.minX, v.minY = float32(math.Inf(1)), float32(math.Inf(1))
	v.maxX, v.maxY = float32(math.Inf(-1)), float32(math.Inf(-1))
	for _, p := range [4]Vec2{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}} {
		wx := c.Position.X + co*p.X - s*p.Y
		wy := c.Position.Y + s*p.X + co*p.Y
		v.minX, v.maxX = min(v.minX, wx), max(v.maxX, wx)
		v.minY, v.maxY = min(v.minY, wy), max(v.maxY, wy)
	}
	v.cull = true
	return v
}

// drawSprites appends the visible sprites to pass and reports whether their
// layers came out in order.
func (x *extractor) drawSprites(pass *render2d.Pass, v *view, alpha float32) (sorted bool) {
	q := x.sprites.Query(&x.w.w)
	n0 := len(pass.Packets)
	pass.Packets = slices.Grow(pass.Packets, q.Count())
	out := pass.Packets[n0:cap(pass.Packets)]
	n := 0
	sorted = true
	last := int16(math.MinInt16)
	cull := v.cull
	for q.Next() {
		t, s := q.Get()
		size := s.Size
		if size.X == 0 && size.Y == 0 {
			size = Vec2{X: s.Source.W, Y: s.Source.H}
		}
		if s.Hidden || size.X == 0 || size.Y == 0 {
			x.stats.Culled++
			continue
		}
		// Interpolation, written out here: this loop is the frame's hot path.
		pos, rot, scale := t.Position, t.Rotation, t.Scale
		if t.hasPrev && alpha < 1 {
			p := &t.prev
			pos.X = p.position.X + (pos.X-p.position.X)*alpha
			pos.Y = p.position.Y + (pos.Y-p.position.Y)*alpha
			scale.X = p.scale.X + (scale.X-p.scale.X)*alpha
			scale.Y = p.scale.Y + (scale.Y-p.scale.Y)*alpha
			if p.rotation != rot {
				rot = lerpAngle(p.rotation, rot, alpha)
			}
		}
		if cull && outside(v, pos, scale, size, s.Origin) {
			x.stats.Culled++
			continue
		}
		d := &out[n]
		d.Texture = s.Texture
		d.Source = s.Source
		d.Transform = render2d.Transform{Position: pos, Rotation: rot, Scale: scale, Origin: s.Origin}
		d.Size = size
		d.Tint = s.Tint
		if d.Tint == (render2d.Color{}) {
			d.Tint = render2d.White
		}
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
// pass is still in layer order.
func (x *extractor) drawTexts(pass *render2d.Pass, v *view, alpha float32) (sorted bool) {
	sorted = true
	q := x.texts.Query(&x.w.w)
	for q.Next() {
		t, txt := q.Get()
		if txt.Hidden || txt.Content == "" {
			x.stats.Culled++
			continue
		}
		if x.lib == nil {
			x.textError(errNoLibrary)
			continue
		}
		pos, rot, scale := t.Interpolated(alpha)
		s := scale.X
		if s == 0 {
			s = 1
		}
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
		// the pivot that holds it, then move (and turn) it into place.
		r := b.Rect
		ex := max(abs32(r.X), abs32(r.X+r.W))
		ey := max(abs32(r.Y), abs32(r.Y+r.H))
		if v.cull && outside(v, pos, Vec2{X: 1, Y: 1}, Vec2{X: ex, Y: ey}, Vec2{}) {
			pass.Packets = pass.Packets[:n0]
			x.stats.Culled++
			continue
		}
		sin, cos := math.Sincos(float64(rot))
		sn, cs := float32(sin), float32(cos)
		for i := n0; i < len(pass.Packets); i++ {
			p := &pass.Packets[i].Transform
			o := p.Position
			p.Position = Vec2{X: pos.X + cs*o.X - sn*o.Y, Y: pos.Y + sn*o.X + cs*o.Y}
			p.Rotation += rot
		}
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

var errNoLibrary = errors.New("ecs: a Text needs an assets.Library: set Options.Assets")

func (x *extractor) textError(err error) {
	x.stats.TextErrors++
	x.stats.LastTextError = err
}

// outside reports whether a quad, bounded by the circle around its pivot
// that holds every corner, lies entirely outside the view.
func outside(v *view, pos, scale, size, origin Vec2) bool {
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
