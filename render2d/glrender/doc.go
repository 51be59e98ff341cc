// Package glrender is the OpenGL implementation of [render2d.Renderer]:
// OpenGL 4.1 core on the desktop, WebGL2 in a web page (GOOS=js
// GOARCH=wasm).
//
// # Targets
//
// One renderer serves both: every line that draws is shared, written
// against internal/gl, a package with the same functions on both targets
// chosen by build constraint (go-gl's cgo binding on the desktop, the
// canvas's WebGL2 context through syscall/js in a browser). The shaders
// are written once too; each starts with the target's prelude (the
// version line, and for GLSL ES 3.00 default precisions and the two
// packing functions it lacks). Only getting a context differs, so only
// [New] does, in a pair of files: on the desktop New() takes the context
// current on the calling thread and checks for 4.1 or later; in a browser
// New(canvas) asks the canvas element for a WebGL2 context, and a browser
// without one gets ErrNoWebGL2. Package functions, not an interface, carry
// the calls: on the desktop they are one-line wrappers over go-gl that the
// compiler inlines (all but a few, which add one plain Go call in front
// of the cgo call), so the renderer costs what it cost calling go-gl
// directly. In a browser every call crosses
// syscall/js, which boxes its arguments, so a frame there allocates a
// little (per batch, never per sprite); on the desktop it allocates
// nothing.
//
// # Threading
//
// Create the renderer with [New] on the graphics thread after the
// platform has made a 4.1 core context current (in a browser: on the
// goroutine that runs the platform), and call every method there. The
// renderer draws; the platform presents (glfw SwapBuffers, or returning
// to the browser's event loop) and owns the context.
//
// # Drawing
//
// Each pass binds its target (the default framebuffer or an offscreen
// target's framebuffer object), sets the viewport from the camera, and
// clears if asked. Its packets are converted into compact 64-byte instances
// (scale folded into extent and origin, source rectangle normalised, tint
// packed to RGBA8) and uploaded with one glBufferSubData into the next of a
// small ring of streamed instance buffers, so no upload waits for a draw
// still reading the previous one. The quad's corners come from
// gl_VertexID. Consecutive packets sharing texture, material and blend
// mode are one glDrawArraysInstanced call, so the number of GL calls grows
// with batches, never with sprites, and a frame allocates nothing in steady
// state. Batches whose packets are all tinted opaque white use a shader
// variant without the tint.
//
// # Draw paths
//
// Chrome's software WebGL, SwiftShader (what a page gets where the GPU is
// blocklisted or absent, and in headless chromium), pays about 21 µs for
// every instance of an instanced draw, several times what it pays for the
// same quads as plain indexed triangles. So the renderer has a second
// path, [DrawBatched]: each instance is written once per corner into a
// reused scratch slice, and each batch is one glDrawElements over a
// static index buffer of two triangles per quad. The shaders are the
// same (a vertex's corner is the low two bits of gl_VertexID on both), so
// both paths draw the same pictures, interpolation, layers and blending
// included; the conformance suite and the golden images run on both.
// [New] chooses by the device's name ([ChooseDrawPath]): batched for
// SwiftShader, instanced elsewhere, llvmpipe included: there the two are
// within a few percent of each other (BenchmarkDrawPaths draws the same
// frames both ways, alternating) and instancing streams a quarter as
// much. [Renderer.DrawPath] says
// which is in use, and [Renderer.SetDrawPath] overrides the choice.
//
// # Interpolation
//
// Interpolation runs in the vertex shader. Batches with previous
// placements ([render2d.DrawPacket2D.Prev]) are drawn with an
// interpolating variant of the shaders, which mixes the two placements by
// one uniform, the frame's [render2d.Presentation.Alpha], with the
// arithmetic of [render2d.Lerp] and [render2d.LerpAngle]. A batch of the
// built-in material whose packets only change position uses the sliding
// variant: the previous position travels in the instance's parameter
// slot, which that material does not otherwise read, so it streams no
// byte more than a still batch. Where rotation, scale or tint change too
// (or a custom material needs its parameters) the turning variant also
// streams the whole previous placement, 32 bytes a sprite, from a ring of
// buffers of its own. So drawing the
// same frame again at another alpha costs no more CPU per sprite than
// drawing it once, and frames without previous placements (or drawn at
// alpha 1) stream and draw exactly what they did before. The camera is
// resolved on the CPU, once per pass ([render2d.PassDesc.ResolvedCamera]).
//
// Textures are premultiplied RGBA8 (as [image.RGBA] is) and every blend
// mode works on premultiplied colour. Offscreen targets are drawn with y
// flipped so that their texture reads the right way up in later passes.
//
// # Errors
//
// [Renderer.Render] asks GL for errors (glGetError, after the clear and
// after each pass) in the first three frames after [New] and after each
// change the next frames depend on: a new or released render target or
// material, a released texture, or a new framebuffer size. A fault in the
// renderer's state shows in the first frame that uses it, and is reported
// with the pass it happened in. Later frames do not ask: in a browser
// every getError is a synchronous round trip to the GPU process, which
// has to run every command queued before it while the page waits. (In
// headless chromium on SwiftShader this made no measurable difference to
// the presents per second, whose limit there is the cost of each sprite
// instance; with a GPU it saves a wait per pass, not measured here.)
// Building with
// -tags gldebug makes every frame ask, on both targets. Creating and
// updating textures checks its own errors when it happens.
//
// # Materials
//
// [Renderer.CreateMaterial] compiles a [render2d.MaterialDesc] body into the
// sprite fragment shader; compile and link failures return the driver's
// log with the material's name. Per-packet [render2d.DrawPacket2D.Params]
// and per-pass [render2d.PassDesc.Params] reach the shader.
//
//	window.MakeContextCurrent() // done by the platform, on the graphics thread
//	r, err := glrender.New()
//	if err != nil {
//		return err
//	}
//	defer r.Close()
//	r.SetFramebufferSize(window.GetFramebufferSize())
//	if err := r.Render(frame); err != nil {
//		return err
//	}
//	window.SwapBuffers()
//
// # Warming up
//
// Some drivers compile a shader variant for each combination of program,
// blend mode and sampler state at its first draw: Mesa's llvmpipe, the
// software rasteriser of CI machines and headless hosts, with LLVM (tens
// of milliseconds each with a cold shader cache), and browsers translate
// a program at its first use. [Renderer.WarmUp] draws every variant once
// into the window and clears it, and makes CreateMaterial do the same for
// each material after it, so the game's first frames draw at full speed;
// runtime/glfwplatform and runtime/webplatform call it before the game's
// clock starts. A render target's format has variants of its own: the
// first CreateRenderTarget after WarmUp draws them all into the new target
// (and clears it), costing about as much as WarmUp, so a game creates its
// targets while it sets up. BenchmarkFirstFrame times a small game's first
// frame on a new renderer without WarmUp, with it, and with it into a new
// render target (under MESA_SHADER_CACHE_DISABLE=true for the cold case).
//
// # Tests
//
// The tests open a window under Xvfb (internal/testdisplay), run the
// render2d/rendertest conformance suite, and compare scenes read back with
// glReadPixels against golden PNGs in testdata/ with a small per-channel
// tolerance; go test -update rewrites them. They run on the desktop
// build; TestConformanceInBrowser runs the conformance suite on the
// WebGL2 build in headless chromium (internal/browsertest), and
// cmd/webgame's tests run whole games there.
package glrender
