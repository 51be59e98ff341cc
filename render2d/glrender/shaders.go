package glrender

import (
	"github.com/metronome-go/metronome/internal/gl"
	"github.com/metronome-go/metronome/internal/shadersrc"
)

// The shaders' source is package shadersrc's (the layout of an instance and
// the variants are described there).

// motion variants: index into Renderer.vs[kind], programs and vao
const (
	still      = int(shadersrc.Still)
	slide      = int(shadersrc.Slide)
	turn       = int(shadersrc.Turn)
	numMotions = int(shadersrc.NumMotions)
)

var motionNames = [numMotions]string{"", "sliding ", "turning "}

// vertex shader kinds: index into Renderer.vs[kind][motion]
const (
	vsPlain  = int(shadersrc.Plain)
	vsTint   = int(shadersrc.Tint)
	vsParams = int(shadersrc.Params)
	numVS    = int(shadersrc.NumKinds)
)

// program is a linked sprite program and its uniform locations (alpha is
// -1 in the plain variants).
type program struct {
	id    uint32
	view  int32
	tex   int32
	pass  int32
	alpha int32
}

// programs are the motion variants of one material.
type programs [numMotions]program

// linkPrograms builds the sprite programs of every motion variant whose
// shade function has the given body, from the compiled vertex shaders vs
// of the matching kind. The fragment shader is compiled once and linked
// into all of them.
func linkPrograms(vs [numMotions]uint32, kind shadersrc.Kind, shade, what string) (programs, error) {
	fs, err := gl.Compile(gl.FRAGMENT_SHADER, shadersrc.SpriteFragment(gl.ShaderPrelude, kind, shade), what+" fragment shader")
	if err != nil {
		return programs{}, err
	}
	defer gl.DeleteShader(fs)
	var ps programs
	for i := range ps {
		if vs[i] == 0 {
			continue // no such variant for this kind
		}
		p, err := link(vs[i], fs, what)
		if err != nil {
			ps.delete()
			return programs{}, err
		}
		ps[i] = p
	}
	return ps, nil
}

// link links vs and fs and looks up the sprite uniforms.
func link(vs, fs uint32, what string) (program, error) {
	id, err := gl.Link(vs, fs, what)
	if err != nil {
		return program{}, err
	}
	p := program{
		id:    id,
		view:  gl.GetUniformLocation(id, "u_view"),
		tex:   gl.GetUniformLocation(id, "u_tex"),
		pass:  gl.GetUniformLocation(id, "u_pass"),
		alpha: gl.GetUniformLocation(id, "u_alpha"),
	}
	gl.UseProgram(id)
	gl.Uniform1i(p.tex, 0)
	return p, nil
}

func (ps *programs) delete() {
	for i := range ps {
		if ps[i].id != 0 {
			gl.DeleteProgram(ps[i].id)
			ps[i].id = 0
		}
	}
}
