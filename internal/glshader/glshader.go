// Package glshader compiles and links OpenGL shader programs, turning a
// failure into an error that carries the driver's log. It is the one copy
// shared by the renderer (render2d/glrender) and the programs that draw
// with GL of their own (cmd/bunnymark's plain loop).
//
// Every function must run on the thread that owns the current GL context.
package glshader

import (
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// Compile compiles src as a shader of the given kind (gl.VERTEX_SHADER,
// gl.FRAGMENT_SHADER) and returns its id. On failure it deletes the shader
// and returns an error reading "compiling <what>: <driver log>".
func Compile(kind uint32, src, what string) (uint32, error) {
	sh := gl.CreateShader(kind)
	cs, free := gl.Strs(src + "\x00")
	gl.ShaderSource(sh, 1, cs, nil)
	free()
	gl.CompileShader(sh)
	var ok int32
	gl.GetShaderiv(sh, gl.COMPILE_STATUS, &ok)
	if ok == gl.FALSE {
		log := infoLog(sh, false)
		gl.DeleteShader(sh)
		return 0, fmt.Errorf("compiling %s: %s", what, log)
	}
	return sh, nil
}

// Link links the compiled shaders vs and fs into a program and returns its
// id; the shaders are detached again, so the caller may delete them. On
// failure it deletes the program and returns an error reading "linking
// <what>: <driver log>".
func Link(vs, fs uint32, what string) (uint32, error) {
	id := gl.CreateProgram()
	gl.AttachShader(id, vs)
	gl.AttachShader(id, fs)
	gl.LinkProgram(id)
	gl.DetachShader(id, vs)
	gl.DetachShader(id, fs)
	var ok int32
	gl.GetProgramiv(id, gl.LINK_STATUS, &ok)
	if ok == gl.FALSE {
		log := infoLog(id, true)
		gl.DeleteProgram(id)
		return 0, fmt.Errorf("linking %s: %s", what, log)
	}
	return id, nil
}

// infoLog returns the driver's log for a shader or a program.
func infoLog(id uint32, isProgram bool) string {
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
