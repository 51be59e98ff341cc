// Package shadersrc is the source of render2d/glrender's shaders, kept apart
// from the renderer so that a program that links no GL can read it:
// cmd/webgame writes the built-in programs ([Builtins]) into its page,
// which compiles and links them while the module downloads. A browser
// keeps the programs it has linked by their source, for every WebGL
// context of the page, so the renderer's own compile of the same source
// finds them ready. Pure Go: no cgo, no build tags.
package shadersrc

// ESPrelude is the start of every shader in a browser (WebGL2): GLSL ES
// 3.00 with high precision by default, and the packUnorm4x8 and
// unpackUnorm4x8 of GLSL 4.10 (ES has them only from 3.10), with the
// same rounding, so that shader bodies are the desktop's.
const ESPrelude = `#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;
vec4 unpack4x8(uint v) {
	return vec4(float(v & 255u), float((v >> 8) & 255u), float((v >> 16) & 255u), float(v >> 24)) / 255.0;
}
uint pack4x8(vec4 c) {
	uvec4 u = uvec4(round(clamp(c, 0.0, 1.0) * 255.0));
	return u.x | (u.y << 8) | (u.z << 16) | (u.w << 24);
}
#define unpackUnorm4x8 unpack4x8
#define packUnorm4x8 pack4x8
`

// DesktopPrelude is the first line of every shader on the desktop: GLSL
// 4.10 core.
const DesktopPrelude = "#version 410 core\n"

// Shader variants. The built-in material needs no parameters, and a batch
// whose packets are all tinted opaque white needs no tint: leaving them out
// saves varyings and per-fragment work that a software rasteriser such as
// llvmpipe pays for on every sprite (measured: about 20% per sprite for the
// tint alone). Custom materials always get both. Each comes plain,
// sliding and turning (see spriteVertex).
type Kind int

// The kinds of sprite shader.
const (
	Plain  Kind = iota // no tint, no parameters
	Tint               // the built-in material's
	Params             // a custom material's: tint and parameters
	NumKinds
)

// Motion is a sprite program's motion variant (see spriteVertex).
type Motion int

// The motion variants.
const (
	Still Motion = iota // no previous placement, or drawn at alpha 1
	Slide               // previous position only
	Turn                // whole previous placement
	NumMotions
)

var kindDefines = [NumKinds]string{"", "#define TINT 1\n", "#define TINT 1\n#define PARAMS 1\n"}

var motionDefines = [NumMotions]string{"", "#define SLIDE 1\n", "#define TURN 1\n"}

// Has reports whether kind k has motion variant m: a custom material does
// not slide, since a slide's previous position takes the parameter slot.
func (k Kind) Has(m Motion) bool { return !(k == Params && m == Slide) }

// SpriteVertex is the vertex shader of sprites of kind k in motion m,
// after prelude.
func SpriteVertex(prelude string, k Kind, m Motion) string {
	return prelude + kindDefines[k] + motionDefines[m] + spriteVertex
}

// SpriteFragment is the fragment shader of sprites of kind k whose shade
// function has the given body, after prelude.
func SpriteFragment(prelude string, k Kind, shade string) string {
	return prelude + kindDefines[k] + fragmentHead + shade + fragmentTail
}

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
const spriteVertex = `
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

// The shade bodies of the built-in materials: tinted, and untinted (a
// batch whose packets are all opaque white).
const (
	BuiltinShade  = `return texel * vec4(tint.rgb * tint.a, tint.a);`
	UntintedShade = `return texel;`
)

// The shape program ([render2d.DrawPacket2D.Mesh] in glrender): the
// renderer places and antialiases the vertices on the CPU, and the
// fragment shader covers each fragment by its distance inside the edge
// (and a disc's by its distance from the centre).

// ShapeVertex is the shape program's vertex shader, after prelude.
func ShapeVertex(prelude string) string { return prelude + shapeVertex }

// ShapeFragment is the shape program's fragment shader, after prelude.
func ShapeFragment(prelude string) string { return prelude + shapeFragment }

const shapeVertex = `layout(location = 0) in vec3 a_pos;   // world position, distance inside the edge in pixels
layout(location = 1) in vec4 a_color; // premultiplied, coverage applied
layout(location = 2) in vec3 a_disc;  // position from a disc's centre in radii, the radius in pixels (0: no disc)
uniform mat4 u_view;
out vec4 v_color;
out float v_edge;
out vec3 v_disc;
void main() {
	gl_Position = u_view * vec4(a_pos.xy, 0.0, 1.0);
	v_color = a_color;
	v_edge = a_pos.z;
	v_disc = a_disc;
}
`

const shapeFragment = `in vec4 v_color;
in float v_edge;
in vec3 v_disc;
out vec4 o_color;
void main() {
	float c = clamp(v_edge + 0.5, 0.0, 1.0);
	if (v_disc.z > 0.0) {
		c *= clamp((1.0 - length(v_disc.xy)) * v_disc.z + 0.5, 0.0, 1.0);
	}
	o_color = v_color * c;
}
`

// Program is the source of one program: its vertex and fragment shaders.
type Program struct {
	Vertex   string `json:"vertex"`
	Fragment string `json:"fragment"`
}

// BuiltinMaterials are the renderer's built-in sprite materials, in the
// order it links them: the tinted one and the untinted one.
var BuiltinMaterials = [...]struct {
	Kind  Kind
	Shade string
}{{Tint, BuiltinShade}, {Plain, UntintedShade}}

// Builtins are the programs every renderer links at its start, each
// shader after prelude: every motion variant of each built-in material,
// then the shape program.
func Builtins(prelude string) []Program {
	var ps []Program
	for _, mat := range BuiltinMaterials {
		for m := range NumMotions {
			if mat.Kind.Has(m) {
				ps = append(ps, Program{SpriteVertex(prelude, mat.Kind, m), SpriteFragment(prelude, mat.Kind, mat.Shade)})
			}
		}
	}
	return append(ps, Program{ShapeVertex(prelude), ShapeFragment(prelude)})
}
