package inspect

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"net/http"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/nullrender"
)

// The tick's frame, for the page: the game's PrepareFrame run on the
// world at the tick, every packet placed on the target by its pass's
// camera (at the tick's own placement, alpha 1) and sent as target
// points. A quad carries its corners, tint, blend and, when textured,
// its texture and the texel rectangle it samples; the page fetches each
// texture once from /api/texture (the pixels the game loaded, kept by its
// assets.Library) and draws the region through the quad's affine
// transform, multiplied by the tint as the renderer does. A shape carries
// its triangles (coverage averaged, the one-pixel antialiasing fringe
// left out) and its discs. Custom materials are drawn as the built-in
// one; packets drawn into render targets are drawn onto the frame.

type frameQuad struct {
	Points   [8]float32 `json:"p"`
	Tint     [4]float32 `json:"c"`
	Textured bool       `json:"t,omitempty"`
	// Texture and Gen name the texture; Source is the texel rectangle
	// (x, y, w, h), all zero for the whole texture.
	Texture uint32     `json:"tex,omitempty"`
	Gen     uint32     `json:"gen,omitempty"`
	Source  [4]float32 `json:"src,omitzero"`
	Blend   string     `json:"blend,omitempty"`
}

// frameShape is one shape packet: triangles as target points, three
// pairs each, with each triangle's coverage, and discs as centre and
// radius in target pixels.
type frameShape struct {
	Tint      [4]float32 `json:"c"`
	Triangles []float32  `json:"tri"`
	Coverage  []float32  `json:"cov"`
	Discs     []float32  `json:"discs,omitempty"`
	Blend     string     `json:"blend,omitempty"`
}

// frameClear is a pass's clear of its viewport.
type frameClear struct {
	Rect  [4]float32 `json:"r"`
	Color [4]float32 `json:"c"`
	// At is the number of packets drawn before the clear (in Items).
	At int `json:"at"`
}

type frameView struct {
	Tick   uint64       `json:"tick"`
	Width  int          `json:"width"`
	Height int          `json:"height"`
	Clear  [4]float32   `json:"clear"`
	Passes []frameClear `json:"passes"`
	Quads  []frameQuad  `json:"quads"`
	// Filter is how textures are sampled: "linear" or "nearest".
	Filter string `json:"filter"`
	// Items is the drawing order: for each packet, 'q' for the next quad
	// or 's' for the next shape.
	Items      string       `json:"items"`
	ShapeList  []frameShape `json:"shape_list"`
	Shapes     int          `json:"shapes"`
	NoTextures bool         `json:"no_textures,omitempty"`
}

func color4(c render2d.Color) [4]float32 {
	return [4]float32{finite(c.R), finite(c.G), finite(c.B), finite(c.A)}
}

func (h *handler) frame(q *query) (any, error) {
	t, err := h.seekTo(q)
	if err != nil {
		return nil, err
	}
	ctx, _ := h.rep.Context(t)
	tw, th := ctx.Window.Framebuffer.Width, ctx.Window.Framebuffer.Height
	if tw <= 0 || th <= 0 {
		tw, th = ctx.Window.Size.Width, ctx.Window.Size.Height
	}
	lib := h.rep.App().Assets()
	// With a library: upload, prepare (which may place new glyphs), and
	// when that upload sent anything new, prepare again so that the new
	// glyphs have their texture.
	prepare := func() error {
		h.frameBuf.Reset()
		return h.rep.App().PrepareFrame(render2d.NewFrameWriter(&h.frameBuf))
	}
	if lib != nil {
		if err := h.upload(lib); err != nil {
			return nil, err
		}
	}
	if err := prepare(); err != nil {
		return nil, err
	}
	if lib != nil {
		sent := func() uint64 { st := lib.UploadStats(); return st.Bytes + st.Creates }
		before := sent()
		if err := h.upload(lib); err != nil {
			return nil, err
		}
		if sent() != before {
			if err := prepare(); err != nil {
				return nil, err
			}
		}
	}
	f := &h.frameBuf
	v := frameView{Tick: t, Width: tw, Height: th, Quads: []frameQuad{}, Passes: []frameClear{}, ShapeList: []frameShape{}, Filter: "linear"}
	if lib != nil {
		v.Filter = lib.Options().Texture.Filter.String()
	} else {
		v.NoTextures = true
	}
	if f.Clear {
		v.Clear = color4(f.ClearColor)
	}
	var items []byte
	for i := range f.Passes {
		pass := &f.Passes[i]
		cam := pass.ResolvedCamera(1)
		if pass.Clear {
			vp := cam.ViewportIn(tw, th)
			v.Passes = append(v.Passes, frameClear{Rect: [4]float32{finite(vp.X), finite(vp.Y), finite(vp.W), finite(vp.H)},
				Color: color4(pass.ClearColor), At: len(items)})
		}
		for j := range pass.Packets {
			p := pass.Packets[j].Resolved(1)
			tr := p.Transform
			sin, cos := math.Sincos(float64(tr.Rotation))
			place := func(x, y float32) geom.Vec2 {
				x, y = (x-tr.Origin.X)*tr.Scale.X, (y-tr.Origin.Y)*tr.Scale.Y
				w := geom.Vec2{X: tr.Position.X + x*float32(cos) - y*float32(sin), Y: tr.Position.Y + x*float32(sin) + y*float32(cos)}
				return cam.WorldToTarget(w, tw, th)
			}
			blend := ""
			if p.Blend != render2d.BlendAlpha {
				blend = p.Blend.String()
			}
			if p.IsShape() {
				v.Shapes++
				v.ShapeList = append(v.ShapeList, shapeOf(pass, &p, place, blend))
				items = append(items, 's')
				continue
			}
			var quad frameQuad
			for k, c := range [4][2]float32{{0, 0}, {p.Size.X, 0}, {p.Size.X, p.Size.Y}, {0, p.Size.Y}} {
				s := place(c[0], c[1])
				quad.Points[2*k], quad.Points[2*k+1] = finite(s.X), finite(s.Y)
			}
			quad.Tint = color4(p.Tint)
			quad.Blend = blend
			if !p.Texture.IsZero() {
				quad.Textured = true
				quad.Texture, quad.Gen = p.Texture.ID, p.Texture.Gen
				quad.Source = [4]float32{finite(p.Source.X), finite(p.Source.Y), finite(p.Source.W), finite(p.Source.H)}
			}
			v.Quads = append(v.Quads, quad)
			items = append(items, 'q')
		}
	}
	v.Items = string(items)
	return v, nil
}

// shapeOf places p's mesh on the target. A disc's quad becomes its
// circle; other triangles keep their average coverage, and those with no
// area without their pixel offsets (the antialiasing fringe) are left out.
func shapeOf(pass *render2d.Pass, p *render2d.DrawPacket2D, place func(x, y float32) geom.Vec2, blend string) frameShape {
	s := frameShape{Tint: color4(p.Tint), Triangles: []float32{}, Coverage: []float32{}, Blend: blend}
	m := p.Mesh
	if uint64(m.FirstIndex)+uint64(m.IndexCount) > uint64(len(pass.Indices)) {
		return s // a frame the renderer would refuse: nothing to draw
	}
	idx := pass.Indices[m.FirstIndex : m.FirstIndex+m.IndexCount]
	vert := func(i uint32) (*render2d.Vertex, bool) {
		n := uint64(m.FirstVertex) + uint64(i)
		if i >= m.VertexCount || n >= uint64(len(pass.Vertices)) {
			return nil, false
		}
		return &pass.Vertices[n], true
	}
	seen := map[[3]float32]bool{}
	for k := 0; k+2 < len(idx); k += 3 {
		var vs [3]*render2d.Vertex
		ok := true
		for c := range 3 {
			vs[c], ok = vert(idx[k+c])
			if !ok {
				break
			}
		}
		if !ok {
			continue
		}
		if vs[0].Radius > 0 {
			r := vs[0].Radius
			cx, cy := vs[0].Position.X-vs[0].Disc.X*r, vs[0].Position.Y-vs[0].Disc.Y*r
			key := [3]float32{cx, cy, r}
			if seen[key] {
				continue
			}
			seen[key] = true
			c, e := place(cx, cy), place(cx+r, cy)
			s.Discs = append(s.Discs, finite(c.X), finite(c.Y), finite(float32(math.Hypot(float64(e.X-c.X), float64(e.Y-c.Y)))))
			continue
		}
		var pts [6]float32
		cov := float32(0)
		for c, vx := range vs {
			pt := place(vx.Position.X, vx.Position.Y)
			pts[2*c], pts[2*c+1] = finite(pt.X), finite(pt.Y)
			cov += vx.Coverage / 3
		}
		area := (pts[2]-pts[0])*(pts[5]-pts[1]) - (pts[4]-pts[0])*(pts[3]-pts[1])
		if area == 0 || cov <= 0 {
			continue
		}
		s.Triangles = append(s.Triangles, pts[:]...)
		s.Coverage = append(s.Coverage, finite(cov))
	}
	return s
}

// upload gives the library's pages textures again. The replay's renderer
// was closed with its session, which released them; a new null renderer
// issues the same handles in the same order, so the handles the world's
// sprites keep name the same pages. Glyphs laid out on a page with no
// texture are left out of a frame, so a frame is prepared after an upload.
func (h *handler) upload(lib *assets.Library) error {
	if h.textures == nil {
		h.textures = nullrender.New()
	}
	if err := lib.Upload(h.textures); err != nil {
		return fmt.Errorf("inspect: the game's textures: %w", err)
	}
	return nil
}

// texture answers /api/texture?id=N&gen=G: the pixels of a texture the
// frame's quads draw, as a PNG.
func (h *handler) texture(w http.ResponseWriter, r *http.Request) {
	q := &query{r: r}
	id, err := q.uint("id", 0, 1<<32-1)
	if err == nil && q.str("id") == "" {
		err = bad("parameter id is missing: want a texture's id (and gen) from /api/frame")
	}
	var gen uint64
	if err == nil {
		gen, err = q.uint("gen", 0, 1<<32-1)
	}
	var buf bytes.Buffer
	if err == nil {
		h.run(func() { err = h.encodeTexture(&buf, render2d.TextureHandle{ID: uint32(id), Gen: uint32(gen)}) })
	}
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	_, _ = w.Write(buf.Bytes())
}

func (h *handler) encodeTexture(buf *bytes.Buffer, tex render2d.TextureHandle) error {
	if h.live != nil {
		h.rep = h.live.rep
	}
	if h.rep == nil {
		return &apiError{http.StatusServiceUnavailable, "inspect: the live session has run no tick yet"}
	}
	lib := h.rep.App().Assets()
	if lib == nil {
		return missing("the game has no assets.Library: no texture to show")
	}
	if err := h.upload(lib); err != nil {
		return err
	}
	img, ok := lib.TextureImage(tex)
	if !ok {
		return missing("no texture with id %d and generation %d: want one a quad of /api/frame names", tex.ID, tex.Gen)
	}
	return png.Encode(buf, img)
}

// finite keeps a value JSON can hold: NaN and infinities become 0.
func finite(f float32) float32 {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return 0
	}
	return f
}
