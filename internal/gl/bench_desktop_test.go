//go:build !js

package gl_test

import (
	"os"
	"runtime"
	"testing"

	gogl "github.com/go-gl/gl/v4.1-core/gl"

	"github.com/metronome-go/metronome/internal/gl"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

func init() { runtime.LockOSThread() } // GLFW runs on the main thread only

func TestMain(m *testing.M) { os.Exit(gltest.Main(m, 16, 16, "gl test")) }

// BenchmarkCalls measures what the binding adds to a GL call on the
// desktop: each pair makes the same calls through this package and
// through go-gl directly, as often as a batch makes them (BindBuffer
// inlines; VertexAttribPointerWithOffset is one of the few wrappers that
// do not).
func BenchmarkCalls(b *testing.B) {
	gltest.Use(b)
	if err := gl.Init(); err != nil {
		b.Fatal(err)
	}
	var buf, vao uint32
	gl.GenBuffers(1, &buf)
	gl.GenVertexArrays(1, &vao)
	gl.BindVertexArray(vao)
	b.Cleanup(func() {
		gl.DeleteBuffers(1, &buf)
		gl.DeleteVertexArrays(1, &vao)
	})
	b.Run("BindBuffer/binding", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			gl.BindBuffer(gl.ARRAY_BUFFER, buf)
		}
	})
	b.Run("BindBuffer/go-gl", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			gogl.BindBuffer(gogl.ARRAY_BUFFER, buf)
		}
	})
	gl.BindBuffer(gl.ARRAY_BUFFER, buf)
	b.Run("VertexAttribPointer/binding", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			gl.VertexAttribPointerWithOffset(0, 4, gl.FLOAT, false, 64, 16)
		}
	})
	b.Run("VertexAttribPointer/go-gl", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			gogl.VertexAttribPointerWithOffset(0, 4, gogl.FLOAT, false, 64, 16)
		}
	})
}
