//go:build js && wasm

package gl

import (
	"errors"
	"syscall/js"
	"unsafe"

	"github.com/metronome-go/metronome/internal/shadersrc"
)

// ShaderPrelude is the start of every shader: see shadersrc.ESPrelude.
const ShaderPrelude = shadersrc.ESPrelude

var (
	ctx     js.Value
	objects = []js.Value{js.Null()} // name 0 is "none"
	free    []uint32
	// uniforms are the locations GetUniformLocation handed out, by index;
	// -1 is "not found", as in GL.
	uniforms []js.Value
	scratch  js.Value // a Uint8Array reused for every copy
	scratchN int      // scratch's length, kept here: asking JavaScript costs a call
	f32      js.Value // a Float32Array over scratch's buffer
	unpackRL int32    // UNPACK_ROW_LENGTH, to size texture uploads
)

// Init binds the package to a WebGL2 rendering context (the value
// canvas.getContext("webgl2") returned). It forgets every object name a
// previous context had.
func Init(c js.Value) error {
	if c.IsUndefined() || c.IsNull() {
		return errors.New("gl: no WebGL2 context")
	}
	ctx = c
	objects, free, uniforms = objects[:1], nil, nil
	grow(1 << 16)
	return nil
}

func grow(n int) {
	if scratchN >= n {
		return
	}
	n = (n + 3) &^ 3
	scratch, scratchN = js.Global().Get("Uint8Array").New(n), n
	f32 = js.Global().Get("Float32Array").New(scratch.Get("buffer"))
}

// bytes copies size bytes at p into the scratch array and returns it.
func bytes(p unsafe.Pointer, size int) js.Value {
	grow(size)
	if size > 0 && p != nil {
		js.CopyBytesToJS(scratch, unsafe.Slice((*byte)(p), size))
	}
	return scratch
}

func add(v js.Value) uint32 {
	if n := len(free); n > 0 {
		id := free[n-1]
		free = free[:n-1]
		objects[id] = v
		return id
	}
	objects = append(objects, v)
	return uint32(len(objects) - 1)
}

func obj(id uint32) js.Value {
	if id == 0 || int(id) >= len(objects) {
		return js.Null()
	}
	return objects[id]
}

func remove(id uint32) js.Value {
	v := obj(id)
	if id != 0 && int(id) < len(objects) {
		objects[id] = js.Null()
		free = append(free, id)
	}
	return v
}

func gen(n int32, ids *uint32, create string) {
	s := unsafe.Slice(ids, n)
	for i := range s {
		s[i] = add(ctx.Call(create))
	}
}

func del(n int32, ids *uint32, method string) {
	s := unsafe.Slice(ids, n)
	for i := range s {
		if s[i] != 0 {
			ctx.Call(method, remove(s[i]))
		}
	}
}

func GetError() uint32 { return uint32(ctx.Call("getError").Int()) }

// GetIntegerv reads an integer parameter; VIEWPORT fills four values.
func GetIntegerv(pname uint32, data *int32) {
	v := ctx.Call("getParameter", pname)
	if pname == VIEWPORT {
		s := unsafe.Slice(data, 4)
		for i := range s {
			s[i] = int32(v.Index(i).Int())
		}
		return
	}
	*data = int32(v.Int())
}

func Enable(c uint32)                         { ctx.Call("enable", c) }
func Disable(c uint32)                        { ctx.Call("disable", c) }
func ActiveTexture(t uint32)                  { ctx.Call("activeTexture", t) }
func BlendFunc(s, d uint32)                   { ctx.Call("blendFunc", s, d) }
func BlendFuncSeparate(sc, dc, sa, da uint32) { ctx.Call("blendFuncSeparate", sc, dc, sa, da) }
func ClearColor(r, g, b, a float32)           { ctx.Call("clearColor", r, g, b, a) }
func Clear(mask uint32)                       { ctx.Call("clear", mask) }
func Viewport(x, y, w, h int32)               { ctx.Call("viewport", x, y, w, h) }
func Scissor(x, y, w, h int32)                { ctx.Call("scissor", x, y, w, h) }
func PixelStorei(p uint32, v int32)           { pixelStore(p, v) }
func ReadBuffer(b uint32)                     { ctx.Call("readBuffer", b) }
func DrawArraysInstanced(m uint32, first, count, n int32) {
	ctx.Call("drawArraysInstanced", m, first, count, n)
}

func pixelStore(p uint32, v int32) {
	if p == UNPACK_ROW_LENGTH {
		unpackRL = v
	}
	ctx.Call("pixelStorei", p, v)
}

func DrawElementsWithOffset(m uint32, count int32, typ uint32, offset uintptr) {
	ctx.Call("drawElements", m, count, typ, int(offset))
}

func GenBuffers(n int32, ids *uint32)         { gen(n, ids, "createBuffer") }
func DeleteBuffers(n int32, ids *uint32)      { del(n, ids, "deleteBuffer") }
func GenTextures(n int32, ids *uint32)        { gen(n, ids, "createTexture") }
func DeleteTextures(n int32, ids *uint32)     { del(n, ids, "deleteTexture") }
func GenFramebuffers(n int32, ids *uint32)    { gen(n, ids, "createFramebuffer") }
func DeleteFramebuffers(n int32, ids *uint32) { del(n, ids, "deleteFramebuffer") }
func GenVertexArrays(n int32, ids *uint32)    { gen(n, ids, "createVertexArray") }
func DeleteVertexArrays(n int32, ids *uint32) { del(n, ids, "deleteVertexArray") }
func BindBuffer(t, id uint32)                 { ctx.Call("bindBuffer", t, obj(id)) }
func BindTexture(t, id uint32)                { ctx.Call("bindTexture", t, obj(id)) }
func BindFramebuffer(t, id uint32)            { ctx.Call("bindFramebuffer", t, obj(id)) }
func BindVertexArray(id uint32)               { ctx.Call("bindVertexArray", obj(id)) }
func EnableVertexAttribArray(i uint32)        { ctx.Call("enableVertexAttribArray", i) }
func VertexAttribDivisor(i, d uint32)         { ctx.Call("vertexAttribDivisor", i, d) }
func CheckFramebufferStatus(t uint32) uint32 {
	return uint32(ctx.Call("checkFramebufferStatus", t).Int())
}
func TexParameteri(t, p uint32, v int32) { ctx.Call("texParameteri", t, p, v) }
func FramebufferTexture2D(t, a, tt, tex uint32, level int32) {
	ctx.Call("framebufferTexture2D", t, a, tt, obj(tex), level)
}

func VertexAttribPointerWithOffset(i uint32, size int32, typ uint32, norm bool, stride int32, off uintptr) {
	ctx.Call("vertexAttribPointer", i, size, typ, norm, stride, int(off))
}

func VertexAttribIPointerWithOffset(i uint32, size int32, typ uint32, stride int32, off uintptr) {
	ctx.Call("vertexAttribIPointer", i, size, typ, stride, int(off))
}

// BufferData allocates size bytes; data must be nil (the renderer fills
// buffers with BufferSubData).
func BufferData(t uint32, size int, data unsafe.Pointer, usage uint32) {
	ctx.Call("bufferData", t, size, usage)
	if data != nil {
		BufferSubData(t, 0, size, data)
	}
}

func BufferSubData(t uint32, offset, size int, data unsafe.Pointer) {
	ctx.Call("bufferSubData", t, offset, bytes(data, size), 0, size)
}

// texBytes is the size of a w x h RGBA8 upload under the unpack row length.
func texBytes(w, h int32) int {
	if w <= 0 || h <= 0 {
		return 0
	}
	row := w
	if unpackRL > 0 {
		row = unpackRL
	}
	return int(row*(h-1)+w) * 4
}

func TexImage2D(t uint32, level, internal, w, h, border int32, format, typ uint32, pix unsafe.Pointer) {
	if pix == nil {
		ctx.Call("texImage2D", t, level, internal, w, h, border, format, typ, js.Null())
		return
	}
	n := texBytes(w, h)
	ctx.Call("texImage2D", t, level, internal, w, h, border, format, typ, bytes(pix, n), 0)
}

func TexSubImage2D(t uint32, level, x, y, w, h int32, format, typ uint32, pix unsafe.Pointer) {
	n := texBytes(w, h)
	ctx.Call("texSubImage2D", t, level, x, y, w, h, format, typ, bytes(pix, n), 0)
}

// ReadPixels reads w x h RGBA8 pixels into pix (tightly packed).
func ReadPixels(x, y, w, h int32, format, typ uint32, pix unsafe.Pointer) {
	n := int(w * h * 4)
	grow(n)
	ctx.Call("readPixels", x, y, w, h, format, typ, scratch, 0)
	js.CopyBytesToGo(unsafe.Slice((*byte)(pix), n), scratch.Call("subarray", 0, n))
}

// Shaders and programs.

func CreateShader(kind uint32) uint32 { return add(ctx.Call("createShader", kind)) }
func DeleteShader(id uint32) {
	if id != 0 {
		ctx.Call("deleteShader", remove(id))
	}
}
func CreateProgram() uint32 { return add(ctx.Call("createProgram")) }
func DeleteProgram(id uint32) {
	if id != 0 {
		ctx.Call("deleteProgram", remove(id))
	}
}
func ShaderSource(id uint32, src string) { ctx.Call("shaderSource", obj(id), src) }
func CompileShader(id uint32)            { ctx.Call("compileShader", obj(id)) }
func AttachShader(p, s uint32)           { ctx.Call("attachShader", obj(p), obj(s)) }
func DetachShader(p, s uint32)           { ctx.Call("detachShader", obj(p), obj(s)) }
func LinkProgram(p uint32)               { ctx.Call("linkProgram", obj(p)) }
func UseProgram(p uint32)                { ctx.Call("useProgram", obj(p)) }
func shaderOK(id uint32) bool            { return ctx.Call("getShaderParameter", obj(id), COMPILE_STATUS).Bool() }
func programOK(id uint32) bool           { return ctx.Call("getProgramParameter", obj(id), LINK_STATUS).Bool() }
func shaderLog(id uint32) string         { return ctx.Call("getShaderInfoLog", obj(id)).String() }
func programLog(id uint32) string        { return ctx.Call("getProgramInfoLog", obj(id)).String() }

// GetUniformLocation returns the location of name in program p, -1 when
// the program has no such active uniform.
func GetUniformLocation(p uint32, name string) int32 {
	v := ctx.Call("getUniformLocation", obj(p), name)
	if v.IsNull() {
		return -1
	}
	uniforms = append(uniforms, v)
	return int32(len(uniforms) - 1)
}

func uniform(loc int32) js.Value {
	if loc < 0 || int(loc) >= len(uniforms) {
		return js.Null()
	}
	return uniforms[loc]
}

func Uniform1i(loc, v int32)         { ctx.Call("uniform1i", uniform(loc), v) }
func Uniform1f(loc int32, v float32) { ctx.Call("uniform1f", uniform(loc), v) }

// Uniform4fv sets count vec4 values from v.
func Uniform4fv(loc int32, count int32, v *float32) {
	floats(v, int(count)*4)
	ctx.Call("uniform4fv", uniform(loc), f32, 0, count*4)
}

// UniformMatrix4fv sets count 4x4 matrices from v.
func UniformMatrix4fv(loc int32, count int32, transpose bool, v *float32) {
	floats(v, int(count)*16)
	ctx.Call("uniformMatrix4fv", uniform(loc), transpose, f32, 0, count*16)
}

func floats(v *float32, n int) {
	bytes(unsafe.Pointer(v), n*4)
}

// RendererName is the device's name: the unmasked renderer of the
// WEBGL_debug_renderer_info extension where the browser offers it (in
// Chromium it names the backend, such as "ANGLE (Google, Vulkan 1.3.0
// (SwiftShader Device (Subzero) ...), SwiftShader driver)"), otherwise
// RENDERER, which browsers may mask. It is for choosing a draw path.
func RendererName() string {
	const unmaskedRenderer = 0x9246 // UNMASKED_RENDERER_WEBGL
	if ext := ctx.Call("getExtension", "WEBGL_debug_renderer_info"); !ext.IsNull() && !ext.IsUndefined() {
		if v := ctx.Call("getParameter", unmaskedRenderer); v.Type() == js.TypeString {
			return v.String()
		}
	}
	if v := ctx.Call("getParameter", RENDERER); v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}
