package glrender

import "github.com/metronome-go/metronome/internal/gl"

// The vertex shader reads one compact instance per sprite (see instance in
// instances.go): three vec4 attributes for the built-in material, four
// with material parameters. The quad's corners come from gl_VertexID, so
// there is no vertex buffer at all. A software rasteriser such as
// llvmpipe fetches every attribute for every vertex, so the instance is
// kept small: measured on llvmpipe, streaming DrawPacket2D fields directly
// (five attributes) cost about 20% more per sprite than this layout.
//
// The interpolating variants also read the previous placement from a
// buffer of their own and move the sprite from it to the current one by
// u_alpha, one uniform per frame, with the arithmetic of render2d.Lerp and
// render2d.LerpAngle: a*(1-t) + b*t, and the angle difference reduced with
// roundEven. SLIDE reads the previous position only, for built-in batches
// whose packets keep their rotation, scale and tint (the common case of
// sprites that just move): it sits in the instance's parameter slot, which
// the built-in material leaves free, so sliding streams no byte more than
// standing still. TURN reads the whole previous placement (two vec4 from a
// buffer of their own, see prevInstance). Batches without a previous
// placement, and frames drawn at alpha 1, use the plain variants.
const vertexSource = `
layout(location = 0) in vec4 a_rect;    // position.xy, extent.xy (size times scale)
layout(location = 1) in uvec4 a_xform;  // origin offset.xy, rotation (float bits), tint (RGBA8)
layout(location = 2) in vec4 a_uv;      // u0, v0, u1, v1
#ifdef PARAMS
layout(location = 3) in vec4 a_params;  // material parameters
out vec4 v_params;
#endif
#ifdef SLIDE
layout(location = 3) in vec2 a_ppos;    // previous position, in the parameter slot (never with PARAMS)
uniform float u_alpha;
#endif
#ifdef TURN
layout(location = 4) in vec4 a_prect;   // previous a_rect
layout(location = 5) in uvec4 a_pxform; // previous a_xform
uniform float u_alpha;
#endif

uniform mat4 u_view;  // world to clip

out vec2 v_uv;
#ifdef TINT
flat out uint v_tint;
#endif

void main() {
	// Instanced: vertices 0-3 of the strip. Batched: vertex 4k+c of a
	// batch's quads is corner c of its sprite k.
	vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
	vec2 pos = a_rect.xy;
	vec2 extent = a_rect.zw;
	vec2 offset = uintBitsToFloat(a_xform.xy);
	float rot = uintBitsToFloat(a_xform.z);
#ifdef SLIDE
	pos = a_ppos * (1.0 - u_alpha) + pos * u_alpha;
#endif
#ifdef TURN
	float t = u_alpha;
	float s = 1.0 - t;
	pos = a_prect.xy * s + pos * t;
	extent = a_prect.zw * s + extent * t;
	offset = uintBitsToFloat(a_pxform.xy) * s + offset * t;
	float prot = uintBitsToFloat(a_pxform.z);
	if (prot != rot) {
		const float TAU = 6.28318530717958647692;
		float d = rot - prot;
		d -= TAU * roundEven(d / TAU);
		rot -= d * s;
	}
#endif
	vec2 local = corner * extent - offset;
	vec2 world = pos;
	if (rot == 0.0) {
		world += local;
	} else {
		float c = cos(rot);
		float sn = sin(rot);
		world += vec2(local.x * c - local.y * sn, local.x * sn + local.y * c);
	}
	gl_Position = u_view * vec4(world, 0.0, 1.0);
	v_uv = mix(a_uv.xy, a_uv.zw, corner);
#ifdef TINT
#ifdef TURN
	v_tint = a_xform.w == a_pxform.w ? a_xform.w : packUnorm4x8(unpackUnorm4x8(a_pxform.w) * s + unpackUnorm4x8(a_xform.w) * t);
#else
	v_tint = a_xform.w;
#endif
#endif
#ifdef PARAMS
	v_params = a_params;
#endif
}
`

// Shader variants. The built-in material needs no parameters, and a batch
// whose packets are all tinted opaque white needs no tint: leaving them out
// saves varyings and per-fragment work that a software rasteriser such as
// llvmpipe pays for on every sprite (measured: about 20% per sprite for the
// tint alone). Custom materials always get both. Each comes plain,
// sliding and turning (see vertexSource).
const (
	headerPlain  = gl.ShaderPrelude
	headerTint   = gl.ShaderPrelude + "#define TINT 1\n"
	headerParams = gl.ShaderPrelude + "#define TINT 1\n#define PARAMS 1\n"
)

// motion variants: index into Renderer.vs[kind], programs and vao
const (
	still = iota // no previous placement, or drawn at alpha 1
	slide        // previous position only
	turn         // whole previous placement
	numMotions
)

var motionDefines = [numMotions]string{"", "#define SLIDE 1\n", "#define TURN 1\n"}
var motionNames = [numMotions]string{"", "sliding ", "turning "}

// vertex shader kinds: index into Renderer.vs[kind][motion]
const (
	vsPlain = iota
	vsTint
	vsParams
	numVS
)

var vsHeaders = [numVS]string{headerPlain, headerTint, headerParams}

const fragmentHead = `
in vec2 v_uv;
#ifdef TINT
flat in uint v_tint;
#define TINT_VALUE unpackUnorm4x8(v_tint)
#else
#define TINT_VALUE vec4(1.0)
#endif
#ifdef PARAMS
in vec4 v_params;
#else
const vec4 v_params = vec4(0.0);
#endif
uniform sampler2D u_tex;
uniform vec4 u_pass[2];
out vec4 o_color;

vec4 shade(sampler2D tex, vec2 uv, vec4 texel, vec4 tint, vec4 params, vec4 pass0, vec4 pass1) {
`

const fragmentTail = `
}

void main() {
	o_color = shade(u_tex, v_uv, texture(u_tex, v_uv), TINT_VALUE, v_params, u_pass[0], u_pass[1]);
}
`

const (
	builtinShade  = `return texel * vec4(tint.rgb * tint.a, tint.a);`
	untintedShade = `return texel;`
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
func linkPrograms(vs [numMotions]uint32, header, shade, what string) (programs, error) {
	fs, err := gl.Compile(gl.FRAGMENT_SHADER, header+fragmentHead+shade+fragmentTail, what+" fragment shader")
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
