package audio

import (
	"errors"
	"io"
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/metronome-go/metronome/media"
)

// Stream is music played from its file as it goes: never decoded whole.
// A pump goroutine ([Mixer.Pump]) decodes ahead into a buffer of
// Options.StreamBuffer and converts to the mixer's rate and to stereo;
// the mixer only copies from that buffer, so a slow disk or decoder
// starves the stream (counted in Stats.Starved) but never the device.
// Open one with [Player.OpenStream], play it once with
// [Player.PlayStream], and Close it when done (a stream that finished
// playing is closed by the pump).
type Stream struct {
	m    *Mixer
	name string
	open func() (decoder, error) // reopens the file, for looping

	// mu is held by the pump while decoding and by Close. The mixer never
	// takes it.
	mu       sync.Mutex
	dec      decoder
	channels int
	step     uint64 // source frames per output frame, 32.32
	wpos     uint64 // position in win, 32.32
	in       []float32
	win      []float32 // decoded source frames, as stereo
	chunk    []float32 // resampled output before it goes into the ring
	srcEnded bool
	empty    int // consecutive reads that returned nothing

	ring ring
	err  atomic.Pointer[media.Error]

	played, loop atomic.Bool
	armed        atomic.Bool // set after loop: the end of the file may be handled
	eof          atomic.Bool // producer: nothing more will be written
	finished     atomic.Bool // mixer: the voice ended
	closed       atomic.Bool
}

// Name returns the file name the stream was opened from.
func (st *Stream) Name() string {
	if st == nil {
		return ""
	}
	return st.name
}

// Err returns the decoding error that ended the stream early, or nil.
func (st *Stream) Err() error {
	if st == nil {
		return nil
	}
	if e := st.err.Load(); e != nil {
		return e
	}
	return nil
}

func (st *Stream) failed() bool { return st.err.Load() != nil }

// Close releases the stream's file. A voice still playing it runs out of
// buffered audio and ends. Safe from any goroutine and to repeat.
func (st *Stream) Close() error {
	if st == nil {
		return nil
	}
	st.closed.Store(true)
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.closeLocked()
}

func (st *Stream) closeLocked() error {
	if st.dec == nil {
		return nil
	}
	err := st.dec.close()
	st.dec = nil
	if !st.eof.Load() {
		st.eof.Store(true)
	}
	return err
}

// OpenStream opens name in fsys for streaming, checks its format and
// decodes the first buffer, so that playback can start without a gap.
// Safe from any goroutine.
func (p *Player) OpenStream(fsys fs.FS, name string) (*Stream, error) {
	if p == nil || p.m == nil {
		return nil, nil
	}
	m := p.m
	open := func() (decoder, error) { return openFileDecoder(fsys, name) }
	dec, err := open()
	if err != nil {
		return nil, &media.Error{Pkg: "audio", Op: "open stream", Path: name, Err: err}
	}
	rate, ch := dec.format()
	st := &Stream{
		m:        m,
		name:     name,
		open:     open,
		dec:      dec,
		channels: ch,
		step:     stepFor(rate, m.rate, 1),
		in:       make([]float32, 1024*ch),
		win:      make([]float32, 0, 2*(2048+4)),
		chunk:    make([]float32, 2*512),
	}
	frames := uint64(1)
	for frames < uint64(DurationFrames(m.opts.StreamBuffer, m.rate)) {
		frames <<= 1
	}
	st.ring.init(frames)
	st.mu.Lock()
	st.fillLocked()
	st.mu.Unlock()
	if e := st.err.Load(); e != nil {
		st.Close()
		return nil, e
	}
	m.streamsMu.Lock()
	m.streams = append(m.streams, st)
	m.streamsMu.Unlock()
	return st, nil
}

// Pump decodes ahead for every open stream until its buffer is full, and
// closes streams that finished playing. Call it from one goroutine, the
// pump's, which the device layer owns; it waits for nothing but decoding.
// Offline tests call it before each Render.
func (m *Mixer) Pump() {
	m.streamsMu.Lock()
	m.pumpList = append(m.pumpList[:0], m.streams...)
	m.streamsMu.Unlock()
	for _, st := range m.pumpList {
		if st.finished.Load() || st.closed.Load() {
			st.Close()
			m.streamsMu.Lock()
			for i, s := range m.streams {
				if s == st {
					m.streams = append(m.streams[:i], m.streams[i+1:]...)
					break
				}
			}
			m.streamsMu.Unlock()
			continue
		}
		st.mu.Lock()
		st.fillLocked()
		st.mu.Unlock()
	}
	clear(m.pumpList)
}

// fillLocked decodes and resamples into the ring until it is full or the
// source ends.
func (st *Stream) fillLocked() {
	if st.dec == nil || st.eof.Load() {
		return
	}
	for {
		space := st.ring.writable()
		if space == 0 {
			return
		}
		n := 0
		want := min(space, len(st.chunk)/2)
		for n < want {
			i := st.wpos >> 32
			if i+1 >= uint64(len(st.win)/2) && !st.srcEnded {
				if !st.more() {
					st.ring.write(st.chunk[:2*n])
					return // an error recorded, or waiting at the end
				}
				continue
			}
			if i >= uint64(len(st.win)/2) {
				break // source ended and fully played out
			}
			frac := float32(uint32(st.wpos)) * (1.0 / one)
			j := min(i+1, uint64(len(st.win)/2)-1)
			l0, r0 := st.win[2*i], st.win[2*i+1]
			st.chunk[2*n] = l0 + (st.win[2*j]-l0)*frac
			st.chunk[2*n+1] = r0 + (st.win[2*j+1]-r0)*frac
			n++
			st.wpos += st.step
		}
		st.ring.write(st.chunk[:2*n])
		if n < want {
			st.eof.Store(true)
			return
		}
	}
}

// more appends decoded frames to the window, dropping the ones already
// passed. At the end of the source it rewinds when looping, or marks the
// source ended. It reports false after recording a decoding error, or
// when it must wait at the end of a stream not yet played.
func (st *Stream) more() bool {
	if i := st.wpos >> 32; i > 0 {
		keep := copy(st.win, st.win[2*i:])
		st.win = st.win[:keep]
		st.wpos -= i << 32
	}
	n, err := st.dec.read(st.in)
	frames := n / st.channels
	for k := 0; k < frames; k++ {
		if st.channels == 1 {
			x := st.in[k]
			st.win = append(st.win, x, x)
		} else {
			st.win = append(st.win, st.in[2*k], st.in[2*k+1])
		}
	}
	if n == 0 && err == nil {
		if st.empty++; st.empty > maxEmptyReads {
			return st.fail(media.Detail(media.ErrCorrupt, "decoder made no progress in %d reads", maxEmptyReads))
		}
	} else {
		st.empty = 0
	}
	switch {
	case err == nil:
	case errors.Is(err, io.EOF):
		if !st.armed.Load() {
			// Not played yet, so whether it loops is unknown: wait at the
			// end (the decoder keeps answering EOF) until PlayStream says.
			return false
		}
		if !st.loop.Load() {
			st.srcEnded = true
			return true
		}
		st.dec.close()
		dec, oerr := st.open()
		if oerr != nil {
			return st.fail(oerr)
		}
		st.dec = dec
		if frames == 0 && len(st.win) == 0 {
			// A file that decodes to nothing would loop forever.
			return st.fail(media.Detail(media.ErrCorrupt, "stream has no audio to loop"))
		}
	default:
		return st.fail(err)
	}
	return true
}

// maxEmptyReads bounds a decoder that keeps returning nothing without an
// error, so a damaged file cannot spin the pump.
const maxEmptyReads = 64

func (st *Stream) fail(err error) bool {
	st.err.Store(&media.Error{Pkg: "audio", Op: "stream", Path: st.name, Err: err})
	st.eof.Store(true)
	return false
}

// ring is a single-producer, single-consumer ring of stereo frames. The
// producer (the pump) publishes with a store of w after writing; the
// consumer (the mixer) publishes with a store of r after reading.
type ring struct {
	buf  []float32
	size uint64 // frames, a power of two
	_    [48]byte
	w    atomic.Uint64
	_    [56]byte
	r    atomic.Uint64
}

func (q *ring) init(frames uint64) {
	q.buf = make([]float32, 2*frames)
	q.size = frames
}

func (q *ring) frames() int   { return int(q.size) }
func (q *ring) readable() int { return int(q.w.Load() - q.r.Load()) }
func (q *ring) writable() int { return int(q.size - (q.w.Load() - q.r.Load())) }

// peek returns n readable frames as up to two spans.
func (q *ring) peek(n int) (a, b []float32) {
	start := q.r.Load() & (q.size - 1)
	end := start + uint64(n)
	if end <= q.size {
		return q.buf[2*start : 2*end], nil
	}
	return q.buf[2*start:], q.buf[:2*(end-q.size)]
}

func (q *ring) advance(n int) { q.r.Store(q.r.Load() + uint64(n)) }

// write copies stereo frames in; the caller checked writable.
func (q *ring) write(src []float32) {
	w := q.w.Load()
	start := w & (q.size - 1)
	k := copy(q.buf[2*start:], src)
	copy(q.buf, src[k:])
	q.w.Store(w + uint64(len(src)/2))
}
