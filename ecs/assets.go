package ecs

import "github.com/metronome-go/metronome/assets"

// Assets returns the library the App was made with ([Options.Assets]),
// nil without one: tools beside the game (the inspector) read the
// textures its frames draw from there.
func (a *App) Assets() *assets.Library { return a.extract.lib }
