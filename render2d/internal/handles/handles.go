// Package handles is the resource bookkeeping shared by the renderers.
//
// [Table] is a generation-checked table: a handle is an index plus the
// generation of that index, so a released handle never names the resource
// that later reuses its index. [Resources] holds a renderer's three tables
// (textures, targets, materials) with every argument check and error
// message the renderers have in common, so render2d/glrender and
// render2d/rendertest cannot drift apart in what they accept.
package handles

// Table maps (id, gen) pairs to values. IDs start at 1 so that the zero
// pair is never issued. The zero Table is ready to use.
type Table[T any] struct {
	entries []entry[T]
	free    []uint32
	live    int
}

type entry[T any] struct {
	gen  uint32
	live bool
	val  T
}

// Add stores v and returns its id and generation.
func (t *Table[T]) Add(v T) (id, gen uint32) {
	var i uint32
	if n := len(t.free); n > 0 {
		i = t.free[n-1]
		t.free = t.free[:n-1]
	} else {
		t.entries = append(t.entries, entry[T]{})
		i = uint32(len(t.entries) - 1)
	}
	e := &t.entries[i]
	e.gen++
	if e.gen == 0 { // after 2^32 reuses, skip the zero generation
		e.gen = 1
	}
	e.live = true
	e.val = v
	t.live++
	return i + 1, e.gen
}

// Get returns the value for (id, gen), or nil when the pair is not live.
func (t *Table[T]) Get(id, gen uint32) *T {
	if id == 0 || int(id) > len(t.entries) {
		return nil
	}
	e := &t.entries[id-1]
	if !e.live || e.gen != gen {
		return nil
	}
	return &e.val
}

// Remove deletes (id, gen) and returns its value; ok is false when the pair
// was not live.
func (t *Table[T]) Remove(id, gen uint32) (v T, ok bool) {
	p := t.Get(id, gen)
	if p == nil {
		return v, false
	}
	v = *p
	e := &t.entries[id-1]
	var zero T
	e.val = zero
	e.live = false
	t.free = append(t.free, id-1)
	t.live--
	return v, true
}

// Len returns the number of live entries.
func (t *Table[T]) Len() int { return t.live }

// Each calls fn for every live entry.
func (t *Table[T]) Each(fn func(id, gen uint32, v *T)) {
	for i := range t.entries {
		if e := &t.entries[i]; e.live {
			fn(uint32(i+1), e.gen, &e.val)
		}
	}
}
