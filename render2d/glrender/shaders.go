package glrender

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/metronome-go/metronome/render2d"
)

// The vertex shader reads a DrawPacket2D directly: the per-instance buffer
// holds packets exactly as the frame stores them, and attribute pointers
// pick the fields out with the packet's size as stride. The quad's corners
// come from gl_VertexID, so there is no vertex buffer at all.
const vertexSource = `#version 410 core
layout(location = 0) in vec4 a_src;          // Source rect, texels
layout(location = 1) in vec3 a_posrot;       // Position.xy, Rotation
layout(location = 2) in vec4 a_scaleorigin;  // Scale.xy, Origin.xy
layout(location = 3) in vec2 a_size;         // Size
layout(location = 4) in vec4 a_tint;         // straight RGBA
layout(location = 5) in vec4 a_params;       // material parameters

uniform mat4 u_view;     // world to clip
uniform vec2 u_texsize;  // texture size in texels

out vec2 v_uv;
out vec4 v_tint;
out vec4 v_params;

void main() {
	vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
	vec2 local = (corner * a_size - a_scaleorigin.zw) * a_scaleorigin.xy;
	vec2 world = a_posrot.xy;
	if (a_posrot.z == 0.0) {
		world += local;
	} else {
		float c = cos(a_posrot.z);
		float s = sin(a_posrot.z);
		world += vec2(local.x * c - local.y * s, local.x * s + local.y * c);
	}
	gl_Position = u_view * vec4(world, 0.0, 1.0);
	vec4 src = (a_src.z == 0.0 && a_src.w == 0.0) ? vec4(0.0, 0.0, u_texsize) : a_src;
	v_uv = (src.xy + corner * src.zw) / u_texsize;
	v_tint = a_tint;
	v_params = a_params;
}
`

const fragmentHead = `#version 410 core
in vec2 v_uv;
in vec4 v_tint;
in vec4 v_params;
uniform sampler2D u_tex;
uniform vec4 u_pass[2];
out vec4 o_color;

vec4 shade(sampler2D tex, vec2 uv, vec4 texel, vec4 tint, vec4 params, vec4 pass0, vec4 pass1) {
`

const fragmentTail = `
}

void main() {
	o_color = shade(u_tex, v_uv, texture(u_tex, v_uv), v_tint, v_params, u_pass[0], u_pass[1]);
}
`

const builtinShade = `return texel * vec4(tint.rgb * tint.a, tint.a);`

// Attribute layout of one instance: the DrawPacket2D fields each attribute
// reads. Offsets come from the Go struct itself, so a change of field
// order cannot silently desynchronise the shader.
var (
	packetStride = int32(unsafe.Sizeof(render2d.DrawPacket2D{}))
	attribs      = [...]struct {
		size   int32
		offset uintptr
	}{
		{4, unsafe.Offsetof(render2d.DrawPacket2D{}.Source)},
		{3, unsafe.Offsetof(render2d.DrawPacket2D{}.Transform) + unsafe.Offsetof(render2d.Transform{}.Position)},
		{4, unsafe.Offsetof(render2d.DrawPacket2D{}.Transform) + unsafe.Offsetof(render2d.Transform{}.Scale)},
		{2, unsafe.Offsetof(render2d.DrawPacket2D{}.Size)},
		{4, unsafe.Offsetof(render2d.DrawPacket2D{}.Tint)},
		{4, unsafe.Offsetof(render2d.DrawPacket2D{}.Params)},
	}
)

func init() {
	// The shader reads Position, Rotation as one vec3 and Scale, Origin as
	// one vec4; check the struct still lays them out contiguously.
	tr := unsafe.Offsetof(render2d.DrawPacket2D{}.Transform)
	if unsafe.Offsetof(render2d.Transform{}.Rotation) != unsafe.Offsetof(render2d.Transform{}.Position)+8 ||
		unsafe.Offsetof(render2d.Transform{}.Origin) != unsafe.Offsetof(render2d.Transform{}.Scale)+8 || tr%4 != 0 {
		panic("glrender: DrawPacket2D layout no longer matches the vertex shader")
	}
}

// program is a linked sprite program and its uniform locations.
type program struct {
	id      uint32
	view    int32
	texsize int32
	tex     int32
	pass    int32
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
func linkProgram(vs uint32, shade, what string) (program, error) {
	fs, err := compileShader(gl.FRAGMENT_SHADER, fragmentHead+shade+fragmentTail, what+" fragment shader")
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
		id:      id,
		view:    gl.GetUniformLocation(id, gl.Str("u_view\x00")),
		texsize: gl.GetUniformLocation(id, gl.Str("u_texsize\x00")),
		tex:     gl.GetUniformLocation(id, gl.Str("u_tex\x00")),
		pass:    gl.GetUniformLocation(id, gl.Str("u_pass\x00")),
	}
	gl.UseProgram(id)
	gl.Uniform1i(p.tex, 0)
	return p, nil
}
