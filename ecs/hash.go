package ecs

import (
	"cmp"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	arche "github.com/mlange-42/arche/ecs"
)

// Hash is a digest of a world's state (see [World.Hash]): Total covers
// everything, Types breaks it down so that two hashes that differ can say
// where.
type Hash struct {
	Total uint64
	// Types holds one entry per part of the state, sorted by name: the
	// entity set ("ecs.entities"), every component type that at least one
	// entity has, every resource registered with [HashResource], and what
	// [App.Hash] adds. The slice is reused by [World.HashInto].
	Types []TypeHash
}

// TypeHash is the share of one part of the state in a [Hash]: for a
// component type, the hash of every entity's value of it and how many
// entities have one. Its fields match the recording package's checkpoints.
type TypeHash struct {
	// Name is the Go type's name (reflect's String, "pkg.T"), "ecs.entities"
	// for the entity set, or "resource pkg.T" for a resource.
	Name  string
	Hash  uint64
	Count int
}

// EntityHash is one entity's share in a component type's hash.
type EntityHash struct {
	Entity Entity
	Hash   uint64
}

// EntitiesName names the entity set's entry in a [Hash].
const EntitiesName = "ecs.entities"

// What the world hash covers and how, the rule a replay relies on (this
// is the one place that states it):
//
//   - The entity set: every live entity's ID and generation, but for
//     entities marked [Unhashed].
//   - For each component type some entity has, but for presentation-only
//     types and types left out with [ExcludeFromHash]: every (entity ID,
//     generation, value) triple. A value is hashed field by field, in
//     declaration order, by value: integers, booleans and floats by their
//     bits (so 0 and -0 differ, as they may in a simulation), strings by
//     their bytes, arrays element by element and slices by length and
//     elements; padding is never read. An Entity counts as its index,
//     generation and pending-spawn reference. Pointers, maps, channels,
//     functions, interfaces and unsafe pointers are not game state that
//     can be compared across runs, so a type holding one is reported as an
//     error naming the field. Unexported fields count like exported ones.
//     (layout.go does the reading.)
//   - Resources registered with [HashResource], by the same rule, but for
//     presentation-only and excluded types.
//
// Presentation-only types say how the game looks, not what happens in it,
// so changing them (a HUD's layout, a text's wording, a sprite's tint or
// layer, an animation) keeps every recording valid: the built-in [Sprite],
// [Text], [Shape], [Animator] and [Camera], and every type that embeds
// [PresentationOnly]. [Transform] is game state and is hashed, so where
// things are still counts. A gameplay system that reads a presentation
// type and acts on it makes the game's behaviour depend on something the
// hash does not see: keep such state in a type of its own.
//
// A snapshot ([Snapshot], for rollback and sync-testing) copies exactly
// this state, by the same [World.isState] predicate, so that what the hash
// compares is what a restore brings back, and a state type that a snapshot
// could not copy is refused when snapshots are enabled
// ([App.EnableSnapshots]). Beyond it, a snapshot carries two things the
// hash only counts or leaves out: the whole contents of the gameplay queue
// and the timers (the hash covers their clocks and lengths; their payloads
// may hold functions, copied by assignment), and the values of
// presentation-only, excluded and [Unhashed] components, copied by
// assignment so that a restored entity still looks as it did. The same
// applies to the entity set: a snapshot also keeps the entity pool's
// generations and recycling order, so an [Entity] saved in a component
// stays valid and the spawns after a restore get the entities they got
// before.
//
// Triples are combined per type by addition of a strong per-entity hash,
// which does not depend on the order Arche stores or visits entities (that
// order changes with archetype creation order, despawns and moves between
// archetypes); the per-type results are combined in name order. The same
// values give the same hash on every run and machine with the same byte
// width of int; the hash is not a cryptographic digest.

// Unhashed marks an entity whose state the world hash leaves out
// entirely (it is not in the entity set, and none of its components
// count): for cosmetic entities that show what only the platform knows,
// such as a timing overlay drawn from frame telemetry, which a replay
// cannot reproduce. Add it at spawn: ecs.With(e, ecs.Unhashed{}).
type Unhashed struct{}

// PresentationOnly marks a component type as presentation: embed it, and
// the world hash leaves the type out (see the rule above), as it does the
// built-in Sprite and Text.
//
//	type HUDLayout struct {
//		ecs.PresentationOnly
//		Margin, Spacing float32
//	}
type PresentationOnly struct{}

func (PresentationOnly) presentationOnly() {}

// presentational is what presentation-only types have.
type presentational interface{ presentationOnly() }

func (Sprite) presentationOnly()   {}
func (Text) presentationOnly()     {}
func (Shape) presentationOnly()    {}
func (Animator) presentationOnly() {}
func (Camera) presentationOnly()   {}

// isState is the rule above as code: it reports whether type t, a
// component, resource or state type, is game state, which the world hash
// covers and a snapshot copies field by field. Whether a value of t can be
// read at all is its layout's err.
func (w *World) isState(t ComponentType) bool {
	return !w.hashExcluded[t] && !w.layoutOf(t).presentation
}

// ExcludeFromHash leaves component or resource type T out of the world's
// hash: for cosmetic state that a replay need not reproduce (particles,
// screen shake) or for types that are not plain data.
func ExcludeFromHash[T any](w *World) {
	t := TypeOf[T]()
	if w.hashExcluded == nil {
		w.hashExcluded = map[ComponentType]bool{}
	}
	w.hashExcluded[t] = true
	w.hashSorted = false
}

// HashResource makes the world's resource of type T part of its hash
// (resources are not, unless registered: most hold tools, not state). A
// registered resource that is absent counts as an entry with Count 0.
func HashResource[T any](w *World) {
	t := TypeOf[T]()
	for _, r := range w.hashRes {
		if r.t == t {
			return
		}
	}
	w.registered(t, "resource")
	res := NewResource[T](w)
	w.hashRes = append(w.hashRes, hashedResource{
		t:    t,
		name: "resource " + t.String(),
		snapshot: func() valueSnapshot {
			return &resourceValue[T]{res: res, l: w.layoutOf(t)}
		},
		hash: func(l *layout, seed uint64) (uint64, bool) {
			v := res.Get()
			if v == nil {
				return 0, false
			}
			return hashValue(l, seed, v), true
		},
	})
	w.hashSorted = false
}

type hashedResource struct {
	t    ComponentType
	name string
	// hash mixes the resource into seed by its layout l, reporting false
	// when the world has none.
	hash func(l *layout, seed uint64) (uint64, bool)
	// snapshot returns a holder for the resource's value in a Snapshot.
	snapshot func() valueSnapshot
}

// hashPart is one entry of the hash, in name order.
type hashPart struct {
	name  string
	store int // index in World.stores, or -1
	res   int // index in World.hashRes, or -1
	extra int // index in the extra parts, or -1
}

// hashedType is what the world keeps per component type for hashing.
type hashedType struct {
	l      *layout
	id     arche.ID
	filter arche.CachedFilter
	ready  bool
}

// Hash returns the hash of w's state (see [Hash] and the rule above). It
// fails, for every type it cannot hash at once, when a component type or
// registered resource is not plain data; the hash then covers the rest. w
// must not be locked (call it between ticks, or from a system outside a
// query).
func (w *World) Hash() (Hash, error) {
	var h Hash
	err := w.HashInto(&h)
	return h, err
}

// HashInto is [World.Hash] into h, reusing h.Types: once the world's set
// of types is stable it allocates nothing.
func (w *World) HashInto(h *Hash) error { return w.hashInto(h, nil) }

// extraPart is state outside the world that [App.Hash] adds.
type extraPart struct {
	name string
	fn   func() (hash uint64, count int)
}

func (w *World) hashInto(h *Hash, extras []extraPart) error {
	if w.w.IsLocked() {
		return errors.New("ecs: world hash: the world is locked by an open query")
	}
	w.sortHashParts(extras)
	h.Types = h.Types[:0]
	var errs []error
	for _, p := range w.hashParts {
		var e TypeHash
		e.Name = p.name
		switch {
		case p.name == EntitiesName:
			e.Hash, e.Count = w.hashEntities()
		case p.store >= 0:
			var err error
			e.Hash, e.Count, err = w.hashStore(p.store, nil)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if e.Count == 0 {
				continue
			}
		case p.res >= 0:
			r := &w.hashRes[p.res]
			l := w.layoutOf(r.t)
			if l.err != nil {
				errs = append(errs, fmt.Errorf("ecs: world hash: resource %v: %w", r.t, l.err))
				continue
			}
			if v, ok := r.hash(l, seedOf(r.name)); ok {
				e.Hash, e.Count = finish(v), 1
			}
		default:
			e.Hash, e.Count = extras[p.extra].fn()
		}
		h.Types = append(h.Types, e)
	}
	total := uint64(0x6d65_7472_6f6e_6f6d) // "metronom"
	for _, e := range h.Types {
		total = mix(total, seedOf(e.Name))
		total = mix(total, e.Hash)
		total = mix(total, uint64(e.Count))
	}
	h.Total = finish(total)
	return errors.Join(errs...)
}

// sortHashParts rebuilds the name-ordered list of parts when types were
// added or registrations changed.
func (w *World) sortHashParts(extras []extraPart) {
	if w.hashSorted && len(w.hashTypes) == len(w.stores) && w.hashExtras == len(extras) {
		return
	}
	for len(w.hashTypes) < len(w.stores) {
		w.hashTypes = append(w.hashTypes, hashedType{})
	}
	w.hashParts = append(w.hashParts[:0], hashPart{name: EntitiesName, store: -1, res: -1, extra: -1})
	for i, s := range w.stores {
		if w.isState(s.typ()) {
			w.hashParts = append(w.hashParts, hashPart{name: s.typ().String(), store: i, res: -1, extra: -1})
		}
	}
	for i, r := range w.hashRes {
		if w.isState(r.t) {
			w.hashParts = append(w.hashParts, hashPart{name: r.name, store: -1, res: i, extra: -1})
		}
	}
	for i, x := range extras {
		w.hashParts = append(w.hashParts, hashPart{name: x.name, store: -1, res: -1, extra: i})
	}
	// Two types of one name from different packages are told apart by
	// package path; the order must not depend on registration order.
	slices.SortStableFunc(w.hashParts, func(a, b hashPart) int {
		if c := cmp.Compare(a.name, b.name); c != 0 {
			return c
		}
		return cmp.Compare(w.partPath(a), w.partPath(b))
	})
	w.hashSorted, w.hashExtras = true, len(extras)
}

func (w *World) partPath(p hashPart) string {
	switch {
	case p.store >= 0:
		return w.stores[p.store].typ().pkgPath()
	case p.res >= 0:
		return w.hashRes[p.res].t.pkgPath()
	}
	return ""
}

// unhashedID is the Arche ID of [Unhashed], registered on first use.
func (w *World) unhashedID() arche.ID { return arche.ComponentID[Unhashed](&w.w) }

// hashEntities hashes the set of live entities.
func (w *World) hashEntities() (uint64, int) {
	if !w.allReady {
		f := arche.All().Without(w.unhashedID())
		w.all = w.w.Cache().Register(&f)
		w.allReady = true
	}
	q := w.w.Query(&w.all)
	sum, n := uint64(0), 0
	for q.Next() {
		e := q.Entity()
		sum += finish(mix(0x656e_7469_7479, uint64(e.ID())<<32|uint64(e.Generation())))
		n++
	}
	return sum, n
}

// hashStore hashes component type w.stores[i] over every entity that has
// it; with each set, it also hands out every entity's share.
func (w *World) hashStore(i int, each func(Entity, uint64)) (sum uint64, n int, err error) {
	s := w.stores[i]
	ht := &w.hashTypes[i]
	if ht.l == nil {
		ht.l = w.layoutOf(s.typ())
	}
	if ht.l.err != nil {
		return 0, 0, fmt.Errorf("ecs: world hash: component type %v: %w", s.typ(), ht.l.err)
	}
	if !ht.ready {
		ht.id = s.id(&w.w)
		f := arche.All(ht.id).Without(w.unhashedID())
		ht.filter = w.w.Cache().Register(&f)
		ht.ready = true
	}
	seed := seedOf(s.typ().String())
	l, id := ht.l, ht.id
	q := w.w.Query(&ht.filter)
	for q.Next() {
		e := q.Entity()
		v := finish(l.hash(mix(seed, uint64(e.ID())<<32|uint64(e.Generation())), q.Get(id)))
		sum += v
		n++
		if each != nil {
			each(Entity{e: e}, v)
		}
	}
	return sum, n, nil
}

// EntityHashes returns every entity's share in the hash of component type
// t, in entity ID order, so that two worlds whose hashes differ in t can be
// compared entity by entity ([DiffEntities]). It allocates; it is for
// finding a divergence, not for every tick.
func (w *World) EntityHashes(t ComponentType) ([]EntityHash, error) {
	if w.w.IsLocked() {
		return nil, errors.New("ecs: world hash: the world is locked by an open query")
	}
	slot, ok := w.registry[t]
	if !ok {
		return nil, nil
	}
	w.sortHashParts(nil)
	var out []EntityHash
	if _, _, err := w.hashStore(int(slot), func(e Entity, h uint64) { out = append(out, EntityHash{e, h}) }); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b EntityHash) int { return cmp.Compare(a.Entity.ID(), b.Entity.ID()) })
	return out, nil
}

// DiffHashes returns the names of the parts in which a and b differ (hash
// or count), and of those only one of them has, in name order.
func DiffHashes(a, b Hash) []string {
	var out []string
	i, j := 0, 0
	for i < len(a.Types) || j < len(b.Types) {
		switch {
		case j == len(b.Types) || (i < len(a.Types) && a.Types[i].Name < b.Types[j].Name):
			out = append(out, a.Types[i].Name)
			i++
		case i == len(a.Types) || b.Types[j].Name < a.Types[i].Name:
			out = append(out, b.Types[j].Name)
			j++
		default:
			if a.Types[i].Hash != b.Types[j].Hash || a.Types[i].Count != b.Types[j].Count {
				out = append(out, a.Types[i].Name)
			}
			i++
			j++
		}
	}
	return out
}

// DiffEntities returns the entities whose shares differ between two lists
// from [World.EntityHashes], and those only one list has, in ID order.
func DiffEntities(a, b []EntityHash) []Entity {
	var out []Entity
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i].Entity.ID() < b[j].Entity.ID()):
			out = append(out, a[i].Entity)
			i++
		case i == len(a) || b[j].Entity.ID() < a[i].Entity.ID():
			out = append(out, b[j].Entity)
			j++
		default:
			if a[i] != b[j] {
				out = append(out, a[i].Entity)
			}
			i++
			j++
		}
	}
	return out
}

// The mixing functions: a multiply-rotate round per 64-bit word, as in
// xxHash64, and its final avalanche.

const (
	prime1 = 0x9e3779b185ebca87
	prime2 = 0xc2b2ae3d27d4eb4f
	prime3 = 0x165667b19e3779f9
)

func mix(h, v uint64) uint64 {
	h ^= bits.RotateLeft64(v*prime2, 31) * prime1
	return bits.RotateLeft64(h, 27)*prime1 + prime3
}

func finish(h uint64) uint64 {
	h ^= h >> 33
	h *= prime2
	h ^= h >> 29
	h *= prime3
	h ^= h >> 32
	return h
}

func seedOf(s string) uint64 { return hashString(0x7365_6564, s) }

func hashString(h uint64, s string) uint64 {
	h = mix(h, uint64(len(s)))
	for len(s) >= 8 {
		h = mix(h, uint64(s[0])|uint64(s[1])<<8|uint64(s[2])<<16|uint64(s[3])<<24|
			uint64(s[4])<<32|uint64(s[5])<<40|uint64(s[6])<<48|uint64(s[7])<<56)
		s = s[8:]
	}
	var tail uint64
	for i := 0; i < len(s); i++ {
		tail |= uint64(s[i]) << (8 * i)
	}
	return mix(h, tail)
}
