package glrender

import (
	"fmt"
	"image"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/internal/gl"
	"github.com/metronome-go/metronome/render2d"
)

// The first draw with a new combination of program, blend mode and
// sampler state is slow on drivers that compile shader variants lazily:
// Mesa's llvmpipe, the software rasteriser of CI machines and headless
// hosts, compiles each with LLVM at that draw, tens of milliseconds with
// a cold shader cache, and browsers translate a WebGL program at its
// first use. A game's first frames would then take several frame times,
// after its clock has started. So a renderer can warm up where no frame
// is timed: see WarmUp.

// warmBlends are the blend modes, each a different fixed-function state.
var warmBlends = [...]render2d.BlendMode{render2d.BlendAlpha, render2d.BlendAdditive, render2d.BlendMultiply, render2d.BlendScreen, render2d.BlendOpaque}

// warmPacket is a one-pixel quad of texture tex with tint, under blend,
// moving as motion says (still, slide or turn) between its placements.
func warmPacket(tex render2d.TextureHandle, m render2d.MaterialHandle, tint render2d.Color, motion int, blend render2d.BlendMode) render2d.DrawPacket2D {
	p := render2d.DrawPacket2D{Texture: tex, Material: m, Size: geom.Vec2{X: 1, Y: 1}, Tint: tint, Blend: blend,
		Transform: render2d.Transform{Scale: geom.Vec2{X: 1, Y: 1}}}
	switch motion {
	case slide:
		p.Prev = render2d.Placement{Position: geom.Vec2{X: 0.5}, Scale: p.Transform.Scale, Tint: tint, Set: true}
	case turn:
		p.Prev = render2d.Placement{Rotation: 0.5, Scale: p.Transform.Scale, Tint: tint, Set: true}
	}
	return p
}

// WarmUp draws every built-in program variant once, under every blend
// mode and with each sampler state a texture can have (filter and wrap),
// into the default framebuffer, which it then clears, so that the game's
// first frames draw at full speed on drivers that compile lazily; after
// it, CreateMaterial does the same for each new material, and the first
// CreateRenderTarget for the render targets' format, which has variants
// of its own (every live material included): a game that draws into no
// target never pays for them, and one that does creates its targets while
// it sets up, before its clock starts, as that first one costs about as
// much as WarmUp. The runtime's platforms call WarmUp once, after New,
// before the game's clock starts. It costs about 170 ms with llvmpipe and
// a warm Mesa shader cache (1.6 s with a cold one, once per machine),
// little on a GPU, and changes no
// state a frame depends on.
func (r *Renderer) WarmUp() error {
	if err := r.res.Check("WarmUp"); err != nil {
		return err
	}
	if err := r.warmUp(render2d.MaterialHandle{}, render2d.TargetHandle{}); err != nil {
		return fmt.Errorf("glrender: %w", err)
	}
	r.warmed = true
	return nil
}

// warmMaterial warms a new material in the window and, once a render
// target has been warmed, in a render target of its own for the moment.
func (r *Renderer) warmMaterial(m render2d.MaterialHandle) error {
	if err := r.warmUp(m, render2d.TargetHandle{}); err != nil || !r.targetsWarm {
		return err
	}
	t, _, err := r.CreateRenderTarget(1, 1, render2d.TextureOptions{})
	if err != nil {
		return err
	}
	defer func() { _ = r.ReleaseRenderTarget(t) }()
	return r.warmUp(m, t)
}

// warmUp draws the variants of material m (zero: the built-in ones and
// shapes) into target t (zero: the default framebuffer) and clears it.
// The temporary textures are released before it returns.
func (r *Renderer) warmUp(m render2d.MaterialHandle, target render2d.TargetHandle) error {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Pix[0], img.Pix[1], img.Pix[2], img.Pix[3] = 255, 255, 255, 255
	var texs []render2d.TextureHandle
	defer func() {
		for _, t := range texs {
			_ = r.ReleaseTexture(t)
		}
	}()
	r.warming = true
	for _, o := range []render2d.TextureOptions{
		{}, {Filter: render2d.FilterNearest},
		{Wrap: render2d.WrapRepeat}, {Filter: render2d.FilterNearest, Wrap: render2d.WrapRepeat},
	} {
		t, err := r.CreateTexture(img, o)
		if err != nil {
			r.warming = false
			return err
		}
		texs = append(texs, t)
	}
	r.warming = false
	tints := []render2d.Color{render2d.White, {R: 0.5, G: 0.5, B: 0.5, A: 0.5}} // untinted and tinted programs
	motions := []int{still, slide, turn}
	if !m.IsZero() {
		tints = tints[1:] // a material has one program per motion
		motions = []int{still, turn}
	}
	f := &render2d.Frame{Present: render2d.Presentation{Alpha: 0.5}}
	for _, t := range texs {
		for _, tint := range tints {
			for _, mo := range motions {
				p := render2d.Pass{PassDesc: render2d.PassDesc{Target: target}}
				for _, b := range warmBlends {
					p.Packets = append(p.Packets, warmPacket(t, m, tint, mo, b))
				}
				f.Passes = append(f.Passes, p)
			}
		}
	}
	if m.IsZero() {
		p := render2d.Pass{PassDesc: render2d.PassDesc{Target: target}}
		p.Vertices = []render2d.Vertex{{Position: geom.Vec2{}, Coverage: 1}, {Position: geom.Vec2{X: 1}, Coverage: 1}, {Position: geom.Vec2{Y: 1}, Coverage: 1}}
		p.Indices = []uint32{0, 1, 2}
		for _, mo := range motions {
			for _, b := range warmBlends {
				q := warmPacket(render2d.TextureHandle{}, m, tints[1], mo, b)
				q.Mesh = render2d.Mesh{VertexCount: 3, IndexCount: 3}
				p.Packets = append(p.Packets, q)
			}
		}
		f.Passes = append(f.Passes, p)
	}
	// One question for GL errors, after the whole frame, rather than one
	// after each of its passes: in a browser each question waits for the
	// GPU process to run everything queued before it, and the passes
	// (each compiling its variant's pipeline there) waited one by one.
	checks := r.checks
	r.checks = 0
	err := r.Render(f)
	r.checks = checks
	if err == nil {
		err = glError("WarmUp")
	}
	var fbo uint32
	if !target.IsZero() {
		g, _ := r.res.MustTarget(target)
		fbo = g.Val.fbo
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
	gl.Disable(gl.SCISSOR_TEST)
	gl.ClearColor(0, 0, 0, 0)
	gl.Clear(gl.COLOR_BUFFER_BIT)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0) // as CreateRenderTarget leaves it
	r.curFBO = 0
	if err != nil {
		return fmt.Errorf("warming up: %w", err)
	}
	return nil
}
