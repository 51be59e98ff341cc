package render2d

import "sync"

// SlotMode selects how many frame slots a [Slots] owns.
type SlotMode uint8

const (
	// Sequential owns one slot: the same thread prepares, renders and
	// presents, so the frame is always finished with before the next
	// preparation starts.
	Sequential SlotMode = iota
	// Concurrent owns three slots: one may be rendered, one may be the
	// newest complete frame waiting for the platform, and one may be in
	// preparation on the simulation goroutine.
	Concurrent
)

// SlotOptions configure [NewSlots]. The zero value has no release hook.
type SlotOptions struct {
	// Release, when set, is called on the graphics thread with every frame
	// about to be recycled (superseded, replaced by a newer one, abandoned,
	// or retained at shutdown), before its packets and parameters are
	// cleared. Asset code uses it to drop references the frame held, so the
	// last release of a GPU resource happens where the context is current.
	Release func(*Frame)
}

type slotState uint8

const (
	slotFree      slotState = iota // clean, may be lent to the simulation
	slotWriting                    // lent to the simulation
	slotComplete                   // published, not yet claimed
	slotHeld                       // claimed by the platform (being or last rendered)
	slotStale                      // superseded or abandoned; recycle on graphics thread
	slotRecycling                  // being recycled by the platform, outside the lock
)

type slot struct {
	frame  Frame
	writer FrameWriter
	state  slotState
}

// SlotStats counts what happened to frames.
type SlotStats struct {
	// Published frames, including ones later superseded.
	Published uint64 `json:"published"`
	// Skipped preparations: Begin found no free slot.
	Skipped uint64 `json:"skipped"`
	// Superseded frames: published but replaced by a newer one before the
	// platform claimed them.
	Superseded uint64 `json:"superseded"`
	// Claimed frames: fresh frames the platform took for rendering.
	Claimed uint64 `json:"claimed"`
	// Recycled frames passed through the release hook and cleared.
	Recycled uint64 `json:"recycled"`
}

// Slots hands reusable frames from the goroutine that prepares them to the
// graphics thread that renders them, following the frame publication
// contract: the simulation never waits for a slot (when none is free it
// skips publishing that frame), the platform always takes the newest
// complete frame and keeps it until a newer one arrives, and every frame
// leaving use is recycled on the graphics thread, keeping its capacity.
//
// [Slots.Begin], [Slots.Publish] and [Slots.Discard] belong to the
// preparing goroutine; [Slots.Acquire] and [Slots.RecycleAll] to the
// graphics thread. The two sides may run concurrently. In Sequential mode
// both sides are the graphics thread. Steady-state use does not allocate.
type Slots struct {
	mu     sync.Mutex
	mode   SlotMode
	slots  []slot
	latest int // newest complete slot, or -1
	held   int // slot claimed by the platform, or -1
	seq    uint64
	stats  SlotStats
	opts   SlotOptions
}

// NewSlots returns the slots for a run mode. It panics if mode is neither
// Sequential nor Concurrent.
func NewSlots(mode SlotMode, opts SlotOptions) *Slots {
	n := 1
	switch mode {
	case Sequential:
	case Concurrent:
		n = 3
	default:
		panic("render2d: NewSlots: mode must be Sequential or Concurrent")
	}
	s := &Slots{mode: mode, slots: make([]slot, n), latest: -1, held: -1, opts: opts}
	for i := range s.slots {
		sl := &s.slots[i]
		sl.writer = FrameWriter{frame: &sl.frame, owner: s, slot: i}
		sl.writer.pass.w = &sl.writer
	}
	return s
}

// Len returns the number of slots: 1 or 3.
func (s *Slots) Len() int { return len(s.slots) }

// Begin lends a clean frame for preparation. When every slot is in use it
// returns false and counts a skipped frame: the caller goes on simulating
// without preparing. At most one frame may be in preparation at a time;
// it panics if one already is.
//
// In Sequential mode Begin runs on the graphics thread and recycles the
// single slot itself when the platform holds it.
func (s *Slots) Begin() (*FrameWriter, bool) {
	s.mu.Lock()
	for i := range s.slots {
		if s.slots[i].state == slotWriting {
			s.mu.Unlock()
			panic("render2d: Slots.Begin: a frame is already in preparation")
		}
	}
	for i := range s.slots {
		if s.slots[i].state == slotFree {
			s.slots[i].state = slotWriting
			s.mu.Unlock()
			return &s.slots[i].writer, true
		}
	}
	if s.mode == Sequential {
		sl := &s.slots[0]
		if sl.state == slotHeld || sl.state == slotStale || sl.state == slotComplete {
			if s.held == 0 {
				s.held = -1
			}
			if s.latest == 0 {
				s.latest = -1
			}
			if sl.state == slotComplete {
				s.stats.Superseded++
			}
			sl.state = slotRecycling
			s.mu.Unlock()
			s.recycle(0)
			s.mu.Lock()
			sl.state = slotWriting
			s.mu.Unlock()
			return &sl.writer, true
		}
	}
	s.stats.Skipped++
	s.mu.Unlock()
	return nil, false
}

func (s *Slots) checkWriter(w *FrameWriter, op string) {
	if w == nil || w.owner != s || s.slots[w.slot].state != slotWriting {
		s.mu.Unlock()
		panic("render2d: Slots." + op + ": writer is not in preparation from these slots")
	}
}

// Publish completes the frame written through w and makes it the newest
// complete frame. A complete frame the platform had not claimed yet is
// superseded and will be recycled on the graphics thread. w must not be
// used afterwards. It panics if w was not lent by s.Begin or was already
// published or discarded.
func (s *Slots) Publish(w *FrameWriter) {
	s.mu.Lock()
	s.checkWriter(w, "Publish")
	if s.latest >= 0 && s.slots[s.latest].state == slotComplete {
		s.slots[s.latest].state = slotStale
		s.stats.Superseded++
	}
	s.seq++
	w.frame.Sequence = s.seq
	s.slots[w.slot].state = slotComplete
	s.latest = w.slot
	s.stats.Published++
	s.mu.Unlock()
}

// Discard abandons the frame written through w (for example when
// preparation failed); it is recycled on the graphics thread like a
// superseded frame. It panics under the same conditions as Publish.
func (s *Slots) Discard(w *FrameWriter) {
	s.mu.Lock()
	s.checkWriter(w, "Discard")
	s.slots[w.slot].state = slotStale
	s.mu.Unlock()
}

// Acquire recycles frames that left use and returns the frame the platform
// should render: the newest complete one (fresh is true, and the previously
// held frame is recycled) or, when nothing new was published, the frame it
// already holds again (fresh is false). It returns nil before the first
// publication. Call it on the graphics thread; the frame stays valid and
// unchanged until the next Acquire or RecycleAll.
func (s *Slots) Acquire() (f *Frame, fresh bool) {
	var todo [3]int
	n := 0
	s.mu.Lock()
	for i := range s.slots {
		if s.slots[i].state == slotStale {
			s.slots[i].state = slotRecycling
			todo[n] = i
			n++
		}
	}
	if s.latest >= 0 && s.slots[s.latest].state == slotComplete {
		if s.held >= 0 {
			s.slots[s.held].state = slotRecycling
			todo[n] = s.held
			n++
		}
		s.held = s.latest
		s.slots[s.held].state = slotHeld
		s.stats.Claimed++
		fresh = true
	}
	if s.held >= 0 {
		f = &s.slots[s.held].frame
	}
	s.mu.Unlock()
	s.finish(todo[:n])
	return f, fresh
}

// RecycleAll recycles every retained frame, including the held one and one
// left in preparation, so that the release hook sees them all while the
// graphics context is still current. Call it on the graphics thread at
// shutdown, after the preparing goroutine has stopped; the slots may be
// used again afterwards.
func (s *Slots) RecycleAll() {
	var todo [3]int
	n := 0
	s.mu.Lock()
	for i := range s.slots {
		if st := s.slots[i].state; st != slotFree && st != slotRecycling {
			s.slots[i].state = slotRecycling
			todo[n] = i
			n++
		}
	}
	s.held, s.latest = -1, -1
	s.mu.Unlock()
	s.finish(todo[:n])
}

func (s *Slots) finish(idx []int) {
	if len(idx) == 0 {
		return
	}
	for _, i := range idx {
		s.recycle(i)
	}
	s.mu.Lock()
	for _, i := range idx {
		s.slots[i].state = slotFree
	}
	s.mu.Unlock()
}

// recycle runs the release hook and clears slot i. The slot is in
// slotRecycling, so nobody else touches it.
func (s *Slots) recycle(i int) {
	f := &s.slots[i].frame
	if s.opts.Release != nil {
		s.opts.Release(f)
	}
	f.Reset()
	s.mu.Lock()
	s.stats.Recycled++
	s.mu.Unlock()
}

// Stats returns the counters so far. Any goroutine may call it.
func (s *Slots) Stats() SlotStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}
