package recording

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/binio"
	"github.com/metronome-go/metronome/timing"
)

// readBlock is the most the reader asks its source for at a time beyond
// what it needs, so the buffer grows with the data actually there, never
// with a length a corrupt frame claims.
const readBlock = 64 << 10

// errNoData is the source's end: no more data now.
var errNoData = errors.New("no more data")

// Reader decodes a recording: the header at once, then ticks, checkpoints
// and the end marker in order. It decodes into storage it reuses, so a
// replay allocates nothing per tick in steady state.
//
// A Reader can follow a recording that is still being written: when the
// data ends inside a chunk, [Reader.Next] returns an error wrapping
// [ErrIncomplete] and may be called again once the source has more. A
// Reader belongs to one goroutine.
type Reader struct {
	src    io.Reader
	name   string
	closer io.Closer
	h      Header

	in   []byte // read from src; in[off:] not consumed
	off  int
	base int64 // file offset of in[0]

	d       decoder // the current chunk's payload
	at      int64   // file offset of the payload
	seq     uint64  // the next chunk's number
	header  bool    // decoding the header: errors name no tick
	version uint64  // the recording's format version
	prefix  []byte  // the magic number and the version, under the header's checksum (version 4 on)

	s      stream
	timing timing.Stats
	tick   Tick
	cp     Checkpoint
	hook   Hook
	pacing Pacing
	net    NetFigures
	pres   Presents
	end    End
	ended  bool
	err    error // sticky: anything but ErrIncomplete
}

// Open opens the recording at path and reads its header. The reader's
// Close closes the file. A path that is not a regular file (a FIFO, which
// would block, a device, a directory) is refused unopened, with an error
// wrapping [ErrNotRecording].
func Open(path string) (*Reader, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, &Error{File: path, Offset: -1, Ticks: -1, Err: detail(ErrNotRecording, "not a regular file (%v): a recording is a file", st.Mode().Type())}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Offset: -1, Ticks: -1, Err: err}
	}
	r, err := NewReader(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closer = f
	return r, nil
}

// NewReader reads the magic number, the format version and the header
// from r. name is the file's name for errors. A source that ends inside
// the header gives an error wrapping [ErrIncomplete]; a writer writes the
// whole header before [NewWriter] returns, so a reader started after that
// never sees one.
func NewReader(r io.Reader, name string) (*Reader, error) {
	rd := &Reader{src: r, name: name, s: newStream(), header: true}
	if err := rd.readHeader(); err != nil {
		return nil, err
	}
	rd.header = false
	rd.seq = 1
	return rd, nil
}

// Current returns the storage of the ticks Next returns: after Next
// returned a *Tick, the tick; it stays the same pointer for the reader's
// life. A replay's simulation reads the tick being replayed through it
// (the players' confirmed input of a match) while the runtime drives the
// reader.
func (r *Reader) Current() *Tick { return &r.tick }

// Header returns the recording's header.
func (r *Reader) Header() Header { return r.h }

// Version returns the recording's format version, [OldestFormatVersion]
// to [FormatVersion]: a replay reads some fields as the version that wrote
// them meant them (Tick.Futures).
func (r *Reader) Version() uint64 { return r.version }

// Close closes the file of a reader from [Open]; otherwise it does
// nothing.
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	err := r.closer.Close()
	r.closer = nil
	return err
}

func (r *Reader) ticks() int64 {
	if r.header {
		return -1
	}
	return int64(r.s.ticks)
}

// corrupt makes a sticky error at file offset off.
func (r *Reader) corrupt(off int64, sentinel error, format string, args ...any) error {
	r.err = &Error{File: r.name, Offset: off, Ticks: r.ticks(), Err: detail(sentinel, format, args...)}
	return r.err
}

// short reports the end of the data at off: ErrIncomplete, or the source's
// own error, which sticks.
func (r *Reader) short(err error, off int64, format string, args ...any) error {
	if err != errNoData {
		r.err = &Error{File: r.name, Offset: off, Ticks: r.ticks(), Err: fmt.Errorf("reading: %w", err)}
		return r.err
	}
	return &Error{File: r.name, Offset: off, Ticks: r.ticks(), Err: detail(ErrIncomplete, format, args...)}
}

// ensure makes at least n unconsumed bytes available. It may move the
// buffer, so it is called only between chunks.
func (r *Reader) ensure(n int) error {
	idle := 0
	for len(r.in)-r.off < n {
		if r.off > 0 {
			k := copy(r.in, r.in[r.off:])
			r.in = r.in[:k]
			r.base += int64(r.off)
			r.off = 0
		}
		want := min(n-len(r.in), readBlock)
		if cap(r.in)-len(r.in) < want {
			grown := make([]byte, len(r.in), max(2*cap(r.in), len(r.in)+want))
			copy(grown, r.in)
			r.in = grown
		}
		k, err := r.src.Read(r.in[len(r.in):cap(r.in)])
		r.in = r.in[:len(r.in)+k]
		switch {
		case k > 0:
			idle = 0
		case err == io.EOF:
			return errNoData
		case err != nil:
			return err
		default:
			if idle++; idle > 100 {
				return errNoData
			}
		}
	}
	return nil
}

func (r *Reader) readHeader() error {
	if err := r.ensure(len(magic)); err != nil {
		got := r.in[r.off:]
		if err == errNoData && string(got) == string(magic[:len(got)]) {
			return r.short(err, 0, "the data ends after %d bytes, before the magic number %q", len(got), magic[:])
		}
		if err != errNoData {
			return r.short(err, 0, "")
		}
	}
	if got := r.in[:min(len(r.in), len(magic))]; string(got) != string(magic[:]) {
		return r.corrupt(0, ErrNotRecording, "not a Metronome recording (it starts with %q, a recording with %q)", got, magic[:])
	}
	n := 0
	for {
		if err := r.ensure(len(magic) + n + 1); err != nil {
			return r.short(err, int64(len(magic)), "the data ends inside the format version")
		}
		n++
		if r.in[len(magic)+n-1] < 0x80 {
			break
		}
		if n == binary.MaxVarintLen64 {
			return r.corrupt(int64(len(magic)), ErrCorrupt, "the format version is not a valid varint")
		}
	}
	v, k := binary.Uvarint(r.in[len(magic) : len(magic)+n])
	if k <= 0 {
		return r.corrupt(int64(len(magic)), ErrCorrupt, "the format version is not a valid varint")
	}
	// Checked before the version is believed, while r.in still starts
	// at the file's first byte.
	if v != FormatVersion && r.damagedVersion(n) {
		return r.corrupt(int64(len(magic)), ErrCorrupt, "the format version reads %d, but the header's checksum holds version %d: the version byte is damaged", v, FormatVersion)
	}
	if v < OldestFormatVersion || v > FormatVersion {
		return r.corrupt(int64(len(magic)), ErrVersion, "format version %d is not supported (this build reads %d to %d)", v, OldestFormatVersion, FormatVersion)
	}
	r.off = len(magic) + n
	r.version = v
	r.s.oldStats = v < 5
	r.s.v6 = v >= 6
	r.s.v9 = v >= 9
	if v >= 4 {
		r.prefix = append([]byte(nil), r.in[:r.off]...)
	}
	if err := r.loadChunk(); err != nil {
		return err
	}
	d := &r.d
	h := &r.h
	h.Framework = d.String("Header.Framework length", MaxStringLen)
	h.Game = d.String("Header.Game length", MaxStringLen)
	h.Mode = d.String("Header.Mode length", MaxStringLen)
	if v >= 4 {
		h.Package = d.String("Header.Package length", MaxStringLen)
		h.Title = d.String("Header.Title length", MaxStringLen)
	}
	if n := d.Length("Header.Config length", MaxConfigLen, 1); d.Err() == nil {
		h.Config = append([]byte(nil), d.Bytes(n)...)
	}
	h.Seed = d.U64()
	every := d.Uvarint()
	if d.Err() == nil && (every < 1 || every > MaxCheckpointEvery) {
		d.Failf("Header.CheckpointEvery %d is out of range (allowed: 1 to %d)", every, MaxCheckpointEvery)
	}
	h.CheckpointEvery = int(every)
	if v >= 6 {
		if players := d.Uvarint(); players != 0 && d.Err() == nil {
			actions, peer := d.Uvarint(), d.Varint()
			switch {
			case d.Err() != nil:
			case players > MaxPlayers:
				d.Failf("Header.Net.Players %d is out of range (allowed: 1 to %d)", players, MaxPlayers)
			case actions < 1 || actions > MaxActions:
				d.Failf("Header.Net.Actions %d is out of range (allowed: 1 to %d)", actions, MaxActions)
			case peer < -1 || peer > MaxPeer:
				d.Failf("Header.Net.Peer %d is out of range (allowed: -1 for a spectator, 0 to %d)", peer, MaxPeer)
			default:
				h.Net = &Net{Players: int(players), Actions: int(actions), Peer: int(peer)}
				r.s.actions = int(actions)
				r.s.players = make([]input.Stats, players*actions)
			}
		}
	}
	if d.Err() == nil && d.Left() != 0 {
		d.MarkHere()
		d.Failf("the header's chunk goes on for %d bytes after it", d.Left())
	}
	return r.check()
}

// check turns a decoding problem into the reader's sticky error.
func (r *Reader) check() error {
	if r.d.Err() == nil {
		return nil
	}
	r.err = &Error{File: r.name, Offset: r.at + int64(r.d.Mark()), Ticks: r.ticks(), Err: r.d.Err()}
	return r.err
}

// damagedVersion reports whether the header's chunk, read as this
// build's format with the version byte (n bytes after the magic number)
// set to FormatVersion, passes its checksums: then the version byte, not
// the format, is what is wrong. It reads no more than the header's chunk,
// and only before anything is consumed.
func (r *Reader) damagedVersion(n int) bool {
	if n != 1 {
		return false
	}
	at := len(magic) + n
	if r.ensure(at+frameLen) != nil {
		return false
	}
	prefix := append(append([]byte(nil), magic[:]...), byte(FormatVersion))
	lenBytes := r.in[at : at+4]
	ls := lengthSum(prefix, lenBytes)
	if ls != binary.LittleEndian.Uint32(r.in[at+4:]) {
		return false
	}
	size := frameLen + int(binary.LittleEndian.Uint32(lenBytes))
	if size > frameLen+MaxHeaderChunk || r.ensure(at+size) != nil {
		return false
	}
	return crc32.Update(ls, castagnoli, r.in[at+frameLen:at+size]) == binary.LittleEndian.Uint32(r.in[at+8:])
}

// loadChunk reads, checks and starts decoding the next chunk.
func (r *Reader) loadChunk() error {
	start := r.base + int64(r.off)
	fl := frameLen
	if r.version < 4 {
		fl = oldFrameLen
	}
	if err := r.ensure(fl); err != nil {
		return r.short(err, start, "the data ends inside the frame of chunk %d (%d of %d bytes)",
			r.seq, len(r.in)-r.off, fl)
	}
	lenBytes := r.in[r.off : r.off+4]
	n := binary.LittleEndian.Uint32(lenBytes)
	var ls uint32
	if r.version >= 4 {
		var prefix []byte
		if r.header {
			prefix = r.prefix
		}
		ls = lengthSum(prefix, lenBytes)
		if want := binary.LittleEndian.Uint32(r.in[r.off+4:]); ls != want {
			// Written with its chunk in one piece, a frame is never
			// torn apart from its length: this is damage.
			return r.corrupt(start, ErrCorrupt, "chunk %d: the length field (%d) fails its checksum (%#08x, the frame says %#08x)", r.seq, n, ls, want)
		}
	}
	limit := uint32(MaxChunk)
	if r.header && r.version >= 4 {
		limit = MaxHeaderChunk
	}
	if n < 1 || n > limit {
		return r.corrupt(start, ErrCorrupt, "chunk %d: length %d is out of range (allowed: 1 to %d)", r.seq, n, limit)
	}
	size := fl + int(n)
	if err := r.ensure(size); err != nil {
		return r.short(err, start, "the data ends inside chunk %d (%d of %d bytes)", r.seq, len(r.in)-r.off, size)
	}
	lenBytes = r.in[r.off : r.off+4] // ensure may have moved the buffer
	payload := r.in[r.off+fl : r.off+size]
	var sum, got uint32
	if r.version >= 4 {
		sum, got = binary.LittleEndian.Uint32(r.in[r.off+8:]), crc32.Update(ls, castagnoli, payload)
	} else {
		sum, got = binary.LittleEndian.Uint32(r.in[r.off+4:]), oldChunkSum(lenBytes, payload)
	}
	if got != sum {
		// A torn write leaves a bad last chunk; a bad chunk with data
		// after it is damage.
		err := r.ensure(size + 1)
		if err == nil {
			return r.corrupt(start, ErrCorrupt, "chunk %d: checksum %#08x does not match its contents (%#08x)", r.seq, sum, got)
		}
		return r.short(err, start, "chunk %d, the last, fails its checksum (a torn write)", r.seq)
	}
	r.d = decoder{binio.NewBareReader(r.in[r.off+fl:r.off+size], ErrCorrupt)}
	r.at = start + int64(fl)
	r.off += size
	if seq := r.d.Uvarint(); r.d.Err() == nil && seq != r.seq {
		r.d.Failf("chunk number %d where chunk %d was expected", seq, r.seq)
	}
	r.seq++
	return r.check()
}

// Next returns the next item: a *[Tick], a *[Checkpoint], a *[Hook], a
// *[Pacing], a *[NetFigures], a *[Presents] or an *[End].
// The value is reused by the next call; copy what must outlive it. After
// the end marker Next returns io.EOF. When the data stops before the end
// marker it returns an error wrapping [ErrIncomplete]: call again when the
// recording has grown. Any other error is final and names the byte
// offset.
func (r *Reader) Next() (Item, error) {
	if r.err != nil {
		return nil, r.err
	}
	for r.d.Left() == 0 {
		if r.ended {
			return nil, r.trailing()
		}
		if err := r.loadChunk(); err != nil {
			return nil, err
		}
	}
	d := &r.d
	h := d.Uvarint()
	var it Item
	switch {
	case d.Err() != nil:
	case h&1 == 0:
		r.s.tick(d, h>>1, &r.tick, &r.timing)
		it = &r.tick
	case h == itemCheckpoint:
		r.s.checkpoint(d, &r.cp)
		it = &r.cp
	case h == itemHook && r.version >= 4:
		hookItem(d, &r.hook)
		it = &r.hook
	case h == itemPacing && r.version >= 6 && r.h.Net != nil:
		pacingItem(d, &r.pacing)
		it = &r.pacing
	case h == itemNet && r.version >= 8 && r.h.Net != nil:
		netItem(d, &r.net)
		it = &r.net
	case h == itemPresents && r.version >= 8:
		presentsItem(d, &r.pres)
		it = &r.pres
	case h == itemEnd:
		r.s.endMarker(d, &r.end, r.version)
		r.ended = true
		it = &r.end
	default:
		d.Failf("item type %d is not defined in format version %d (allowed: tick, checkpoint, hook from version 4, pacing from version 6 and net figures from version 8 in a match's recording, presents from version 8, end)", h, r.version)
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	return it, nil
}

// trailing checks that nothing follows the end marker.
func (r *Reader) trailing() error {
	at := r.base + int64(r.off)
	switch err := r.ensure(1); err {
	case nil:
		return r.corrupt(at, ErrCorrupt, "data follows the end marker")
	case errNoData:
		return io.EOF
	default:
		return r.short(err, at, "")
	}
}
