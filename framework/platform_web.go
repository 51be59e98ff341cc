//go:build js && wasm

package framework

import (
	"fmt"
	"os"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/webplatform"
)

// openWindow opens the page's canvas with a WebGL2 renderer, sized as the
// configuration's window when the page's style gives it no size. The
// window's resizing limits and vsync are the page's and the browser's:
// the canvas follows its element, and requestAnimationFrame paces presents.
func openWindow(cfg config.Config) (*runtime.Adapters, error) {
	pc := webplatform.DefaultConfig()
	pc.Options = cfg.Window.Options
	ctx, err := webplatform.New(pc)
	if err != nil {
		return nil, fmt.Errorf("framework: opening the page's canvas: %w", err)
	}
	return ctx, nil
}

// platformAllows refuses what a web page cannot do: concurrent mode needs
// a second thread, and a WebAssembly program has one.
func platformAllows(o runtime.Options, source string) error {
	if o.Mode == runtime.Concurrent {
		return fmt.Errorf("framework: %s: runtime.mode = \"concurrent\" needs a second thread, and a WebAssembly build has one; use \"sequential\" (the default) in the browser", source)
	}
	return nil
}

// stopSignals is empty: a page gets no signals (closing the tab ends the
// program with it).
var stopSignals []os.Signal
