//go:build !js && !cgo

package framework

import (
	"errors"
	"os"
	"syscall"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/runtime"
)

// openWindow fails: a desktop build without cgo (CGO_ENABLED=0) has no
// GLFW and no OpenGL. Such a build runs what needs no window: a dedicated
// host (--host ADDR --dedicated), a --no-window match of bots, a headless
// --replay.
func openWindow(config.Config) (*runtime.Adapters, error) {
	return nil, errors.New("framework: this build has no window (built with CGO_ENABLED=0, so without GLFW and OpenGL): it can host --dedicated, play --no-window --bot and --replay headless; build with cgo for a window")
}

// platformAllows accepts every runtime option, as the desktop with a
// window does.
func platformAllows(runtime.Options, string) error { return nil }

// stopSignals are the signals a session turns into shutdown requests.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
