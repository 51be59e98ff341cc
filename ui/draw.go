package ui

import (
	"slices"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
)

// drawer draws the shown widgets in a pass of their own over the game's,
// in logical units, in tree order so that panels lie under what they
// hold. It reads the world and changes nothing.
type drawer struct {
	u     *UI
	keys  []input.Button
	shown []shownWidget
	line  float32 // the font's line height; 0 without text
	// nums caches each slider's number text by entity ID, written again
	// only when its value changes, so an idle frame allocates nothing.
	nums []sliderNumber
	buf  []byte
}

type sliderNumber struct {
	e          ecs.Entity
	value      int32
	base, unit float64
	text       string
}

// number returns the text slider w (entity e) shows.
func (d *drawer) number(e ecs.Entity, w *Widget) string {
	id := int(e.ID())
	if id >= len(d.nums) {
		d.nums = append(d.nums, make([]sliderNumber, id+1-len(d.nums))...)
	}
	n := &d.nums[id]
	if n.e != e || n.text == "" || n.value != w.Value || n.base != w.Base || n.unit != w.Unit {
		d.buf = w.appendNumber(d.buf[:0])
		*n = sliderNumber{e: e, value: w.Value, base: w.Base, unit: w.Unit, text: string(d.buf)}
	}
	return n.text
}

type shownWidget struct {
	seq int32
	e   ecs.Entity
}

func (d *drawer) init(u *UI) {
	d.u = u
	if lib := u.opts.Library; lib != nil && !u.opts.Font.IsZero() {
		if m, err := lib.Metrics(u.opts.Font); err == nil {
			d.line = m.LineHeight
		}
	}
}

func (d *drawer) run(ctx *ecs.Sys) {
	l := ctx.Layout()
	if l.Scale.X <= 0 || l.Scale.Y <= 0 {
		return
	}
	u := d.u
	d.shown = d.shown[:0]
	q := u.widgets.Query()
	for q.Next() {
		if w := q.Get(); w.Shown() {
			d.shown = append(d.shown, shownWidget{seq: w.seq, e: q.Entity()})
		}
	}
	if len(d.shown) == 0 {
		return
	}
	slices.SortFunc(d.shown, func(a, b shownWidget) int { return int(a.seq) - int(b.seq) })
	pw := ctx.Frame.BeginPass(render2d.PassDesc{Camera: render2d.Camera{Viewport: l.Viewport, Size: l.Size}})
	for _, s := range d.shown {
		if w := u.wmap.Get(s.e); w != nil {
			d.widget(pw, s.e, w, s.e == u.state.Focus)
		}
	}
}

func (d *drawer) quad(pw *render2d.PassWriter, r geom.Rect, c render2d.Color) {
	if r.W <= 0 || r.H <= 0 {
		return
	}
	pw.Draw(render2d.DrawPacket2D{
		Transform: render2d.Transform{Position: geom.Vec2{X: r.X, Y: r.Y}, Scale: geom.Vec2{X: 1, Y: 1}},
		Size:      geom.Vec2{X: r.W, Y: r.H},
		Tint:      c,
		Layer:     d.u.opts.Theme.Layer,
	})
}

// text draws s in r, vertically centred, aligned as a says.
func (d *drawer) text(pw *render2d.PassWriter, r geom.Rect, s string, a assets.Align, c render2d.Color) {
	lib := d.u.opts.Library
	if lib == nil || d.line == 0 || s == "" {
		return
	}
	const inset = 4
	_, _ = lib.DrawText(pw, d.u.opts.Font, s, assets.TextOptions{
		Position: geom.Vec2{X: r.X + inset, Y: r.Y + (r.H-d.line)/2},
		Width:    max(r.W-2*inset, 1),
		Align:    a,
		Color:    c,
		Layer:    d.u.opts.Theme.Layer,
	})
}

func (d *drawer) widget(pw *render2d.PassWriter, e ecs.Entity, w *Widget, focused bool) {
	th := &d.u.opts.Theme
	r := w.Rect
	text := th.Text
	if w.Disabled {
		text = th.Dim
	}
	if w.Kind == KindPanel {
		d.quad(pw, r, th.Panel)
		return
	}
	if w.Kind == KindLabel {
		d.text(pw, r, w.Text, assets.AlignLeft, text)
		return
	}
	bg := th.Widget
	if focused {
		bg = th.Focus
	}
	d.quad(pw, r, bg)
	if w.Kind == KindButton {
		d.text(pw, r, w.Text, assets.AlignCenter, text)
		return
	}
	d.text(pw, geom.Rect{X: r.X, Y: r.Y, W: r.W / 2, H: r.H}, w.Text, assets.AlignLeft, text)
	v := valueRect(r)
	inner := geom.Rect{X: v.X + 2, Y: v.Y + 3, W: max(v.W-4, 0), H: max(v.H-6, 0)}
	switch w.Kind {
	case KindToggle:
		box := geom.Rect{X: inner.X + inner.W - inner.H, Y: inner.Y, W: inner.H, H: inner.H}
		d.quad(pw, box, th.Panel)
		if w.On {
			d.quad(pw, geom.Rect{X: box.X + 2, Y: box.Y + 2, W: box.W - 4, H: box.H - 4}, th.Accent)
		}
	case KindSlider:
		d.quad(pw, inner, th.Panel)
		if w.Max > w.Min {
			f := float32(w.Value-w.Min) / float32(w.Max-w.Min)
			d.quad(pw, geom.Rect{X: inner.X, Y: inner.Y, W: inner.W * f, H: inner.H}, th.Accent)
		}
		d.text(pw, v, d.number(e, w), assets.AlignCenter, text)
	case KindChoice:
		d.text(pw, v, "<", assets.AlignLeft, text)
		if i := int(w.Value); i >= 0 && i < len(w.Items) {
			d.text(pw, v, w.Items[i], assets.AlignCenter, text)
		}
		d.text(pw, v, ">", assets.AlignRight, text)
	case KindTextField:
		d.quad(pw, inner, th.Panel)
		d.text(pw, v, w.Input, assets.AlignLeft, text)
		if focused && d.u.state.Editing {
			d.quad(pw, geom.Rect{X: inner.X, Y: inner.Y + inner.H - 2, W: inner.W, H: 2}, th.Accent)
		}
	case KindBinding:
		if focused && d.u.state.Editing {
			d.quad(pw, inner, th.Accent)
			d.text(pw, v, "press a button", assets.AlignCenter, th.Panel)
			return
		}
		d.keys = d.u.opts.Actions.AppendBindings(d.keys[:0], w.Action)
		if n := len(d.keys); n > 0 {
			slot := v.W / float32(n)
			for k, b := range d.keys {
				d.text(pw, geom.Rect{X: v.X + slot*float32(k), Y: v.Y, W: slot, H: v.H}, b.String(), assets.AlignLeft, text)
			}
		}
	}
}
