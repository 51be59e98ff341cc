package ecs

import (
	"fmt"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// Entity identifies an entity of a [World]. The zero Entity is never alive.
//
// An Entity is a plain value: copy it, compare it with ==, keep it in
// components. Once its entity is despawned the value stays safe to use: every
// lookup and command reports it as dead instead of touching a recycled slot.
//
// [Pending.Entity] returns a reference to an entity that is still to be
// spawned; see there for where it may be used.
type Entity struct {
	e arche.Entity
	// ref, when not zero, makes this a reference to a pending spawn (see
	// Pending.Entity): the spawn's batch and index. e is then zero.
	ref uint32
}

// IsZero reports whether e is the zero Entity.
func (e Entity) IsZero() bool { return e.e.IsZero() && e.ref == 0 }

// Pending reports whether e is a reference to an entity still to be
// spawned ([Pending.Entity]) that has not been replaced by the entity yet.
func (e Entity) Pending() bool { return e.ref != 0 }

// ID returns the index part of e. Indices are recycled after a despawn; the
// generation tells the incarnations apart.
func (e Entity) ID() uint32 { return e.e.ID() }

// Generation returns the incarnation counter of e's index.
func (e Entity) Generation() uint32 { return e.e.Generation() }

// String formats e as "entity(id.generation)", or "entity(pending n)" for
// the reference to the n-th spawn of a batch.
func (e Entity) String() string {
	if e.ref != 0 {
		return fmt.Sprintf("entity(pending %d)", e.ref&refIndex-1)
	}
	return fmt.Sprintf("entity(%d.%d)", e.e.ID(), e.e.Generation())
}

// comps converts types for Arche's filters, registering them while the
// world is unlocked (see register).
func (w *World) comps(types []ComponentType) []generic.Comp {
	out := make([]generic.Comp, len(types))
	for i, t := range types {
		out[i] = t.t
		if !w.w.IsLocked() {
			arche.TypeID(&w.w, t.t)
		}
	}
	return out
}

// World holds the entities and components of a game together with its
// resources and its command buffer.
//
// A World belongs to the simulation: use it from the goroutine that runs the
// game's updates (the [App] hooks), never concurrently.
//
// Structural changes (spawning, despawning, adding and removing components)
// go through [World.Commands]; they are applied at sync points where no query
// is open, so the world is never modified under a running iteration.
type World struct {
	w        arche.World
	cmds     Commands
	issued   []issuedQuery // queries handed out and possibly open; see locks.go
	tickets  uint64
	registry map[ComponentType]storeSlot
	stores   []store

	// The world hash's registrations and caches; see hash.go.
	hashExcluded map[ComponentType]bool
	hashRes      []hashedResource
	layouts      map[ComponentType]*layout // see layout.go
	hashTypes    []hashedType              // by store index
	hashParts    []hashPart
	hashSorted   bool
	hashExtras   int
	all          arche.CachedFilter
	allReady     bool

	// Structural versions, for snapshots (snapshot.go): structVer changes
	// with every structural change (spawn, despawn, a component added or
	// removed), poolVer with every spawn and despawn. Each new version is a
	// number never used before, so equal versions mean equal structure.
	versions     uint64
	structVer    uint64
	poolVer      uint64
	snapshots    bool // a snapshot was taken: new component types are checked at registration
	snapAll      arche.CachedFilter
	snapAllReady bool
	resScratch   []any
	held         []heldArray // scratch for a rebuild
	// The payload writers of a snapshot's binary form (snapshot_wire.go).
	wireQueue, wireTimers func([]byte, *Event) ([]byte, error)
	// known holds, by name, the component types met in filters and maps
	// that no command has used yet (query.go's know).
	known map[string]func(*World)
}

// NewWorld returns an empty world.
func NewWorld() *World {
	// Room for the queries of a few nested loops, so that the first tick
	// does not allocate.
	w := &World{w: arche.NewWorld(), registry: map[ComponentType]storeSlot{}, issued: make([]issuedQuery, 0, 8)}
	w.cmds.world = w
	return w
}

// Commands returns the world's command buffer. See [Commands].
func (w *World) Commands() *Commands { return &w.cmds }

// Alive reports whether e refers to a live entity of w.
func (w *World) Alive(e Entity) bool { return !e.e.IsZero() && w.w.Alive(e.e) }

// Locked reports whether a query is currently iterating the world. While it
// is, structural changes can only be queued in [World.Commands].
func (w *World) Locked() bool { return w.w.IsLocked() }

// Apply closes queries left open and applies the queued commands. [App] calls
// it after every system; call it yourself only when driving a World without
// an App. It reports how many queries it had to close (each one a bug in the
// system that left it open: break out of a loop with Close).
func (w *World) Apply() (leaked int) {
	leaked = w.closeLeaked()
	w.cmds.apply()
	return leaked
}

// Map gives random access to one component type by entity. It never changes
// the world's structure; use [Commands] for that.
//
// Create Maps at set-up time (before systems run): registering a component
// type the world has not seen yet is not possible while a query is open.
type Map[T any] struct {
	w *World
	m generic.Map[T]
}

// NewMap returns a [Map] for component type T.
// It panics if called while a query is open and T is new to the world.
func NewMap[T any](w *World) Map[T] {
	know[T](w)
	return Map[T]{w: w, m: generic.NewMap[T](&w.w)}
}

// Get returns a pointer to e's T, or nil when e is dead or has no T. The
// pointer is valid until the next sync point; do not keep it.
func (m *Map[T]) Get(e Entity) *T {
	if !m.w.Alive(e) || !m.m.Has(e.e) {
		return nil
	}
	return m.m.Get(e.e)
}

// Has reports whether e is alive and has a T.
func (m *Map[T]) Has(e Entity) bool { return m.w.Alive(e) && m.m.Has(e.e) }

// AddResource stores r as the world's resource of type T, replacing any
// previous one. Resources are singletons shared by all systems.
func AddResource[T any](w *World, r *T) {
	res := generic.NewResource[T](&w.w)
	if res.Has() {
		res.Remove()
	}
	res.Add(r)
}

// GetResource returns the world's resource of type T, or nil.
func GetResource[T any](w *World) *T {
	res := generic.NewResource[T](&w.w)
	if !res.Has() {
		return nil
	}
	return res.Get()
}

// Resource is a cached accessor for one resource type, faster than
// [GetResource] in a hot loop.
type Resource[T any] struct{ r generic.Resource[T] }

// NewResource returns an accessor for the resource of type T.
func NewResource[T any](w *World) Resource[T] { return Resource[T]{generic.NewResource[T](&w.w)} }

// Get returns the resource, or nil when none is stored.
func (r *Resource[T]) Get() *T {
	if !r.r.Has() {
		return nil
	}
	return r.r.Get()
}

// changed records a structural change; pool says it changed the entity
// pool (a spawn or despawn).
func (w *World) changed(pool bool) {
	w.versions++
	w.structVer = w.versions
	if pool {
		w.poolVer = w.versions
	}
}
