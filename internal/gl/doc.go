// Package gl is the OpenGL surface the project's renderer draws with: the
// subset of OpenGL 4.1 core and WebGL2 that render2d/glrender calls, with
// the same function names and Go signatures on both targets, so the
// renderer is written once and the target is chosen by build constraint.
//
//   - gl_desktop.go (every GOOS but js) delegates each function to
//     github.com/go-gl/gl/v4.1-core/gl, the cgo binding. The functions are
//     one-line wrappers, and the compiler inlines all that a frame calls
//     often, so the desktop renderer makes the calls it made to go-gl
//     directly; the few it does not inline (VertexAttribPointerWithOffset,
//     a few times a batch; the texture uploads and read-back;
//     GetUniformLocation at setup) add one plain Go call in front of the
//     cgo call. No interface stands between the renderer and GL.
//   - gl_js.go (GOOS=js GOARCH=wasm) calls a WebGL2 context through
//     syscall/js. Object names are uint32, as in GL (a table maps them to
//     the context's WebGL objects), and data behind an unsafe.Pointer is
//     copied into one reused JavaScript byte array before the call that
//     reads it. It links no cgo.
//
// The signatures are go-gl's, except where go-gl takes C strings: a
// shader's source and a uniform's name are Go strings here. [Init] differs
// per target (it takes the WebGL2 context on js), and so does
// [ShaderPrelude], the lines every shader starts with: the version line,
// and on WebGL2 default precisions and the packUnorm4x8/unpackUnorm4x8
// that GLSL ES 3.00 lacks. The enums are the OpenGL headers' values, which
// WebGL2 shares, stated once in consts.go. [Compile] and [Link] build
// shader programs on either target, turning a failure into an error with
// the driver's log.
//
// Programs that draw with go-gl of their own (cmd/bunnymark's plain loop)
// may mix its calls with these: on the desktop they reach the same loaded
// entry points.
//
// Every function must be called on the thread where the context is
// current (on js: the goroutine that runs the platform; wasm has one
// thread).
package gl
