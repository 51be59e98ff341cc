package ecs

import (
	"errors"
	"time"

	"github.com/metronome-go/metronome/assets"
)

// Animator plays an animation of a sprite sheet on the entity's [Sprite]:
// a built-in cosmetic system, the first of the [PostUpdate] stage, advances
// Elapsed by the simulation time since it last ran and points the sprite at
// the frame to show. Being cosmetic, it skips quiet catch-up ticks and
// follows the coarse cosmetic rate, yet never loses time: a skipped tick's
// delta is added the next time it runs.
//
// It needs the App's [assets.Library] ([Options.Assets]); frames it cannot
// resolve (no library, a stale sheet) leave the sprite as it is and are
// counted in [AppStats].
type Animator struct {
	Sheet     assets.Sheet
	Animation assets.Animation
	// Elapsed is how long the animation has played.
	Elapsed time.Duration
	// Paused animators keep their frame and time.
	Paused bool
}

// AnimationStats counts what the built-in animation system did.
type AnimationStats struct {
	Errors    uint64 // frames that could not be resolved
	LastError error  // why, for the latest one
}

var errNoLibraryAnim = errors.New("ecs: an Animator needs an assets.Library: set Options.Assets")

func (a *App) animate(ctx *Sys) {
	lib := a.extract.lib
	q := a.animators.Query(&a.world.w)
	for q.Next() {
		an, s := q.Get()
		if an.Paused {
			continue
		}
		an.Elapsed += ctx.delta
		if lib == nil {
			a.animStats.Errors++
			a.animStats.LastError = errNoLibraryAnim
			continue
		}
		r, err := lib.Frame(an.Sheet, an.Animation.Frame(an.Elapsed))
		if err != nil {
			a.animStats.Errors++
			a.animStats.LastError = err
			continue
		}
		s.SetRegion(r)
	}
}
