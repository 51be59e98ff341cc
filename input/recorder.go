package input

import "github.com/metronome-go/metronome/timing"

// Source produces poll snapshots. The runtime calls Poll on the platform
// thread (the thread that owns the window) when polling is due, usually
// through [Queue.Poll]. Poll resets dst and fills it with the instant now,
// the current State and every record observed since the previous Poll, in
// observation order, so that consecutive snapshots chain as [Snapshot]
// describes. Poll must not block and should not allocate in steady state.
//
// The GLFW source lives in input/glfwinput; input/inputtest has a scripted
// source and the conformance suite every source passes.
type Source interface {
	Poll(now timing.Instant, dst *Snapshot)
}

// Recorder turns platform callbacks into records and snapshots that obey the
// rules of [Snapshot]. Sources embed one and call its methods from their
// callbacks, then [Recorder.Flush] from Poll.
//
// A Recorder keeps the rules so that sources cannot break them:
//   - timestamps never decrease: a time earlier than the last record's is
//     raised to it;
//   - edges alternate per button: a press of a button already down, or a
//     release of one already up, is dropped and counted in
//     [Recorder.Ignored];
//   - losing focus releases every button that is down (synthetic releases
//     stamped with the focus change, before the focus record), because the
//     platform stops reporting releases to an unfocused window and a key
//     would otherwise stay down forever;
//   - a cursor position, size or focus equal to the current one records
//     nothing.
//
// A Recorder is not safe for concurrent use: it belongs to the platform
// thread. The zero value is ready to use and starts from the zero State.
type Recorder struct {
	state   State
	records []Record
	last    timing.Instant
	ignored uint64
}

// State returns the state after every record so far.
func (r *Recorder) State() State { return r.state }

// Pending returns the number of records not yet flushed.
func (r *Recorder) Pending() int { return len(r.records) }

// Ignored returns how many impossible edges were dropped (a press of a
// button already down or a release of one already up).
func (r *Recorder) Ignored() uint64 { return r.ignored }

func (r *Recorder) stamp(t timing.Instant) timing.Instant {
	if t < r.last {
		return r.last
	}
	r.last = t
	return t
}

func (r *Recorder) add(rec Record) {
	r.state.Apply(&rec)
	r.records = append(r.records, rec)
}

// Init describes the platform's current state at t, for example when a
// source attaches to a window: every field of s that differs from the
// recorder's state becomes a synthetic record. Buttons down in s are
// recorded as synthetic presses.
func (r *Recorder) Init(t timing.Instant, s State) {
	t = r.stamp(t)
	var buf [ButtonCount]Button
	cur := r.state.Down
	for _, b := range cur.AppendTo(buf[:0]) {
		if !s.Down.Has(b) {
			r.add(Record{Time: t, Kind: RecordRelease, Button: b, Synthetic: true})
		}
	}
	for _, b := range s.Down.AppendTo(buf[:0]) {
		if !cur.Has(b) {
			r.add(Record{Time: t, Kind: RecordPress, Button: b, Synthetic: true})
		}
	}
	if s.WindowWidth != r.state.WindowWidth || s.WindowHeight != r.state.WindowHeight {
		r.add(Record{Time: t, Kind: RecordWindowSize, Width: int32(s.WindowWidth), Height: int32(s.WindowHeight), Synthetic: true})
	}
	if s.FramebufferWidth != r.state.FramebufferWidth || s.FramebufferHeight != r.state.FramebufferHeight {
		r.add(Record{Time: t, Kind: RecordFramebufferSize, Width: int32(s.FramebufferWidth), Height: int32(s.FramebufferHeight), Synthetic: true})
	}
	if s.CursorX != r.state.CursorX || s.CursorY != r.state.CursorY {
		r.add(Record{Time: t, Kind: RecordCursor, X: s.CursorX, Y: s.CursorY, Synthetic: true})
	}
	if s.Focused != r.state.Focused {
		r.add(Record{Time: t, Kind: RecordFocus, Focused: s.Focused, Synthetic: true})
	}
}

// Press records that b went down at t.
func (r *Recorder) Press(t timing.Instant, b Button) {
	if !b.Valid() || r.state.Down.Has(b) {
		r.ignored++
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordPress, Button: b})
}

// Release records that b went up at t.
func (r *Recorder) Release(t timing.Instant, b Button) {
	if !b.Valid() || !r.state.Down.Has(b) {
		r.ignored++
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordRelease, Button: b})
}

// Cursor records that the cursor moved to (x, y) at t.
func (r *Recorder) Cursor(t timing.Instant, x, y float64) {
	if x == r.state.CursorX && y == r.state.CursorY {
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordCursor, X: x, Y: y})
}

// Scroll records a scroll of (dx, dy) at t. A zero scroll records nothing.
func (r *Recorder) Scroll(t timing.Instant, dx, dy float64) {
	if dx == 0 && dy == 0 {
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordScroll, X: dx, Y: dy})
}

// Text records that c was typed at t.
func (r *Recorder) Text(t timing.Instant, c rune) {
	r.add(Record{Time: r.stamp(t), Kind: RecordText, Rune: c})
}

// Focus records a focus change at t. Losing focus first releases every
// button that is down, with synthetic records.
func (r *Recorder) Focus(t timing.Instant, focused bool) {
	if focused == r.state.Focused {
		return
	}
	t = r.stamp(t)
	if !focused {
		var buf [ButtonCount]Button
		down := r.state.Down
		for _, b := range down.AppendTo(buf[:0]) {
			r.add(Record{Time: t, Kind: RecordRelease, Button: b, Synthetic: true})
		}
	}
	r.add(Record{Time: t, Kind: RecordFocus, Focused: focused})
}

// WindowSize records that the window's logical size became w x h at t.
func (r *Recorder) WindowSize(t timing.Instant, w, h int) {
	if w == r.state.WindowWidth && h == r.state.WindowHeight {
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordWindowSize, Width: int32(w), Height: int32(h)})
}

// FramebufferSize records that the framebuffer became w x h pixels at t.
func (r *Recorder) FramebufferSize(t timing.Instant, w, h int) {
	if w == r.state.FramebufferWidth && h == r.state.FramebufferHeight {
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordFramebufferSize, Width: int32(w), Height: int32(h)})
}

// Flush moves every pending record into dst, which it resets first, and
// completes the snapshot with the current State. The snapshot's Time is now,
// or the last record's time if that is later, so that no record postdates
// its snapshot. The recorder keeps its buffer's capacity.
func (r *Recorder) Flush(now timing.Instant, dst *Snapshot) {
	dst.Records = append(dst.Records[:0], r.records...)
	dst.State = r.state
	dst.Time = r.stamp(now)
	clear(r.records)
	r.records = r.records[:0]
}
