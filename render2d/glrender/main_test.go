//go:build !js

package glrender_test

import (
	"os"
	"runtime"
	"testing"

	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

func init() { runtime.LockOSThread() } // GLFW runs on the main thread only

// TestMain hands the main thread to gltest, which opens the 128x128 window
// the golden images are drawn in.
func TestMain(m *testing.M) { os.Exit(gltest.Main(m, 128, 128, "glrender test")) }
