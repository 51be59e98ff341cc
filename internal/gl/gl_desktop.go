//go:build !js

package gl

import (
	"strings"
	"unsafe"

	gogl "github.com/go-gl/gl/v4.1-core/gl"
	"github.com/metronome-go/metronome/internal/shadersrc"
)

// ShaderPrelude is the first line of every shader: see
// shadersrc.DesktopPrelude.
const ShaderPrelude = shadersrc.DesktopPrelude

// Init loads the OpenGL entry points of the context current on the
// calling thread.
func Init() error { return gogl.Init() }

func GetError() uint32                        { return gogl.GetError() }
func GetIntegerv(pname uint32, data *int32)   { gogl.GetIntegerv(pname, data) }
func Enable(c uint32)                         { gogl.Enable(c) }
func Disable(c uint32)                        { gogl.Disable(c) }
func ActiveTexture(t uint32)                  { gogl.ActiveTexture(t) }
func BlendFunc(s, d uint32)                   { gogl.BlendFunc(s, d) }
func BlendFuncSeparate(sc, dc, sa, da uint32) { gogl.BlendFuncSeparate(sc, dc, sa, da) }
func ClearColor(r, g, b, a float32)           { gogl.ClearColor(r, g, b, a) }
func Clear(mask uint32)                       { gogl.Clear(mask) }
func Viewport(x, y, w, h int32)               { gogl.Viewport(x, y, w, h) }
func Scissor(x, y, w, h int32)                { gogl.Scissor(x, y, w, h) }
func PixelStorei(p uint32, v int32)           { gogl.PixelStorei(p, v) }
func ReadBuffer(b uint32)                     { gogl.ReadBuffer(b) }
func DrawArraysInstanced(m uint32, first, count, n int32) {
	gogl.DrawArraysInstanced(m, first, count, n)
}
func DrawElementsWithOffset(m uint32, count int32, typ uint32, offset uintptr) {
	gogl.DrawElementsWithOffset(m, count, typ, offset)
}

func GenBuffers(n int32, ids *uint32)         { gogl.GenBuffers(n, ids) }
func DeleteBuffers(n int32, ids *uint32)      { gogl.DeleteBuffers(n, ids) }
func GenTextures(n int32, ids *uint32)        { gogl.GenTextures(n, ids) }
func DeleteTextures(n int32, ids *uint32)     { gogl.DeleteTextures(n, ids) }
func GenFramebuffers(n int32, ids *uint32)    { gogl.GenFramebuffers(n, ids) }
func DeleteFramebuffers(n int32, ids *uint32) { gogl.DeleteFramebuffers(n, ids) }
func GenVertexArrays(n int32, ids *uint32)    { gogl.GenVertexArrays(n, ids) }
func DeleteVertexArrays(n int32, ids *uint32) { gogl.DeleteVertexArrays(n, ids) }
func BindBuffer(t, id uint32)                 { gogl.BindBuffer(t, id) }
func BindTexture(t, id uint32)                { gogl.BindTexture(t, id) }
func BindFramebuffer(t, id uint32)            { gogl.BindFramebuffer(t, id) }
func BindVertexArray(id uint32)               { gogl.BindVertexArray(id) }
func EnableVertexAttribArray(i uint32)        { gogl.EnableVertexAttribArray(i) }
func VertexAttribDivisor(i, d uint32)         { gogl.VertexAttribDivisor(i, d) }
func CheckFramebufferStatus(t uint32) uint32  { return gogl.CheckFramebufferStatus(t) }
func TexParameteri(t, p uint32, v int32)      { gogl.TexParameteri(t, p, v) }
func FramebufferTexture2D(t, a, tt, tex uint32, level int32) {
	gogl.FramebufferTexture2D(t, a, tt, tex, level)
}

func VertexAttribPointerWithOffset(i uint32, size int32, typ uint32, norm bool, stride int32, off uintptr) {
	gogl.VertexAttribPointerWithOffset(i, size, typ, norm, stride, off)
}

func VertexAttribIPointerWithOffset(i uint32, size int32, typ uint32, stride int32, off uintptr) {
	gogl.VertexAttribIPointerWithOffset(i, size, typ, stride, off)
}

func BufferData(t uint32, size int, data unsafe.Pointer, usage uint32) {
	gogl.BufferData(t, size, data, usage)
}

func BufferSubData(t uint32, offset, size int, data unsafe.Pointer) {
	gogl.BufferSubData(t, offset, size, data)
}

func TexImage2D(t uint32, level, internal, w, h, border int32, format, typ uint32, pix unsafe.Pointer) {
	gogl.TexImage2D(t, level, internal, w, h, border, format, typ, pix)
}

func TexSubImage2D(t uint32, level, x, y, w, h int32, format, typ uint32, pix unsafe.Pointer) {
	gogl.TexSubImage2D(t, level, x, y, w, h, format, typ, pix)
}

func ReadPixels(x, y, w, h int32, format, typ uint32, pix unsafe.Pointer) {
	gogl.ReadPixels(x, y, w, h, format, typ, pix)
}

// Shaders and programs.

func CreateShader(kind uint32) uint32 { return gogl.CreateShader(kind) }
func DeleteShader(id uint32)          { gogl.DeleteShader(id) }
func CreateProgram() uint32           { return gogl.CreateProgram() }
func DeleteProgram(id uint32)         { gogl.DeleteProgram(id) }
func CompileShader(id uint32)         { gogl.CompileShader(id) }
func AttachShader(p, s uint32)        { gogl.AttachShader(p, s) }
func DetachShader(p, s uint32)        { gogl.DetachShader(p, s) }
func LinkProgram(p uint32)            { gogl.LinkProgram(p) }
func UseProgram(p uint32)             { gogl.UseProgram(p) }

// ShaderSource sets the source of shader id to src.
func ShaderSource(id uint32, src string) {
	cs, free := gogl.Strs(src + "\x00")
	gogl.ShaderSource(id, 1, cs, nil)
	free()
}

// GetUniformLocation returns the location of name in program p, -1 when
// the program has no such active uniform.
func GetUniformLocation(p uint32, name string) int32 {
	return gogl.GetUniformLocation(p, gogl.Str(name+"\x00"))
}

func Uniform1i(loc, v int32)         { gogl.Uniform1i(loc, v) }
func Uniform1f(loc int32, v float32) { gogl.Uniform1f(loc, v) }

// Uniform4fv sets count vec4 values from v.
func Uniform4fv(loc int32, count int32, v *float32) { gogl.Uniform4fv(loc, count, v) }

// UniformMatrix4fv sets count 4x4 matrices from v.
func UniformMatrix4fv(loc int32, count int32, transpose bool, v *float32) {
	gogl.UniformMatrix4fv(loc, count, transpose, v)
}

func shaderOK(id uint32) bool {
	var ok int32
	gogl.GetShaderiv(id, gogl.COMPILE_STATUS, &ok)
	return ok != FALSE
}

func programOK(id uint32) bool {
	var ok int32
	gogl.GetProgramiv(id, gogl.LINK_STATUS, &ok)
	return ok != FALSE
}

func shaderLog(id uint32) string {
	var n int32
	gogl.GetShaderiv(id, gogl.INFO_LOG_LENGTH, &n)
	return infoLog(n, func(buf *uint8) { gogl.GetShaderInfoLog(id, n, nil, buf) })
}

func programLog(id uint32) string {
	var n int32
	gogl.GetProgramiv(id, gogl.INFO_LOG_LENGTH, &n)
	return infoLog(n, func(buf *uint8) { gogl.GetProgramInfoLog(id, n, nil, buf) })
}

// infoLog reads a log of n bytes through read.
func infoLog(n int32, read func(*uint8)) string {
	if n <= 0 {
		return ""
	}
	buf := make([]byte, n)
	read(&buf[0])
	return strings.TrimRight(string(buf), "\x00\n ")
}

// RendererName is GL_RENDERER, the driver's name for the device (such as
// "llvmpipe (LLVM 15.0.7, 256 bits)"), for choosing a draw path.
func RendererName() string { return gogl.GoStr(gogl.GetString(RENDERER)) }
