package glrender

import (
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// The vertex shader reads one compact instance per sprite (see instance in
// instances.go): three vec4 attributes for the built-in material, four
// with material parameters. The quad's corners come from gl_VertexID, so
// there is no vertex buffer at all. A software rasteriser such as
// llvmpipe fetches every attribute for every vertex, so the instance is
// kept small: measured on llvmpipe, streaming DrawPacket2D fields directly
// (five attributes) cost about 20% more per sprite than this layout.
const vertexSource = `
layout(location = 0) in vec4 a_rect;    // position.xy, extent.xy (size times scale)
layout(location = 1) in uvec4 a_xform;  // origin offset.xy, rotation (float bits), tint (RGBA8)
layout(location = 2) in vec4 a_uv;      // u0, v0, u1, v1
#ifdef PARAMS
layout(location = 3) in vec4 a_params;  // material parameters
out vec4 v_params;
#endif

uniform mat4 u_view;  // world to clip

out vec2 v_uv;
#ifdef TINT
flat out uint v_tint;
#endif

void main() {
	vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
	vec2 local = corner * a_rect.zw - uintBitsToFloat(a_xform.xy);
	float rot = uintBitsToFloat(a_xform.z);
	vec2 world = a_rect.xy;
	if (rot == 0.0) {
		world += local;
	} else {
		float c = cos(rot);
		float s = sin(rot);
		world += vec2(local.x * c - local.y * s, local.x * s + local.y * c);
	}
	gl_Position = u_view * vec4(world, 0.0, 1.0);
	v_uv = mix(a_uv.xy, a_uv.zw, corner);
#ifdef TINT
	v_tint = a_xform.w;
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
// tint alone). Custom materials always get both.
const (
	headerPlain  = "#version 410 core\n"
	headerTint   = "#version 410 core\n#define TINT 1\n"
	headerParams = "#version 410 core\n#define TINT 1\n#define PARAMS 1\n"
)

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

// program is a linked sprite program and its uniform locations.
type program struct {
	id   uint32
	view int32
	tex  int32
	pass int32
}

func compileShader(kind uint32, src, what string) (uint32, error) {
	sh := gl.CreateShader(kind)
	cs, free := gl.Strs(src + "\x00")
	gl.ShaderSource(sh, 1, cs, nil)
	free()
	gl.CompileShader(sh)
	var ok int32
	gl.GetShaderiv(sh, gl.COMPILE_STATUS, &ok)
	if ok == gl.FALSE {
		log := shaderLog(sh, false)
		gl.DeleteShader(sh)
		return 0, fmt.Errorf("compiling %s: %s", what, log)
	}
	return sh, nil
}

func shaderLog(id uint32, isProgram bool) string {
	var n int32
	if isProgram {
		gl.GetProgramiv(id, gl.INFO_LOG_LENGTH, &n)
	} else {
		gl.GetShaderiv(id, gl.INFO_LOG_LENGTH, &n)
	}
	if n <= 0 {
		return "(no log)"
	}
	buf := make([]byte, n)
	if isProgram {
		gl.GetProgramInfoLog(id, n, nil, &buf[0])
	} else {
		gl.GetShaderInfoLog(id, n, nil, &buf[0])
	}
	return strings.TrimRight(string(buf), "\x00\n ")
}

// linkProgram builds a sprite program whose shade function has the given
// body. vs is the compiled shared vertex shader.
func linkProgram(vs uint32, header, shade, what string) (program, error) {
	fs, err := compileShader(gl.FRAGMENT_SHADER, header+fragmentHead+shade+fragmentTail, what+" fragment shader")
	if err != nil {
		return program{}, err
	}
	id := gl.CreateProgram()
	gl.AttachShader(id, vs)
	gl.AttachShader(id, fs)
	gl.LinkProgram(id)
	gl.DetachShader(id, vs)
	gl.DetachShader(id, fs)
	gl.DeleteShader(fs)
	var ok int32
	gl.GetProgramiv(id, gl.LINK_STATUS, &ok)
	if ok == gl.FALSE {
		log := shaderLog(id, true)
		gl.DeleteProgram(id)
		return program{}, fmt.Errorf("linking %s: %s", what, log)
	}
	p := program{
		id:   id,
		view: gl.GetUniformLocation(id, gl.Str("u_view\x00")),
		tex:  gl.GetUniformLocation(id, gl.Str("u_tex\x00")),
		pass: gl.GetUniformLocation(id, gl.Str("u_pass\x00")),
	}
	gl.UseProgram(id)
	gl.Uniform1i(p.tex, 0)
	return p, nil
}
