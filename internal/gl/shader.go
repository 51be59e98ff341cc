package gl

import "fmt"

// Compile compiles src as a shader of the given kind ([VERTEX_SHADER],
// [FRAGMENT_SHADER]) and returns its name. On failure it deletes the
// shader and returns an error reading "compiling <what>: <driver log>".
func Compile(kind uint32, src, what string) (uint32, error) {
	sh := CreateShader(kind)
	ShaderSource(sh, src)
	CompileShader(sh)
	if !shaderOK(sh) {
		log := logText(shaderLog(sh))
		DeleteShader(sh)
		return 0, fmt.Errorf("compiling %s: %s", what, log)
	}
	return sh, nil
}

// Link links the compiled shaders vs and fs into a program and returns its
// name; the shaders are detached again, so the caller may delete them. On
// failure it deletes the program and returns an error reading "linking
// <what>: <driver log>".
func Link(vs, fs uint32, what string) (uint32, error) {
	id := CreateProgram()
	AttachShader(id, vs)
	AttachShader(id, fs)
	LinkProgram(id)
	DetachShader(id, vs)
	DetachShader(id, fs)
	if !programOK(id) {
		log := logText(programLog(id))
		DeleteProgram(id)
		return 0, fmt.Errorf("linking %s: %s", what, log)
	}
	return id, nil
}

func logText(s string) string {
	if s == "" {
		return "(no log)"
	}
	return s
}
