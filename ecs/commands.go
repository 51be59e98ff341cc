package ecs

import (
	"fmt"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// Commands queues structural changes to a [World]: spawning and despawning
// entities, adding, setting and removing components. Queued commands are
// applied in the order they were queued at the next sync point; an [App] has
// one after every system. Because nothing structural happens while a query
// is open, Arche's locked-world panics cannot occur through this API.
//
// An operation that cannot be applied (a dead entity, a missing component)
// is skipped and reported: counted in [CommandStats] and passed to the
// handler set with [Commands.OnError]. It never panics.
//
// Commands belongs to the simulation goroutine, like its World. Queueing
// allocates only while the buffer grows to its largest batch so far and the
// first time it meets a component type.
type Commands struct {
	world  *World
	ops    []op
	spawns []spawnRec
	parts  []part
	ids    []arche.ID
	made   []arche.Entity // entities created by the last applied batch, by spawn index
	fixups []fixup
	epoch  uint32
	stats  CommandStats
	onErr  func(CommandError)
	source string
}

type opKind uint8

const (
	opSpawn opKind = iota
	opDespawn
	opAdd
	opSet
	opRemove
)

var opNames = [...]string{opSpawn: "spawn", opDespawn: "despawn", opAdd: "add", opSet: "set", opRemove: "remove"}

type op struct {
	kind opKind
	e    arche.Entity
	ref  uint32 // a pending spawn's reference instead of e (see Pending.Entity)
	slot int32  // store index; -1 for spawn and despawn
	idx  int32  // value index in the store, or spawn index
}

// A pending spawn's reference (Entity.ref) holds the low bits of its
// batch's epoch and its index in the batch plus one, so that it is never
// zero and one from an earlier batch is told apart (modulo 256 batches).
const (
	refEpochShift = 24
	refIndex      = 1<<refEpochShift - 1
)

// fixup is a component value written with a reference to a spawn that came
// later in its batch; it is patched once the whole batch is applied.
type fixup struct {
	e    arche.Entity
	slot int32
}

type spawnRec struct{ head, tail int32 }

// part is one component value attached to a pending spawn.
type part struct{ slot, idx, next int32 }

// CommandStats counts what the command buffer did since the world was made.
type CommandStats struct {
	Applied          uint64 // operations carried out
	Spawned          uint64 // entities created
	Despawned        uint64 // entities removed
	DeadEntity       uint64 // operations skipped because the entity was dead
	MissingComponent uint64 // set or remove skipped because the component was absent
	StalePending     uint64 // With calls on a Pending from an earlier batch
}

// Failed returns the number of operations that were skipped.
func (s CommandStats) Failed() uint64 { return s.DeadEntity + s.MissingComponent + s.StalePending }

// CommandError describes one queued operation that could not be applied.
type CommandError struct {
	Op        string        // "spawn", "despawn", "add", "set" or "remove"
	Entity    Entity        // the target entity (zero for spawn)
	Component ComponentType // the component type, if the operation has one
	Source    string        // the system that queued it, when run by an App
	Reason    string        // "entity is dead", "component is missing", ...
}

func (e CommandError) Error() string {
	msg := "ecs: " + e.Op
	if e.Component.t != nil {
		msg += " " + e.Component.String()
	}
	if !e.Entity.IsZero() {
		msg += " on " + e.Entity.String()
	}
	if e.Source != "" {
		msg += fmt.Sprintf(" (queued by system %q)", e.Source)
	}
	return msg + ": " + e.Reason
}

// OnError sets the handler called for every operation that is skipped. It is
// called at the sync point, on the simulation goroutine; commands it queues
// are applied in the same batch. nil removes it.
func (c *Commands) OnError(fn func(CommandError)) { c.onErr = fn }

// Stats returns the counters of the buffer.
func (c *Commands) Stats() CommandStats { return c.stats }

// Len returns the number of queued operations not applied yet.
func (c *Commands) Len() int { return len(c.ops) }

// Pending is an entity queued for spawning. Attach components to it with
// [With]; it is created, with all of them at once, when its batch is applied.
// [Commands.Resolve] then tells which entity it became, until the next batch
// is applied.
type Pending struct {
	c     *Commands
	i     int32
	epoch uint32
}

// Spawn queues the creation of an entity and returns its [Pending] handle.
func (c *Commands) Spawn() Pending {
	c.spawns = append(c.spawns, spawnRec{head: -1, tail: -1})
	i := int32(len(c.spawns) - 1)
	c.ops = append(c.ops, op{kind: opSpawn, slot: -1, idx: i})
	return Pending{c: c, i: i, epoch: c.epoch}
}

// With attaches component value v to the pending entity p. Attaching the
// same type twice keeps the last value. Using a Pending from an earlier
// batch is reported as stale and ignored.
func With[T any](p Pending, v T) {
	c := p.c
	if c == nil {
		panic("ecs: With called with a zero Pending")
	}
	slot, s := storeOf[T](c.world)
	if p.epoch != c.epoch {
		c.fail(CommandError{Op: opNames[opSpawn], Component: s.ct, Reason: "pending entity is from an earlier batch"}, &c.stats.StalePending)
		return
	}
	s.vals = append(s.vals, v)
	c.parts = append(c.parts, part{slot: slot, idx: int32(len(s.vals) - 1), next: -1})
	pi := int32(len(c.parts) - 1)
	rec := &c.spawns[p.i]
	if rec.tail < 0 {
		rec.head = pi
	} else {
		c.parts[rec.tail].next = pi
	}
	rec.tail = pi
}

// Resolve returns the entity p became when its batch was applied. It
// reports false before that sync point, and after the following one (the
// record is kept for one batch), so keep the Entity, not the Pending.
func (c *Commands) Resolve(p Pending) (Entity, bool) {
	if p.c != c || p.epoch+1 != c.epoch || int(p.i) >= len(c.made) {
		return Entity{}, false
	}
	return Entity{e: c.made[p.i]}, true
}

// Entity returns a reference to the entity p will become, usable at once
// where a command takes an entity: as the target of [Add], [Set], [Remove]
// and [Commands.Despawn], and inside component values queued in the same
// batch ([With], [Add], [Set]), such as a relation to the new entity or a
// camera's [Camera.Follow] target. When the batch is applied, every such
// reference in a queued value is replaced by the spawned entity, whatever
// the order of the spawns (references inside slices excepted). Until then
// the entity does not exist: lookups report it as dead, so do not store
// the reference anywhere else (a value written through a [Map] or a query
// keeps it as it is, and it never comes alive); after the sync point use
// [Commands.Resolve]. A reference kept into a later batch is reported as
// stale.
func (p Pending) Entity() Entity {
	if p.c == nil {
		return Entity{}
	}
	return Entity{ref: (p.epoch&0xff)<<refEpochShift | uint32(p.i+1)&refIndex}
}

// resolveRef returns the entity a pending spawn's reference became, with
// later reporting a spawn of this batch not applied yet and stale one from
// an earlier batch. Only meaningful while the batch is applied.
func (c *Commands) resolveRef(ref uint32) (e arche.Entity, later, stale bool) {
	i := int(ref&refIndex) - 1
	if ref>>refEpochShift != c.epoch&0xff || i < 0 || i >= len(c.spawns) {
		return arche.Entity{}, false, true
	}
	if i >= len(c.made) {
		return arche.Entity{}, true, false
	}
	return c.made[i], false, false
}

// Despawn queues the removal of e.
func (c *Commands) Despawn(e Entity) {
	c.ops = append(c.ops, op{kind: opDespawn, e: e.e, ref: e.ref, slot: -1})
}

// Add queues adding component value v to e. If e already has a T, its value
// is replaced.
func Add[T any](c *Commands, e Entity, v T) { queueValue(c, opAdd, e, v) }

// Set queues overwriting e's T with v. If e has no T the operation is
// reported as a missing component and skipped.
func Set[T any](c *Commands, e Entity, v T) { queueValue(c, opSet, e, v) }

// Remove queues removing e's T. If e has no T the operation is reported as a
// missing component.
func Remove[T any](c *Commands, e Entity) {
	slot, _ := storeOf[T](c.world)
	c.ops = append(c.ops, op{kind: opRemove, e: e.e, ref: e.ref, slot: slot})
}

func queueValue[T any](c *Commands, k opKind, e Entity, v T) {
	slot, s := storeOf[T](c.world)
	s.vals = append(s.vals, v)
	c.ops = append(c.ops, op{kind: k, e: e.e, ref: e.ref, slot: slot, idx: int32(len(s.vals) - 1)})
}

func (c *Commands) fail(err CommandError, counter *uint64) {
	*counter++
	if err.Source == "" {
		err.Source = c.source
	}
	if c.onErr != nil {
		c.onErr(err)
	}
}

// apply carries out every queued operation. The world must be unlocked.
func (c *Commands) apply() {
	if len(c.ops) == 0 && len(c.parts) == 0 {
		return
	}
	w := c.world
	aw := &w.w
	c.made = c.made[:0]
	c.fixups = c.fixups[:0]
	// By index: the error handler may queue more, which join this batch.
	for i := 0; i < len(c.ops); i++ {
		o := c.ops[i]
		if o.ref != 0 {
			// A reference to a spawn of this batch, queued after it.
			e, _, stale := c.resolveRef(o.ref)
			if stale {
				c.fail(CommandError{Op: opNames[o.kind], Entity: Entity{ref: o.ref}, Reason: "pending entity is from an earlier batch"}, &c.stats.StalePending)
				continue
			}
			o.e = e
		}
		switch o.kind {
		case opSpawn:
			c.applySpawn(o.idx)
			continue
		case opDespawn:
			if o.e.IsZero() || !aw.Alive(o.e) {
				c.fail(CommandError{Op: opNames[o.kind], Entity: Entity{e: o.e}, Reason: "entity is dead"}, &c.stats.DeadEntity)
				continue
			}
			aw.RemoveEntity(o.e)
			w.changed(true)
			c.stats.Despawned++
			c.stats.Applied++
			continue
		}
		s := w.stores[o.slot]
		if o.e.IsZero() || !aw.Alive(o.e) {
			c.fail(CommandError{Op: opNames[o.kind], Entity: Entity{e: o.e}, Component: s.typ(), Reason: "entity is dead"}, &c.stats.DeadEntity)
			continue
		}
		id := s.id(aw)
		has := aw.Has(o.e, id)
		switch o.kind {
		case opAdd:
			if !has {
				c.ids = append(c.ids[:0], id)
				aw.Add(o.e, c.ids...)
				w.changed(false)
			}
			s.write(c, slotOf(o), o.e, o.idx)
		case opSet:
			if !has {
				c.fail(CommandError{Op: opNames[o.kind], Entity: Entity{e: o.e}, Component: s.typ(), Reason: "component is missing"}, &c.stats.MissingComponent)
				continue
			}
			s.write(c, slotOf(o), o.e, o.idx)
		case opRemove:
			if !has {
				c.fail(CommandError{Op: opNames[o.kind], Entity: Entity{e: o.e}, Component: s.typ(), Reason: "component is missing"}, &c.stats.MissingComponent)
				continue
			}
			c.ids = append(c.ids[:0], id)
			aw.Remove(o.e, c.ids...)
			w.changed(false)
		}
		c.stats.Applied++
	}
	for _, f := range c.fixups {
		if aw.Alive(f.e) {
			w.stores[f.slot].fix(c, aw, f.e)
		}
	}
	c.ops = c.ops[:0]
	c.spawns = c.spawns[:0]
	c.parts = c.parts[:0]
	for _, s := range w.stores {
		s.reset()
	}
	c.epoch++
}

func (c *Commands) applySpawn(i int32) {
	w := c.world
	aw := &w.w
	c.ids = c.ids[:0]
	for p := c.spawns[i].head; p >= 0; p = c.parts[p].next {
		id := w.stores[c.parts[p].slot].id(aw)
		dup := false
		for _, have := range c.ids {
			if have == id {
				dup = true
				break
			}
		}
		if !dup {
			c.ids = append(c.ids, id)
		}
	}
	e := aw.NewEntity(c.ids...)
	w.changed(true)
	c.made = append(c.made, e) // spawns are applied in index order
	for p := c.spawns[i].head; p >= 0; p = c.parts[p].next {
		w.stores[c.parts[p].slot].write(c, c.parts[p].slot, e, c.parts[p].idx)
	}
	c.stats.Spawned++
	c.stats.Applied++
}

func slotOf(o op) int32 { return o.slot }

// store holds queued values of one component type between sync points.
type store interface {
	typ() ComponentType
	id(w *arche.World) arche.ID
	// write writes queued value idx into e's component, replacing the
	// pending-spawn references in it (c's batch being applied; slot is
	// the store's own index).
	write(c *Commands, slot int32, e arche.Entity, idx int32)
	// fix replaces the references left in e's component once its batch is
	// applied.
	fix(c *Commands, w *arche.World, e arche.Entity)
	reset()
	// snapshot returns a holder for this type's values in a Snapshot.
	snapshot(w *World) componentSnapshot
	// copyOf returns a copy of e's value, for inspection (inspect.go).
	copyOf(e arche.Entity) (any, bool)
}

type typedStore[T any] struct {
	ct    ComponentType
	vals  []T
	m     generic.Map[T]
	ready bool
	// assign, when set, writes a queued value over the world's (for
	// Transform, which counts the write as a teleport).
	assign func(dst, src *T)
	// refs are the offsets of the Entity values inside a T (its layout's).
	refs []uintptr
	// snapFilter selects every entity with a T, for snapshots.
	snapFilter *generic.Filter1[T]
	snapReady  bool
}

func (s *typedStore[T]) typ() ComponentType { return s.ct }

// id resolves the Arche component ID lazily: registering a new type is only
// allowed while the world is unlocked, which is the case at a sync point.
func (s *typedStore[T]) id(w *arche.World) arche.ID {
	if !s.ready {
		s.m = generic.NewMap[T](w)
		s.ready = true
	}
	return s.m.ID()
}

func (s *typedStore[T]) write(c *Commands, slot int32, e arche.Entity, idx int32) {
	v := &s.vals[idx]
	if len(s.refs) > 0 && s.patch(c, v) {
		c.fixups = append(c.fixups, fixup{e: e, slot: slot})
	}
	dst := s.m.Get(e)
	if s.assign != nil {
		s.assign(dst, v)
		return
	}
	*dst = *v
}

// patch replaces the pending-spawn references in *v by their entities and
// reports whether some are of spawns not applied yet.
func (s *typedStore[T]) patch(c *Commands, v *T) (later bool) {
	for _, off := range s.refs {
		r := entityAt(v, off)
		if r.ref == 0 {
			continue
		}
		e, notYet, stale := c.resolveRef(r.ref)
		switch {
		case notYet:
			later = true
		case stale:
			c.fail(CommandError{Op: "resolve", Entity: *r, Component: s.ct, Reason: "pending entity is from an earlier batch"}, &c.stats.StalePending)
			*r = Entity{}
		default:
			*r = Entity{e: e}
		}
	}
	return later
}

func (s *typedStore[T]) fix(c *Commands, w *arche.World, e arche.Entity) {
	if s.m.Has(e) {
		s.patch(c, s.m.Get(e))
	}
}

// assignTransform writes src over dst as a jump: the entity is drawn where
// src puts it, not slid there (see [Transform]).
func assignTransform(dst, src *Transform) {
	jumps := dst.motion + 1
	*dst = *src
	dst.motion = src.motion&motionStill | jumps&motionJumps
}

func (s *typedStore[T]) reset() {
	clear(s.vals)
	s.vals = s.vals[:0]
}

// storeSlot indexes World.stores.
type storeSlot = int32

func storeOf[T any](w *World) (int32, *typedStore[T]) {
	t := TypeOf[T]()
	if slot, ok := w.registry[t]; ok {
		return slot, w.stores[slot].(*typedStore[T])
	}
	s := &typedStore[T]{ct: t, refs: w.layoutOf(t).refs}
	if ts, ok := any(s).(*typedStore[Transform]); ok {
		ts.assign = assignTransform
	}
	w.stores = append(w.stores, s)
	slot := int32(len(w.stores) - 1)
	w.registry[t] = slot
	w.registered(t, "component")
	return slot, s
}
