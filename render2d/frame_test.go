package render2d_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

func TestFrameWriterReusesCapacity(t *testing.T) {
	var f render2d.Frame
	w := render2d.NewFrameWriter(&f)
	pw := w.BeginPass(render2d.PassDesc{Clear: true})
	for range 100 {
		pw.Draw(render2d.DrawPacket2D{})
	}
	pw = w.BeginPass(render2d.PassDesc{})
	pw.Draw(render2d.DrawPacket2D{})
	first := &f.Passes[0].Packets[0]
	f.Reset()
	if got := len(f.Passes); got != 0 {
		t.Fatalf("after Reset: %d passes, want 0", got)
	}
	pw = w.BeginPass(render2d.PassDesc{})
	if got := cap(f.Passes[0].Packets); got < 100 {
		t.Errorf("pass 0 packet capacity after Reset = %d, want >= 100 (kept)", got)
	}
	if f.Passes[0].Clear {
		t.Error("pass 0 kept Clear from the previous frame")
	}
	pw.Draw(render2d.DrawPacket2D{Layer: 9})
	if &f.Passes[0].Packets[0] != first {
		t.Error("pass 0 packets moved to new storage after Reset")
	}
}

func TestPassWriterOps(t *testing.T) {
	var f render2d.Frame
	w := render2d.NewFrameWriter(&f)
	pw := w.BeginPass(render2d.PassDesc{})
	for _, l := range []int16{3, 1, 2, 1} {
		p := render2d.DrawPacket2D{Layer: l, Params: [4]float32{float32(pw.Len())}}
		pw.DrawPtr(&p)
	}
	ps := pw.Append(2)
	ps[0].Layer, ps[1].Layer = 0, 2
	ps[0].Params[0], ps[1].Params[0] = 4, 5
	pw.SetParam(7, 1.5)
	pw.SortByLayer()
	var got []float32
	for _, p := range f.Passes[0].Packets {
		got = append(got, p.Params[0])
	}
	want := []float32{4, 1, 3, 2, 5, 0} // by layer, written order within a layer
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order after SortByLayer = %v, want %v", got, want)
		}
	}
	if f.Passes[0].Params[7] != 1.5 {
		t.Errorf("pass param 7 = %v, want 1.5", f.Passes[0].Params[7])
	}
}

func TestAppendBatches(t *testing.T) {
	a := render2d.TextureHandle{ID: 1, Gen: 1}
	b := render2d.TextureHandle{ID: 2, Gen: 1}
	m := render2d.MaterialHandle{ID: 1, Gen: 1}
	p := func(tex render2d.TextureHandle, mat render2d.MaterialHandle, bl render2d.BlendMode) render2d.DrawPacket2D {
		return render2d.DrawPacket2D{Texture: tex, Material: mat, Blend: bl}
	}
	tests := []struct {
		name    string
		packets []render2d.DrawPacket2D
		want    []render2d.Batch
	}{
		{"empty", nil, nil},
		{"one run", []render2d.DrawPacket2D{p(a, m, 0), p(a, m, 0), p(a, m, 0)}, []render2d.Batch{{Key: render2d.BatchKey{Texture: a, Material: m}, First: 0, Count: 3}}},
		{"texture change", []render2d.DrawPacket2D{p(a, m, 0), p(b, m, 0)}, []render2d.Batch{{Key: render2d.BatchKey{Texture: a, Material: m}, Count: 1}, {Key: render2d.BatchKey{Texture: b, Material: m}, First: 1, Count: 1}}},
		{"order kept", []render2d.DrawPacket2D{p(a, m, 0), p(b, m, 0), p(a, m, 0)}, []render2d.Batch{{Key: render2d.BatchKey{Texture: a, Material: m}, Count: 1}, {Key: render2d.BatchKey{Texture: b, Material: m}, First: 1, Count: 1}, {Key: render2d.BatchKey{Texture: a, Material: m}, First: 2, Count: 1}}},
		{"blend and material split", []render2d.DrawPacket2D{p(a, m, 0), p(a, m, render2d.BlendAdditive), p(a, render2d.MaterialHandle{}, render2d.BlendAdditive)}, []render2d.Batch{{Key: render2d.BatchKey{Texture: a, Material: m}, Count: 1}, {Key: render2d.BatchKey{Texture: a, Material: m, Blend: render2d.BlendAdditive}, First: 1, Count: 1}, {Key: render2d.BatchKey{Texture: a, Blend: render2d.BlendAdditive}, First: 2, Count: 1}}},
	}
	for _, tt := range tests {
		got := render2d.AppendBatches(nil, tt.packets)
		if len(got) != len(tt.want) {
			t.Errorf("%s: got %d batches %v, want %v", tt.name, len(got), got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: batch %d = %+v, want %+v", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}

// fakeRes knows texture 1 and material 1, and target 1 whose texture is 2.
type fakeRes struct{}

func (fakeRes) HasTexture(h render2d.TextureHandle) bool {
	return h == render2d.TextureHandle{ID: 1, Gen: 1} || h == render2d.TextureHandle{ID: 2, Gen: 1}
}
func (fakeRes) HasMaterial(h render2d.MaterialHandle) bool {
	return h == render2d.MaterialHandle{ID: 1, Gen: 1}
}
func (fakeRes) TargetTexture(h render2d.TargetHandle) (render2d.TextureHandle, bool) {
	if h == (render2d.TargetHandle{ID: 1, Gen: 1}) {
		return render2d.TextureHandle{ID: 2, Gen: 1}, true
	}
	return render2d.TextureHandle{}, false
}

func TestValidateFrame(t *testing.T) {
	live := render2d.TextureHandle{ID: 1, Gen: 1}
	stale := render2d.TextureHandle{ID: 1, Gen: 2}
	target := render2d.TargetHandle{ID: 1, Gen: 1}
	targetTex := render2d.TextureHandle{ID: 2, Gen: 1}
	tests := []struct {
		name  string
		frame render2d.Frame
		want  []string // substrings, one per expected problem
	}{
		{"empty", render2d.Frame{}, nil},
		{"valid", render2d.Frame{Passes: []render2d.Pass{
			{PassDesc: render2d.PassDesc{Target: target}, Packets: []render2d.DrawPacket2D{{Texture: live}, {Material: render2d.MaterialHandle{ID: 1, Gen: 1}}}},
			{Packets: []render2d.DrawPacket2D{{Texture: targetTex}}},
		}}, nil},
		{"stale texture once per run", render2d.Frame{Passes: []render2d.Pass{{Packets: []render2d.DrawPacket2D{{Texture: stale}, {Texture: stale}, {Texture: live}, {Texture: stale}}}}},
			[]string{"pass 0 packet 0: render2d: stale", "pass 0 packet 3: render2d: stale"}},
		{"feedback loop", render2d.Frame{Passes: []render2d.Pass{{PassDesc: render2d.PassDesc{Target: target}, Packets: []render2d.DrawPacket2D{{Texture: targetTex}}}}},
			[]string{"cannot sample what it draws into"}},
		{"everything at once", render2d.Frame{Passes: []render2d.Pass{
			{PassDesc: render2d.PassDesc{Camera: render2d.Camera{Zoom: -2, Viewport: geom.Rect{W: -1}}, Target: render2d.TargetHandle{ID: 5, Gen: 1}}},
			{Packets: []render2d.DrawPacket2D{{Blend: 200}, {Material: render2d.MaterialHandle{ID: 9, Gen: 9}}}},
		}}, []string{"pass 0: render2d: stale", "zoom is -2", "viewport size is -1x0", "blend mode 200, want 0 to 4", "pass 1 packet 1: render2d: stale"}},
		{"interpolation", render2d.Frame{Present: render2d.Presentation{Alpha: 1.25}, Passes: []render2d.Pass{
			{PassDesc: render2d.PassDesc{PrevCamera: render2d.CameraPlacement{Zoom: float32(math.Inf(1)), Set: true}}},
			{PassDesc: render2d.PassDesc{PrevCamera: render2d.CameraPlacement{Zoom: -1}}}, // unset: not read
		}}, []string{"Frame.Present.Alpha is 1.25, want 0 to 1", "pass 0: previous camera zoom is +Inf"}},
	}
	for _, tt := range tests {
		err := render2d.ValidateFrame(&tt.frame, fakeRes{})
		if len(tt.want) == 0 {
			if err != nil {
				t.Errorf("%s: ValidateFrame = %v, want nil", tt.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: ValidateFrame = nil, want %d problems", tt.name, len(tt.want))
			continue
		}
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != len(tt.want) {
			t.Errorf("%s: got %d problems, want %d:\n%v", tt.name, len(lines), len(tt.want), err)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error does not mention %q:\n%v", tt.name, w, err)
			}
		}
	}
	var many render2d.Frame
	for range 40 {
		many.Passes = append(many.Passes, render2d.Pass{Packets: []render2d.DrawPacket2D{{Blend: 99}}})
	}
	err := render2d.ValidateFrame(&many, fakeRes{})
	if got := len(strings.Split(err.Error(), "\n")); got != 17 || !strings.Contains(err.Error(), "and 24 more problems") {
		t.Errorf("40 problems: got %d lines, want 16 and a count of 24 more:\n%v", got, err)
	}
	var pe *render2d.PacketError
	if !errors.As(err, &pe) || pe.Pass != 0 {
		t.Errorf("errors.As(PacketError) = %v, want the first packet problem", pe)
	}
}

func TestStringers(t *testing.T) {
	tests := []struct{ got, want string }{
		{render2d.BlendScreen.String(), "screen"},
		{render2d.BlendMode(77).String(), "BlendMode(77)"},
		{render2d.TextureHandle{ID: 3, Gen: 2}.String(), "texture 3 gen 2"},
		{render2d.MaterialHandle{ID: 1, Gen: 1}.String(), "material 1 gen 1"},
		{render2d.TargetHandle{ID: 4, Gen: 5}.String(), "target 4 gen 5"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	if c := render2d.RGBA8(255, 0, 51, 255); c != (render2d.Color{R: 1, G: 0, B: 0.2, A: 1}) {
		t.Errorf("RGBA8 = %v", c)
	}
}
