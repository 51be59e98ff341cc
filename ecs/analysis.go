package ecs

import (
	"fmt"

	arche "github.com/mlange-42/arche/ecs"
)

// Analysis: what a debugger needs of an App that a game never does. A
// replay tool asks to see a tick system by system ([App.ObserveSystems])
// and reads components by their type, not through a typed filter
// ([World.ComponentTypes], [World.EntitiesWith], [World.Component]; those
// that use reflect live in layout.go, the one file allowed it). None
// of it is on a live game's path: a tick without an observer pays one nil
// check per system.

// SystemStep is the moment right after one system of a tick ran and its
// commands were applied, as [App.ObserveSystems] reports it. It is valid
// only during the observer's call.
type SystemStep struct {
	// Tick is the update's number ([Time].Number).
	Tick uint64
	// Stage is the system's stage (the gameplay queue, the timers and the
	// states' enter and exit systems count as [PreUpdate]).
	Stage Stage
	// Name is the system's name; the gameplay queue's and the timers'
	// deliveries are "gameplay queue" and "timers".
	Name string
	// Index counts the steps of this tick from 0.
	Index int

	app *App
}

// HashInto hashes the App's state at this step into h, as [App.HashInto]
// does between ticks.
func (s *SystemStep) HashInto(h *Hash) error { return s.app.HashInto(h) }

// Save copies the world's entities and components at this step into snap,
// for [App.FieldDiffs] (of this App or another of the same game). Such a
// snapshot holds no tick state (time, queue, random source), so
// [App.Restore] refuses it.
func (s *SystemStep) Save(snap *Snapshot) error {
	a := s.app
	if err := a.EnableSnapshots(); err != nil {
		return err
	}
	if snap.app != a {
		*snap = Snapshot{app: a}
	}
	a.world.save(&snap.world)
	snap.valid, snap.midTick = true, true
	return nil
}

// ObserveSystems calls fn after every system that runs during a tick (the
// [PreUpdate], [Update] and [PostUpdate] systems, the states' enter and
// exit systems and the deliveries of the gameplay queue and the timers),
// once the system's commands are applied; nil stops observing. It is for
// analysis on a replay (which system changed what): fn may hash the state
// and read the world, and must change nothing. Call it on the simulation
// goroutine, between ticks.
func (a *App) ObserveSystems(fn func(*SystemStep)) {
	a.observer = fn
	a.sysStep.app = a
}

// observe reports the step after e, when someone observes and a tick runs.
func (a *App) observe(e *systemEntry) {
	if a.ctx.Input == nil {
		return // Startup, Shutdown, Extract: not a tick
	}
	s := &a.sysStep
	s.Tick, s.Stage, s.Name = a.time.Number, e.stage, e.Name
	s.Index++ // step sets it to -1 as each tick starts
	a.observer(s)
}

// EntitiesWith returns the live entities that have a component of type t,
// in the world's storage order (none when the world never met t).
func (w *World) EntitiesWith(t ComponentType) []Entity {
	id, ok := w.idOf(t)
	if !ok {
		return nil
	}
	var out []Entity
	q := w.w.Query(arche.All(id))
	for q.Next() {
		out = append(out, Entity{e: q.Entity()})
	}
	return out
}

// Entities returns every live entity, in the world's storage order.
func (w *World) Entities() []Entity {
	var out []Entity
	q := w.w.Query(arche.All())
	for q.Next() {
		out = append(out, Entity{e: q.Entity()})
	}
	return out
}

// errMidTick is Restore's refusal of a SystemStep's snapshot.
var errMidTick = fmt.Errorf("%w: Restore of a snapshot saved inside a tick (SystemStep.Save), which is for FieldDiffs only", ErrSnapshot)
