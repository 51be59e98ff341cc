package inspect

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// What a Replay keeps of every tick to run it again and to show it on the
// timeline: the runtime's update and statistics, the window, the input's
// interval and records, the entity count, the stop request and the
// markers. Kept as they came (a runtime.TickContext, an input span and a
// timeline Tick) they took about 600 bytes a tick, 21 MiB for ten minutes
// at 60 Hz. Consecutive ticks differ in a few counters that mostly grow
// by the same step each tick, so the log stores each tick as the second
// difference of its 64-bit words against the two ticks before: a bitmap
// of the words whose difference is not zero, then those as varints. A
// tick of a steady session takes a few bytes. Records and markers, which
// only some ticks have, go into flat slices the words index.
//
// The words are the bytes of timing.Update, timing.Stats and input.Window,
// copied whole: those hold no pointers (NewReplay checks, through
// pointerFree), so copying their bytes is copying their values.

// logBlock is how many ticks a block of the log holds: reading tick t
// decodes from its block's start, at most logBlock-1 ticks before it.
const logBlock = 64

const (
	updateBytes = int(unsafe.Sizeof(timing.Update{}))
	statsBytes  = int(unsafe.Sizeof(timing.Stats{}))
	windowBytes = int(unsafe.Sizeof(input.Window{}))
	rawWords    = (updateBytes + statsBytes + windowBytes + 7) / 8
	// The words after the raw ones: the input span's start, end and
	// polls, the end of its records in the flat slice, the entity count,
	// the stop request and the end of its markers.
	extraWords = 7
	logWords   = rawWords + extraWords
	bitmapLen  = (logWords + 7) / 8
)

// loggedTick is one tick as the log gives it back.
type loggedTick struct {
	ctx              runtime.TickContext // Input, Stop and Owed left zero
	start, end       timing.Instant
	polls            int
	recFrom, recTo   int // its records: tickLog.records[recFrom:recTo]
	entities         int
	stop             bool
	markFrom, markTo int
}

// tickLog is the compact per-tick store.
type tickLog struct {
	data    []byte
	blocks  []blockStart
	n       uint64
	prev    [logWords]uint64 // the last appended tick's words
	prevD   [logWords]uint64 // and its first differences
	records []input.Record
	marks   []ecs.Mark
}

// blockStart is where a block's first tick starts in the log's data, and
// the flat slices' lengths before it.
type blockStart struct{ off, recs, marks int }

// words fills w from t.
func (t *loggedTick) words(w *[logWords]uint64) {
	*w = [logWords]uint64{}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), rawWords*8)
	copy(b, unsafe.Slice((*byte)(unsafe.Pointer(&t.ctx.Update)), updateBytes))
	copy(b[updateBytes:], unsafe.Slice((*byte)(unsafe.Pointer(&t.ctx.Timing)), statsBytes))
	copy(b[updateBytes+statsBytes:], unsafe.Slice((*byte)(unsafe.Pointer(&t.ctx.Window)), windowBytes))
	x := w[rawWords:]
	x[0], x[1], x[2], x[3] = uint64(t.start), uint64(t.end), uint64(t.polls), uint64(t.recTo)
	x[4], x[5], x[6] = uint64(t.entities), b2u(t.stop), uint64(t.markTo)
}

// fromWords fills t from w; recFrom and markFrom are the previous tick's
// ends.
func (t *loggedTick) fromWords(w *[logWords]uint64, recFrom, markFrom int) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), rawWords*8)
	t.ctx = runtime.TickContext{}
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&t.ctx.Update)), updateBytes), b)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&t.ctx.Timing)), statsBytes), b[updateBytes:])
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&t.ctx.Window)), windowBytes), b[updateBytes+statsBytes:])
	x := w[rawWords:]
	t.start, t.end, t.polls, t.recTo = timing.Instant(x[0]), timing.Instant(x[1]), int(x[2]), int(x[3])
	t.entities, t.stop, t.markTo = int(x[4]), x[5] != 0, int(x[6])
	t.recFrom, t.markFrom = recFrom, markFrom
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// add appends tick t (its ctx, span and counts; recFrom, recTo,
// markFrom and markTo are set from the flat slices: the caller notes
// their lengths in recFrom and markFrom, then appends the tick's).
func (l *tickLog) add(t *loggedTick) {
	t.recTo, t.markTo = len(l.records), len(l.marks)
	if l.n%logBlock == 0 {
		l.blocks = append(l.blocks, blockStart{len(l.data), t.recFrom, t.markFrom})
		l.prev, l.prevD = [logWords]uint64{}, [logWords]uint64{}
	}
	var w [logWords]uint64
	t.words(&w)
	var bitmap [bitmapLen]byte
	at := len(l.data)
	l.data = append(l.data, bitmap[:]...)
	for i := range w {
		d := w[i] - l.prev[i]
		dd := d - l.prevD[i]
		l.prev[i], l.prevD[i] = w[i], d
		if dd != 0 {
			l.data[at+i/8] |= 1 << (i % 8)
			l.data = binary.AppendUvarint(l.data, dd<<1^uint64(int64(dd)>>63))
		}
	}
	l.n++
}

// logCursor reads the log in order from any tick.
type logCursor struct {
	next          uint64 // the tick the next read gives
	off           int
	prev, prevD   [logWords]uint64
	recTo, markTo int
}

// read decodes tick t into out, from the cursor's place when t is the
// next tick, else from t's block.
func (l *tickLog) read(c *logCursor, t uint64, out *loggedTick) error {
	if t >= l.n {
		return fmt.Errorf("inspect: tick %d is beyond the log's %d", t, l.n)
	}
	if c.next != t {
		b := l.blocks[t/logBlock]
		*c = logCursor{next: t / logBlock * logBlock, off: b.off, recTo: b.recs, markTo: b.marks}
	}
	for {
		var w [logWords]uint64
		if c.next%logBlock == 0 {
			c.prev, c.prevD = [logWords]uint64{}, [logWords]uint64{}
		}
		bitmap := l.data[c.off : c.off+bitmapLen]
		off := c.off + bitmapLen
		for i := range w {
			var dd uint64
			if bitmap[i/8]&(1<<(i%8)) != 0 {
				u, k := binary.Uvarint(l.data[off:])
				if k <= 0 {
					return fmt.Errorf("inspect: the tick log is damaged at tick %d", c.next)
				}
				off += k
				dd = u>>1 ^ -(u & 1)
			}
			d := c.prevD[i] + dd
			w[i] = c.prev[i] + d
			c.prev[i], c.prevD[i] = w[i], d
		}
		c.off = off
		tick := c.next
		c.next++
		if tick == t {
			out.fromWords(&w, c.recTo, c.markTo)
			c.recTo, c.markTo = out.recTo, out.markTo
			return nil
		}
		c.recTo, c.markTo = int(w[rawWords+3]), int(w[rawWords+6])
	}
}

// bytes is what the log holds.
func (l *tickLog) bytes() int {
	return cap(l.data) + cap(l.blocks)*int(unsafe.Sizeof(blockStart{})) +
		cap(l.records)*int(unsafe.Sizeof(input.Record{})) + cap(l.marks)*int(unsafe.Sizeof(ecs.Mark{}))
}

// pointerFree reports whether a value of type t holds no pointer: its
// bytes are all of it.
func pointerFree(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return pointerFree(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !pointerFree(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// logTypesErr says which of the logged types holds a pointer, if one does.
func logTypesErr() error {
	for _, t := range []reflect.Type{reflect.TypeFor[timing.Update](), reflect.TypeFor[timing.Stats](), reflect.TypeFor[input.Window]()} {
		if !pointerFree(t) {
			return fmt.Errorf("inspect: %v holds a pointer: the tick log copies its bytes and cannot keep it", t)
		}
	}
	return nil
}
