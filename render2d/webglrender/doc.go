// Package webglrender is the WebGL2 implementation of
// [render2d.Renderer], for games running in a web page (GOOS=js
// GOARCH=wasm, through syscall/js).
//
// It draws exactly as render2d/glrender does, from the same code: compact
// instances streamed into a ring of buffers, one instanced draw per batch
// of packets sharing texture, material and blend mode, corners from
// gl_VertexID, and present-time interpolation in the vertex shader (the
// sliding and turning variants, mixed by one alpha uniform). The shaders
// are glrender's in GLSL ES 3.00, which lacks packUnorm4x8 and
// unpackUnorm4x8: the header defines both with the same rounding.
// Textures, atlas pages, render targets, materials and text go through the
// same paths; render2d/rendertest's conformance suite is not yet run in
// the browser.
//
// The GL calls go through internal/gl, the subset of go-gl's API the
// renderer uses, spelled the same, over the canvas's WebGL2 context:
// objects are uint32 names in a table, and data is copied into one reused
// JavaScript byte array before each upload. Every syscall/js call boxes
// its arguments, so unlike glrender a frame allocates a little (per batch,
// never per sprite).
//
// Create it with [New] on the canvas the platform (runtime/webplatform)
// owns, and call every method on the program's main goroutine. A browser
// without WebGL2 gets [ErrNoWebGL2].
package webglrender
