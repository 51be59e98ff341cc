package glrender

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/metronome-go/metronome/internal/gl"
)

// DrawPath is how the renderer draws sprites. Both paths run the same
// shaders on the same per-sprite data, so they draw the same pictures,
// interpolation, layers and blending included; they differ in what the
// driver is asked to do.
type DrawPath uint8

const (
	// DrawInstanced draws each batch with one instanced draw: one
	// instance per sprite, the quad's corners from gl_VertexID. It
	// streams the least and wins on GPUs and on Mesa's llvmpipe.
	DrawInstanced DrawPath = iota
	// DrawBatched draws each batch with one indexed draw of quads
	// expanded on the CPU: each sprite's data is written once per
	// corner, and a static index buffer makes two triangles of every
	// four vertices. Chrome's software WebGL (SwiftShader) pays about
	// 21 µs for each instance of an instanced draw and several times
	// less for the same quads drawn this way.
	DrawBatched
	numDrawPaths
)

var drawPathNames = [numDrawPaths]string{"instanced", "batched"}

// String returns "instanced" or "batched", the name the timing report
// uses.
func (p DrawPath) String() string {
	if p < numDrawPaths {
		return drawPathNames[p]
	}
	return fmt.Sprintf("DrawPath(%d)", uint8(p))
}

// ChooseDrawPath returns the draw path for a device by its name, as GL
// (GL_RENDERER) or the browser (WebGL's unmasked renderer) gives it:
// batched for SwiftShader, instanced for everything else, llvmpipe
// included. [New] chooses so.
func ChooseDrawPath(renderer string) DrawPath {
	if strings.Contains(strings.ToLower(renderer), "swiftshader") {
		return DrawBatched
	}
	return DrawInstanced
}

// DrawPath returns the draw path in use: [New] chooses it from the
// device's name ([ChooseDrawPath]).
func (r *Renderer) DrawPath() DrawPath { return r.path }

// Device returns the device's name as the driver gives it, from which
// [New] chose the draw path.
func (r *Renderer) Device() string { return r.device }

// SetDrawPath makes the renderer draw by path p from the next frame on,
// overriding New's choice (for measurements and for devices the choice
// gets wrong). Call it before [Renderer.WarmUp], whose draws warm the path
// in use. An unknown path is an error and changes nothing.
func (r *Renderer) SetDrawPath(p DrawPath) error {
	if p >= numDrawPaths {
		return fmt.Errorf("glrender: SetDrawPath: unknown draw path %d, want DrawInstanced or DrawBatched", uint8(p))
	}
	r.path = p
	return nil
}

// vaoBatched is curVAO when batched vertex array v is bound: vaoBatched+v.
const vaoBatched = 3

// quadIndices is the static index buffer of the batched path: two
// triangles for every four vertices, in the corner order of the
// instanced triangle strip (corner = index & 3).
type quadIndices struct {
	id    uint32
	quads int // quads it covers
}

// ensureQuads makes the index buffer cover n quads, growing it (to twice
// what it was, at least) when it is too small. It binds batched vertex
// array 0, whose state the element buffer binding is, and allocates only
// when it grows.
func (r *Renderer) ensureQuads(n int) {
	if n <= r.quads.quads {
		return
	}
	q := max(n, 2*r.quads.quads, 1024)
	idx := make([]uint32, 6*q)
	for i := range q {
		v, d := uint32(4*i), idx[6*i:6*i+6:6*i+6]
		d[0], d[1], d[2], d[3], d[4], d[5] = v, v+1, v+2, v+2, v+1, v+3
	}
	gl.BindVertexArray(r.bvao[0])
	r.curVAO = vaoBatched
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, r.quads.id)
	gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, len(idx)*4, unsafe.Pointer(&idx[0]), gl.STATIC_DRAW)
	r.quads.quads = q
}

// expand writes each element of src four times into dst (grown to fit),
// once per corner of its quad, and returns it.
func expand[T any](dst, src []T) []T {
	dst = grow(dst, 4*len(src))
	for i := range src {
		d := dst[4*i : 4*i+4 : 4*i+4]
		d[0], d[1], d[2], d[3] = src[i], src[i], src[i], src[i]
	}
	return dst
}
