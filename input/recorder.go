package input

import "github.com/metronome-go/metronome/timing"

// Source produces poll snapshots. The runtime calls Poll on the platform
// thread (the thread that owns the window) when polling is due
// ([Queue.PollDue]), into a snapshot of its own that it then hands to
// [Queue.PushPoll]. Poll resets dst and fills it with the instant now,
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
//   - losing focus releases every button that is down and centres every
//     gamepad axis (synthetic records stamped with the focus change, before
//     the focus record), because the platform stops reporting releases to
//     an unfocused window and a key would otherwise stay down forever;
//   - a gamepad disconnect likewise releases the gamepad's buttons and
//     centres its axes first;
//   - axis values are kept within the axis's range, and NaN axis values
//     and content scales are dropped;
//   - a cursor position, axis value, size, content scale, focus,
//     visibility, window mode or connection equal to the current one
//     records nothing.
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

// Ignored returns how many impossible observations were dropped: a press of
// a button already down or a release of one already up, an invalid button
// or axis, a NaN axis value or content scale.
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
	if s.CursorX != r.state.CursorX || s.CursorY != r.state.CursorY {
		r.add(Record{Time: t, Kind: RecordCursor, X: s.CursorX, Y: s.CursorY, Synthetic: true})
	}
	if s.Gamepad.Connected != r.state.Gamepad.Connected {
		r.add(Record{Time: t, Kind: RecordGamepad, Connected: s.Gamepad.Connected, Synthetic: true})
	}
	for a := Axis(1); a < axisLimit; a++ {
		if v := a.clamp(s.Gamepad.Axes[a]); v != r.state.Gamepad.Axes[a] {
			r.add(Record{Time: t, Kind: RecordAxis, Axis: a, X: float64(v), Synthetic: true})
		}
	}
	r.records = appendWindowRecords(r.records, &r.state.Window, s.Window, t)
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

// Axis records that gamepad axis a moved to v at t. The value is limited to
// the axis's [Axis.Range]; an invalid axis or a NaN value is dropped and
// counted in [Recorder.Ignored].
func (r *Recorder) Axis(t timing.Instant, a Axis, v float32) {
	if !a.Valid() || v != v {
		r.ignored++
		return
	}
	if v = a.clamp(v); v == r.state.Gamepad.Axes[a] {
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordAxis, Axis: a, X: float64(v)})
}

// Gamepad records that the gamepad was connected or disconnected at t. A
// disconnect first releases the gamepad buttons that are down and centres
// its axes, with synthetic records, since a gamepad that is gone reports
// nothing more.
func (r *Recorder) Gamepad(t timing.Instant, connected bool) {
	if connected == r.state.Gamepad.Connected {
		return
	}
	t = r.stamp(t)
	if !connected {
		r.releaseAll(t, Gamepad)
	}
	r.add(Record{Time: t, Kind: RecordGamepad, Connected: connected})
}

// Focus records a focus change at t. Losing focus first releases every
// button that is down and centres every axis, with synthetic records.
func (r *Recorder) Focus(t timing.Instant, focused bool) {
	if focused == r.state.Window.Focused {
		return
	}
	t = r.stamp(t)
	if !focused {
		r.releaseAll(t, NoDevice)
	}
	r.add(Record{Time: t, Kind: RecordFocus, Focused: focused})
}

// releaseAll releases the buttons down (of device d, or all for NoDevice)
// and centres the axes, with synthetic records stamped t.
func (r *Recorder) releaseAll(t timing.Instant, d Device) {
	var buf [ButtonCount]Button
	down := r.state.Down
	for _, b := range down.AppendTo(buf[:0]) {
		if d == NoDevice || b.Device() == d {
			r.add(Record{Time: t, Kind: RecordRelease, Button: b, Synthetic: true})
		}
	}
	for a := Axis(1); a < axisLimit; a++ {
		if r.state.Gamepad.Axes[a] != 0 {
			r.add(Record{Time: t, Kind: RecordAxis, Axis: a, Synthetic: true})
		}
	}
}

// WindowSize records that the window's logical size became w x h at t.
func (r *Recorder) WindowSize(t timing.Instant, w, h int) {
	if (Size{w, h}) == r.state.Window.Size {
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordWindowSize, Width: int32(w), Height: int32(h)})
}

// FramebufferSize records that the framebuffer became w x h pixels at t.
func (r *Recorder) FramebufferSize(t timing.Instant, w, h int) {
	if (Size{w, h}) == r.state.Window.Framebuffer {
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordFramebufferSize, Width: int32(w), Height: int32(h)})
}

// ContentScale records that the window's content scale became (x, y) at
// t. A NaN scale is dropped and counted in [Recorder.Ignored].
func (r *Recorder) ContentScale(t timing.Instant, x, y float32) {
	if x != x || y != y {
		r.ignored++
		return
	}
	if (Scale{x, y}) == r.state.Window.Scale {
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordContentScale, X: float64(x), Y: float64(y)})
}

// WindowHidden records that the window was hidden (true) or shown at t.
func (r *Recorder) WindowHidden(t timing.Instant, hidden bool) {
	if hidden == r.state.Window.Hidden {
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordHidden, Hidden: hidden})
}

// WindowMinimized records that the window was minimised (true) or
// restored at t.
func (r *Recorder) WindowMinimized(t timing.Instant, minimized bool) {
	if minimized == r.state.Window.Minimized {
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordMinimized, Minimized: minimized})
}

// WindowFullscreen records that the window went fullscreen (true) or back
// to a window at t.
func (r *Recorder) WindowFullscreen(t timing.Instant, fullscreen bool) {
	if fullscreen == r.state.Window.Fullscreen {
		return
	}
	r.add(Record{Time: r.stamp(t), Kind: RecordFullscreen, Fullscreen: fullscreen})
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

// appendWindowRecords appends the synthetic records that take *from to to,
// stamped t, and updates *from. A NaN content scale is not a scale: it
// keeps the previous one.
func appendWindowRecords(dst []Record, from *Window, to Window, t timing.Instant) []Record {
	if s := to.Scale; s.X != s.X || s.Y != s.Y {
		to.Scale = from.Scale
	}
	if to.Size != from.Size {
		dst = append(dst, Record{Time: t, Kind: RecordWindowSize, Width: int32(to.Size.Width), Height: int32(to.Size.Height), Synthetic: true})
	}
	if to.Framebuffer != from.Framebuffer {
		dst = append(dst, Record{Time: t, Kind: RecordFramebufferSize, Width: int32(to.Framebuffer.Width), Height: int32(to.Framebuffer.Height), Synthetic: true})
	}
	if to.Scale != from.Scale {
		dst = append(dst, Record{Time: t, Kind: RecordContentScale, X: float64(to.Scale.X), Y: float64(to.Scale.Y), Synthetic: true})
	}
	if to.Focused != from.Focused {
		dst = append(dst, Record{Time: t, Kind: RecordFocus, Focused: to.Focused, Synthetic: true})
	}
	if to.Hidden != from.Hidden {
		dst = append(dst, Record{Time: t, Kind: RecordHidden, Hidden: to.Hidden, Synthetic: true})
	}
	if to.Minimized != from.Minimized {
		dst = append(dst, Record{Time: t, Kind: RecordMinimized, Minimized: to.Minimized, Synthetic: true})
	}
	if to.Fullscreen != from.Fullscreen {
		dst = append(dst, Record{Time: t, Kind: RecordFullscreen, Fullscreen: to.Fullscreen, Synthetic: true})
	}
	*from = to
	return dst
}

// WindowSync keeps the window facts of a stream of snapshots equal to the
// platform's own samples. A runtime whose display reports the window polls
// the input source, then calls Apply with the window it sampled in the same
// poll: where the source's records disagree (a source that records no
// window events, or records only some of them, or a change it has not seen
// yet), synthetic window records stamped with the snapshot's time make them
// agree. The window then travels in the same stream as the input, so every
// tick's [Tick.Window] belongs to the polls it consumed, and a source need
// record no window fact at all. The zero value starts from the zero Window.
//
// A WindowSync belongs to the goroutine that polls.
type WindowSync struct {
	window Window // as of the snapshots seen so far
}

// Apply brings s in line with win, the window sampled with s: afterwards
// s.State.Window is win and the snapshots still chain (see [Snapshot]),
// whatever the source recorded. A NaN content scale in win keeps the
// previous scale.
func (ws *WindowSync) Apply(s *Snapshot, win Window) {
	for i := range s.Records {
		ws.window.apply(&s.Records[i])
	}
	if win != ws.window {
		s.Records = appendWindowRecords(s.Records, &ws.window, win, s.Time)
	}
	// The source's own State may lag behind the samples (a resize it has
	// not seen yet): the chain is the stream's, so the State is too.
	s.State.Window = ws.window
}
