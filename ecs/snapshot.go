package ecs

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/schedule"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// Snapshot is a copy of an App's whole simulation state, for rollback and
// sync-testing: [App.Save] fills it and [App.Restore] puts the App back as
// it was, so that the ticks run after a restore do exactly what they did
// the first time. What it holds is stated with the world hash's rule in
// hash.go (above [Unhashed]): every live entity with its generation and
// the entity pool's recycling order (so an [Entity] kept in a component
// names the same entity after a restore, and the next spawn gets the same
// one it got before), every component value, the resources registered
// with [HashResource], the random source, the gameplay queue and the
// timers with every pending event, handle and sequence number, the ticks
// of play and game time, the pause, and every [States].
//
// A Snapshot reuses its storage: saving an App again into a Snapshot that
// held it allocates nothing, as long as the world's structure (entities,
// and which components they have) did not change since that Snapshot was
// last saved or restored. Across spawns and despawns, a save copies the
// entity pool and a restore rebuilds the world's entities, both in the
// storage the snapshot and the world already have, so they allocate
// nothing once that storage has grown to the largest pool (builds tagged
// archesafe use only Arche's public API, which takes a few allocations
// each time: pooldump.go); the slices in the components of the rebuilt
// entities reuse the arrays the world's values held, so only a value
// whose entity was despawned since the save needs new ones. Use a
// [Snapshots] ring to keep the last few ticks.
//
// Two things are kept as they are rather than copied: an [Event]'s Run
// function (a closure must keep its state in the world, not in captured
// variables, or a restore cannot bring it back; sync-test shows where it
// does not), and the values of presentation-only and excluded component
// types, copied by assignment. Commands cannot be pending between ticks
// (the App applies them after every system), and a save or restore with
// commands queued is refused.
//
// [Snapshot.AppendBinary] encodes a Snapshot for another process of the
// same game and [App.DecodeSnapshot] decodes one (snapshot_wire.go).
//
// The zero Snapshot is empty and ready to use. It belongs to the
// simulation goroutine, like its App.
type Snapshot struct {
	app   *App
	valid bool
	world worldSnapshot

	queue, timers schedule.Snapshot[Event]
	pcg           rand.PCG
	time          Time
	window        input.Window
	ticks         uint64
	gameStart     time.Duration
	paused        bool
	pauseReq      bool
	epoch         uint32
	states        []stateSnapshot
	cosmetic      []time.Duration // the cosmetic systems' skipped time, in system order
	midTick       bool            // saved by SystemStep.Save: the world only
}

// Valid reports whether s holds a saved state.
func (s *Snapshot) Valid() bool { return s.valid }

// Entities returns the number of live entities saved in s.
func (s *Snapshot) Entities() int { return len(s.world.ents) }

type worldSnapshot struct {
	structVer, poolVer uint64
	dump               arche.EntityDump // the entity pool as of dumpVer
	dumpVer            uint64
	dumped             bool
	ents               []arche.Entity // every live entity, archetype by archetype in storage order
	runs               []entityRun
	comps              []componentSnapshot // by store index
	res                []valueSnapshot     // by World.hashRes index; nil for one that is not state
	alive              []uint32            // scratch for a rebuild
	ids                []arche.ID
}

// entityRun is n consecutive entities of ents in one archetype.
type entityRun struct {
	mask arche.Mask
	n    int
}

// componentSnapshot holds the values of one component type.
type componentSnapshot interface {
	save(w *World)
	// restore writes the saved values into the world's entities, which
	// have the component.
	restore(w *World)
	// diff calls fn for every entity whose value differs from the world's
	// (w may be the world of another App of the same game), with the name
	// of the first field that differs.
	diff(w *World, fn func(e Entity, field string))
	// typ is the component type.
	typ() ComponentType
	// collect appends the arrays the world's values of the type hold to
	// held, before a rebuild drops the values; restore then reuses them.
	collect(w *World, held *[]heldArray)
	// dropSpares forgets the arrays collect found that restore left.
	dropSpares()
}

// valueSnapshot holds one value outside the entities: a resource or a
// state machine.
type valueSnapshot interface {
	save()
	restore()
}

// ErrSnapshot is wrapped by the errors of [App.Save], [App.Restore] and
// [Snapshots]: a snapshot taken or restored at the wrong moment, of
// another App, or of a tick the ring no longer holds.
var ErrSnapshot = errors.New("ecs: snapshot")

// Save copies a's simulation state into s (see [Snapshot]), reusing s's
// storage. Call it between ticks: it fails when a query is open, when
// commands are queued, during a tick, and, the first time an App is
// saved, for every state type that is not plain data (see
// [App.EnableSnapshots]).
func (a *App) Save(s *Snapshot) error {
	if err := a.EnableSnapshots(); err != nil {
		return err
	}
	if err := a.snapshotMoment("Save"); err != nil {
		return err
	}
	if s.app != a {
		*s = Snapshot{app: a}
	}
	w := a.world
	w.save(&s.world)
	a.queue.Save(&s.queue)
	a.timers.Save(&s.timers)
	s.pcg = *a.pcg
	s.time, s.window = a.time, a.window
	s.ticks, s.gameStart, s.paused, s.pauseReq = a.ticks, a.gameStart, a.paused, a.pauseReq
	s.epoch = w.cmds.epoch
	a.fitStates(s)
	for _, st := range s.states {
		st.save()
	}
	s.cosmetic = s.cosmetic[:0]
	for _, e := range a.entries {
		s.cosmetic = append(s.cosmetic, e.pending)
	}
	s.valid, s.midTick = true, false
	return nil
}

// Restore puts a back in the state saved in s. s keeps it, so it can be
// restored again. Restore fails, changing nothing, when s is empty or of
// another App, and at the moments [App.Save] fails.
func (a *App) Restore(s *Snapshot) error {
	switch {
	case !s.valid:
		return fmt.Errorf("%w: Restore of an empty snapshot", ErrSnapshot)
	case s.app != a:
		return fmt.Errorf("%w: Restore of a snapshot of another App", ErrSnapshot)
	case s.midTick:
		return errMidTick
	}
	if err := a.snapshotMoment("Restore"); err != nil {
		return err
	}
	if err := a.queue.Restore(&s.queue); err != nil {
		return fmt.Errorf("%w: gameplay queue: %w", ErrSnapshot, err)
	}
	if err := a.timers.Restore(&s.timers); err != nil {
		return fmt.Errorf("%w: timers: %w", ErrSnapshot, err)
	}
	w := a.world
	w.restore(&s.world)
	*a.pcg = s.pcg
	a.time, a.window = s.time, s.window
	a.ticks, a.gameStart, a.paused, a.pauseReq = s.ticks, s.gameStart, s.paused, s.pauseReq
	w.cmds.epoch = s.epoch
	w.cmds.made = w.cmds.made[:0]
	for _, st := range s.states {
		st.restore()
	}
	for i, e := range a.entries {
		if i < len(s.cosmetic) {
			e.pending = s.cosmetic[i]
		}
	}
	a.delivered, a.timed = a.delivered[:0], a.timed[:0]
	return nil
}

// EnableSnapshots checks that every state type the App knows of can be
// copied by a snapshot, and from then on checks each new one as it is
// registered: a component type (when first queued with [With], [Add] or
// [Set]) or resource ([HashResource]) that the world hash covers (see the
// rule in hash.go) and that holds a pointer, map, interface, channel or
// function is refused, naming the type and the field, because a snapshot
// could not restore what it points to. For the types known now it returns
// an error listing each; for a type registered later it panics (in a
// system, a failure of its tick), as for any other programming error.
// Leave cosmetic types out with [ExcludeFromHash] or [PresentationOnly];
// snapshots carry those along by assignment.
//
// [App.Save] and [NewSnapshots] call it; a game calls it itself to see
// the refusals at set-up.
func (a *App) EnableSnapshots() error {
	w := a.world
	if w.snapshots {
		return nil
	}
	var errs []error
	for _, s := range w.stores {
		if err := w.snapshotCheck(s.typ(), "component"); err != nil {
			errs = append(errs, err)
		}
	}
	for _, r := range w.hashRes {
		if err := w.snapshotCheck(r.t, "resource"); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	w.snapshots = true
	return nil
}

// snapshotCheck returns the refusal of type t (a component or resource,
// by what) if it is state that is not plain data.
func (w *World) snapshotCheck(t ComponentType, what string) error {
	if !w.isState(t) {
		return nil
	}
	if err := w.layoutOf(t).err; err != nil {
		return fmt.Errorf("%w: %s type %v cannot be saved: %w", ErrSnapshot, what, t, err)
	}
	return nil
}

// registered checks a type registered after snapshots were enabled.
func (w *World) registered(t ComponentType, what string) {
	if !w.snapshots {
		return
	}
	if err := w.snapshotCheck(t, what); err != nil {
		panic(err.Error())
	}
}

func (a *App) snapshotMoment(op string) error {
	w := a.world
	switch {
	case a.ctx.Input != nil:
		return fmt.Errorf("%w: %s during a tick; call it between ticks", ErrSnapshot, op)
	case w.w.IsLocked():
		return fmt.Errorf("%w: %s while a query is open", ErrSnapshot, op)
	case w.cmds.Len() > 0 || len(w.cmds.parts) > 0:
		return fmt.Errorf("%w: %s with %d commands queued; apply them first (World.Apply)", ErrSnapshot, op, w.cmds.Len())
	}
	return nil
}

// save copies the world's entities, components and registered resources
// into s.
func (w *World) save(s *worldSnapshot) {
	aw := &w.w
	if !s.dumped || s.dumpVer != w.poolVer {
		dumpPool(aw, &s.dump)
		s.dumpVer, s.dumped = w.poolVer, true
	}
	if !w.snapAllReady {
		f := arche.All()
		w.snapAll = aw.Cache().Register(&f)
		w.snapAllReady = true
	}
	s.ents, s.runs = s.ents[:0], s.runs[:0]
	q := aw.Query(&w.snapAll)
	for q.Next() {
		m := q.Mask()
		if len(s.runs) == 0 || s.runs[len(s.runs)-1].mask != m {
			s.runs = append(s.runs, entityRun{mask: m})
		}
		s.runs[len(s.runs)-1].n++
		s.ents = append(s.ents, q.Entity())
	}
	w.fitComps(s)
	for _, c := range s.comps {
		c.save(w)
	}
	w.fitRes(s)
	for _, r := range s.res {
		if r != nil {
			r.save()
		}
	}
	s.structVer, s.poolVer = w.structVer, w.poolVer
}

// fitComps gives s a componentSnapshot for each of the world's component
// types it has none for yet (the types met since s was last fitted).
func (w *World) fitComps(s *worldSnapshot) {
	for len(s.comps) < len(w.stores) {
		s.comps = append(s.comps, w.stores[len(s.comps)].snapshot(w))
	}
}

// fitRes gives s a valueSnapshot for each resource registered with
// [HashResource] since s was last fitted: nil for one that is not state.
func (w *World) fitRes(s *worldSnapshot) {
	for len(s.res) < len(w.hashRes) {
		r := &w.hashRes[len(s.res)]
		var v valueSnapshot
		if w.isState(r.t) {
			v = r.snapshot()
		}
		s.res = append(s.res, v)
	}
}

// fitStates gives s a stateSnapshot for each [States] of a added since s
// was last fitted.
func (a *App) fitStates(s *Snapshot) {
	for len(s.states) < len(a.states) {
		s.states = append(s.states, a.states[len(s.states)].snapshot())
	}
}

// restore puts the world back as saved in s.
func (w *World) restore(s *worldSnapshot) { w.restoreWith(s, loadPool) }

// restoreWith is restore with load putting the entity pool back
// (loadPool, or loadPoolPublic for the tests that compare the two).
func (w *World) restoreWith(s *worldSnapshot, load poolLoader) {
	rebuilt := w.structVer != s.structVer
	if rebuilt {
		w.rebuild(s, load)
	}
	for _, c := range s.comps {
		c.restore(w)
		if rebuilt {
			c.dropSpares()
		}
	}
	for _, r := range s.res {
		if r != nil {
			r.restore()
		}
	}
	w.structVer, w.poolVer = s.structVer, s.poolVer
}

// rebuild gives the world the entities of s, with their generations, the
// pool's recycling order and their archetypes, each archetype's entities
// in the saved storage order (which is the order queries visit them). The
// values are written afterwards.
//
// A pool goes back only into an emptied world (World.Reset, which also
// drops the resources, then load, Arche's LoadEntities or pooldump.go's
// in-place copy of it, which puts every live entity in the archetype
// without components, in the order given). Entities
// then leave that archetype as their components are added, each taking
// the last place: so the ones that stay there go first, in their order,
// and the rest follow in reverse, so that each one moved is the last and
// moving it disturbs no other.
//
// The arrays of the slices in the values Arche drops are kept for the
// values written afterwards, so that a restore across spawns and
// despawns does not allocate one per slice.
func (w *World) rebuild(s *worldSnapshot, load poolLoader) {
	aw := &w.w
	for _, c := range s.comps {
		c.collect(w, &w.held)
	}
	spareDistinct(w.held)
	w.held = w.held[:0]
	resIDs := arche.ResourceIDs(aw)
	w.resScratch = w.resScratch[:0]
	for _, id := range resIDs {
		w.resScratch = append(w.resScratch, aw.Resources().Get(id))
	}
	aw.Reset()

	s.alive = s.alive[:0]
	i := 0
	for _, r := range s.runs {
		if r.mask.IsZero() {
			for _, e := range s.ents[i : i+r.n] {
				s.alive = append(s.alive, e.ID())
			}
		}
		i += r.n
	}
	for k := len(s.runs) - 1; k >= 0; k-- {
		r := s.runs[k]
		i -= r.n
		if !r.mask.IsZero() {
			for j := i + r.n - 1; j >= i; j-- {
				s.alive = append(s.alive, s.ents[j].ID())
			}
		}
	}
	load(aw, &s.dump, s.alive)
	for k, id := range resIDs {
		if r := w.resScratch[k]; r != nil {
			aw.Resources().Add(id, r)
		}
	}
	clear(w.resScratch)

	i = 0
	for _, r := range s.runs {
		if !r.mask.IsZero() {
			s.ids = s.ids[:0]
			for _, st := range w.stores {
				if id := st.id(aw); r.mask.Get(id) {
					s.ids = append(s.ids, id)
				}
			}
			for _, e := range s.ents[i : i+r.n] {
				aw.Add(e, s.ids...)
			}
		}
		i += r.n
	}
}

// componentValues holds the values of component type T, entity by entity.
type componentValues[T any] struct {
	st *typedStore[T]
	// l copies the values; nil for a type that is not state, which is
	// carried along by assignment.
	l       *layout
	ents    []arche.Entity
	vals    []T
	scratch T
	spare   spareArrays
}

func (s *typedStore[T]) snapshot(w *World) componentSnapshot {
	c := &componentValues[T]{st: s}
	if w.isState(s.ct) {
		c.l = w.layoutOf(s.ct)
	}
	return c
}

func (c *componentValues[T]) save(w *World) {
	aw := &w.w
	st := c.st
	st.id(aw) // registers T while the world is unlocked
	if !st.snapReady {
		st.snapFilter = generic.NewFilter1[T]()
		st.snapFilter.Register(aw)
		st.snapReady = true
	}
	c.ents = c.ents[:0]
	n := 0
	q := st.snapFilter.Query(aw)
	for q.Next() {
		c.ents = append(c.ents, q.Entity())
		if n < cap(c.vals) {
			c.vals = c.vals[:n+1] // keep the arrays the value held, for reuse
		} else {
			var zero T
			c.vals = append(c.vals, zero)
		}
		c.copy(&c.vals[n], q.Get())
		n++
	}
	c.vals = c.vals[:n]
}

func (c *componentValues[T]) copy(dst, src *T) {
	if c.l == nil {
		*dst = *src
		return
	}
	copyValue(c.l, dst, src, &c.scratch)
}

func (c *componentValues[T]) restore(w *World) {
	m := &c.st.m
	if c.l == nil {
		for i, e := range c.ents {
			*m.Get(e) = c.vals[i]
		}
		return
	}
	for i, e := range c.ents {
		copyValueSpare(c.l, m.Get(e), &c.vals[i], &c.scratch, &c.spare)
	}
}

func (c *componentValues[T]) collect(w *World, held *[]heldArray) {
	if c.l == nil || !c.l.deep || !c.st.snapReady {
		return
	}
	c.spare.leaves = len(c.l.leaves)
	for q := c.st.snapFilter.Query(&w.w); q.Next(); {
		collectValueArrays(c.l, q.Get(), held, &c.spare)
	}
}

func (c *componentValues[T]) dropSpares() { c.spare.drop() }

func (c *componentValues[T]) typ() ComponentType { return c.st.ct }

func (c *componentValues[T]) diff(w *World, fn func(Entity, string)) {
	if c.l == nil || c.l.err != nil {
		return
	}
	st, ok := w.storeOf(c.st.ct).(*typedStore[T])
	if !ok {
		return // the world never had the type: the hash names it
	}
	m := &st.m
	unhashed := w.unhashedID()
	for i, e := range c.ents {
		if w.w.Alive(e) && w.w.Has(e, unhashed) {
			continue // the hash leaves it out, and so does the comparison
		}
		if !w.w.Alive(e) || !m.Has(e) {
			fn(Entity{e: e}, "(missing)")
			continue
		}
		if f := c.l.firstDiff(m.Get(e), &c.vals[i]); f != "" {
			fn(Entity{e: e}, f)
		}
	}
}

// resourceValue holds the value of a resource registered with
// [HashResource].
type resourceValue[T any] struct {
	res     Resource[T]
	l       *layout
	v       T
	scratch T
	has     bool
}

func (r *resourceValue[T]) save() {
	p := r.res.Get()
	r.has = p != nil
	if p != nil {
		copyValue(r.l, &r.v, p, &r.scratch)
	}
}

func (r *resourceValue[T]) restore() {
	if p := r.res.Get(); p != nil && r.has {
		copyValue(r.l, p, &r.v, &r.scratch)
	}
}

// stateValues holds a [States].
type stateValues[S comparable] struct {
	s             *States[S]
	current, next S
	pending       bool
	transitions   uint64
}

func (s *States[S]) snapshot() stateSnapshot { return &stateValues[S]{s: s} }

func (v *stateValues[S]) save() {
	v.current, v.next, v.pending, v.transitions = v.s.current, v.s.next, v.s.pending, v.s.transitions
}

func (v *stateValues[S]) restore() {
	v.s.current, v.s.next, v.s.pending, v.s.transitions = v.current, v.next, v.pending, v.transitions
}

type stateSnapshot = valueSnapshot
