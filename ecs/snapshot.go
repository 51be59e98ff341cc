package ecs

import arche "github.com/mlange-42/arche/ecs"

// snapshotter records every Transform as its previous value before a fixed
// tick that may end a batch (see [App] and [Transform]). Its run method
// comes in two builds: snapshot_public.go, the default, uses Arche's public
// query API; snapshot_unsafe.go, built with the metronome_unsafe tag, walks
// Arche's component columns directly.
type snapshotter struct {
	id     arche.ID
	filter arche.CachedFilter
}

// newSnapshotter registers the Transform type and a cached filter for it
// with w, which must not be locked.
func newSnapshotter(w *arche.World) snapshotter {
	id := arche.ComponentID[Transform](w)
	return snapshotter{id: id, filter: w.Cache().Register(arche.All(id))}
}
