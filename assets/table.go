package assets

// table stores values under generation-checked ids. A slot's generation is
// bumped on removal, so a handle to a removed value never matches the value
// that later reuses its slot. Ids start at 1 and generations at 1, so the
// zero handle never matches anything.
type table[T any] struct {
	slots []tslot[T]
	free  []uint32
}

type tslot[T any] struct {
	gen  uint32
	live bool
	v    T
}

func (t *table[T]) add(v T) (id, gen uint32) {
	if n := len(t.free); n > 0 {
		id = t.free[n-1]
		t.free = t.free[:n-1]
		s := &t.slots[id-1]
		s.live, s.v = true, v
		return id, s.gen
	}
	t.slots = append(t.slots, tslot[T]{gen: 1, live: true, v: v})
	return uint32(len(t.slots)), 1
}

// get returns the value for (id, gen), or nil when the handle is stale.
func (t *table[T]) get(id, gen uint32) *T {
	if id == 0 || int(id) > len(t.slots) {
		return nil
	}
	s := &t.slots[id-1]
	if !s.live || s.gen != gen {
		return nil
	}
	return &s.v
}

// current returns the live generation of id, or 0.
func (t *table[T]) current(id uint32) uint32 {
	if id == 0 || int(id) > len(t.slots) || !t.slots[id-1].live {
		return 0
	}
	return t.slots[id-1].gen
}

// replace keeps id but bumps its generation, so old handles go stale while
// the slot holds v.
func (t *table[T]) replace(id uint32, v T) (gen uint32) {
	s := &t.slots[id-1]
	s.gen = nextGen(s.gen)
	s.v = v
	return s.gen
}

func (t *table[T]) remove(id uint32) {
	s := &t.slots[id-1]
	var zero T
	s.live, s.v = false, zero
	s.gen = nextGen(s.gen)
	t.free = append(t.free, id)
}

func (t *table[T]) len() int { return len(t.slots) - len(t.free) }

func nextGen(g uint32) uint32 {
	g++
	if g == 0 { // after 2^32-1 reuses; skip zero so no handle matches a zero gen
		g = 1
	}
	return g
}
