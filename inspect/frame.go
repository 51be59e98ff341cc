package inspect

import (
	"math"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// The tick's frame, for the page: the game's PrepareFrame run on the
// world at the tick, its quads placed on the target by each pass's camera
// (at the tick's own placement, alpha 1) and sent as corner points with
// their tint. The page fills them on a 2D canvas: textures are not drawn
// (a textured quad shows its tint and an outline), nor shapes, which are
// counted.

type frameQuad struct {
	Points   [8]float32 `json:"p"`
	Tint     [4]float32 `json:"c"`
	Textured bool       `json:"t,omitempty"`
}

type frameView struct {
	Tick   uint64      `json:"tick"`
	Width  int         `json:"width"`
	Height int         `json:"height"`
	Clear  [4]float32  `json:"clear"`
	Quads  []frameQuad `json:"quads"`
	Shapes int         `json:"shapes"`
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
	h.frameBuf.Reset()
	if err := h.rep.App().PrepareFrame(render2d.NewFrameWriter(&h.frameBuf)); err != nil {
		return nil, err
	}
	f := &h.frameBuf
	v := frameView{Tick: t, Width: tw, Height: th, Quads: []frameQuad{}}
	if f.Clear {
		c := f.ClearColor
		v.Clear = [4]float32{finite(c.R), finite(c.G), finite(c.B), finite(c.A)}
	}
	for i := range f.Passes {
		pass := &f.Passes[i]
		cam := pass.ResolvedCamera(1)
		for j := range pass.Packets {
			p := pass.Packets[j].Resolved(1)
			if p.Mesh.IndexCount > 0 {
				v.Shapes++
				continue
			}
			tr := p.Transform
			sin, cos := math.Sincos(float64(tr.Rotation))
			var quad frameQuad
			for k, c := range [4][2]float32{{0, 0}, {p.Size.X, 0}, {p.Size.X, p.Size.Y}, {0, p.Size.Y}} {
				x, y := (c[0]-tr.Origin.X)*tr.Scale.X, (c[1]-tr.Origin.Y)*tr.Scale.Y
				w := geom.Vec2{X: tr.Position.X + x*float32(cos) - y*float32(sin), Y: tr.Position.Y + x*float32(sin) + y*float32(cos)}
				s := cam.WorldToTarget(w, tw, th)
				quad.Points[2*k], quad.Points[2*k+1] = finite(s.X), finite(s.Y)
			}
			quad.Tint = [4]float32{finite(p.Tint.R), finite(p.Tint.G), finite(p.Tint.B), finite(p.Tint.A)}
			quad.Textured = !p.Texture.IsZero()
			v.Quads = append(v.Quads, quad)
		}
	}
	return v, nil
}

// finite keeps a value JSON can hold: NaN and infinities become 0.
func finite(f float32) float32 {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return 0
	}
	return f
}
