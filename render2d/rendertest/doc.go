// Package rendertest helps test code that uses a [render2d.Renderer].
//
// # Recorder
//
// [Recorder] is a renderer without a GPU: it keeps textures, targets and
// materials with generation-checked handles, validates frames exactly as a
// real renderer does, applies clears, and records a copy of every rendered
// frame for assertions. [Recorder.Close] frees the resources but keeps
// [Recorder.Frames], so a test can look at them after the code under test
// (a runtime, say) has shut its renderer down.
//
// The recorder does not rasterise packets, but it records what a player
// would see: each recorded frame keeps its [render2d.Frame.Present] (the
// alpha and instant of that present), and [Recorder.ShownAt] returns the
// frame on screen at an instant with every packet and camera resolved at
// that alpha, by the same render2d functions the GL renderer's shader
// follows:
//
//	shown, ok := rec.ShownAt(at)
//	pos := shown.Passes[0].Packets[0].Transform.Position
//
// # Conformance
//
// [TestRenderer] is the suite every renderer passes, in the manner of
// testing/fstest.TestFS:
//
//	func TestConformance(t *testing.T) {
//		rendertest.TestRenderer(t, func(t *testing.T) render2d.Renderer {
//			return rendertest.NewRecorder(32, 32, 4096)
//		})
//	}
package rendertest
