//go:build !js && cgo

package framework

import (
	"fmt"
	"os"
	"syscall"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/glfwplatform"
)

// openWindow opens the window cfg describes, with its renderer, input and
// presentation: GLFW and OpenGL 4.1. Main thread only.
func openWindow(cfg config.Config) (*runtime.Adapters, error) {
	pc := glfwplatform.DefaultConfig()
	pc.Options = cfg.Window.Options
	pc.Fullscreen = cfg.Window.Fullscreen && !cfg.Window.Headless // a headless window stays invisible
	pc.Hidden = cfg.Window.Headless
	ctx, err := glfwplatform.New(pc)
	if err != nil {
		return nil, fmt.Errorf("framework: opening the window: %w", err)
	}
	return ctx, nil
}

// platformAllows accepts every runtime option: the desktop has them all.
func platformAllows(runtime.Options, string) error { return nil }

// stopSignals are the signals a session turns into shutdown requests.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
