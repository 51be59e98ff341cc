//go:build js && wasm && !metronome_testhook

package webplatform

import (
	"time"

	"github.com/metronome-go/metronome/render2d"
)

// hook is absent from a game's build: the page's metronome object is for
// browser tests and measurements, which build with the tag
// metronome_testhook (hook.go). These are its functions doing nothing, so
// the platform calls them the same way in both builds.
type hook struct{}

func newHook(*Display, *Source) *hook { return nil }

func (*hook) renderer(r render2d.Renderer) render2d.Renderer { return r }

func (*hook) setRefresh(time.Duration) {}

func (*hook) presented(float64) {}
