package binio

import (
	"encoding/binary"
	"fmt"
)

// AppendUvarint appends v as a uvarint.
func AppendUvarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

// AppendVarint appends v in zigzag form as a uvarint (0, -1, 1, -2 ...
// become 0, 1, 2, 3 ...), the bytes of [binary.AppendVarint].
func AppendVarint(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

// AppendU16 appends v little-endian in 2 bytes.
func AppendU16(b []byte, v uint16) []byte { return binary.LittleEndian.AppendUint16(b, v) }

// AppendU32 appends v little-endian in 4 bytes.
func AppendU32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

// AppendU64 appends v little-endian in 8 bytes.
func AppendU64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

// AppendBool appends v as one byte, 0 or 1.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// AppendString appends s after its length as a uvarint.
func AppendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// Zigzag is v in the zigzag form of [AppendVarint], for a codec that
// gathers its words before writing them.
func Zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// Unzigzag is the inverse of [Zigzag].
func Unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// Reader reads a binary form from a byte slice. The first failure sticks
// (see the package comment). The zero Reader reads nothing; make one with
// [NewReader] or [NewBareReader]. It allocates only to describe a failure.
type Reader struct {
	b        []byte
	pos      int
	mark     int
	err      error
	sentinel error
	bare     bool
}

// NewReader returns a Reader of b whose failures wrap sentinel and read
// "<sentinel>: <what was wrong>".
func NewReader(b []byte, sentinel error) Reader { return Reader{b: b, sentinel: sentinel} }

// NewBareReader is [NewReader] for a codec whose own error type names the
// sentinel and the place: its failures read as the description alone,
// and still match sentinel with errors.Is.
func NewBareReader(b []byte, sentinel error) Reader {
	return Reader{b: b, sentinel: sentinel, bare: true}
}

// failure is a Reader's failure: a description that wraps the sentinel.
type failure struct {
	sentinel error
	msg      string
	bare     bool
}

func (f *failure) Error() string {
	if f.bare || f.sentinel == nil {
		return f.msg
	}
	return f.sentinel.Error() + ": " + f.msg
}

func (f *failure) Unwrap() error { return f.sentinel }

// Err returns the first failure, or nil.
func (r *Reader) Err() error { return r.err }

// Left returns the number of bytes not read yet.
func (r *Reader) Left() int { return len(r.b) - r.pos }

// Offset returns the position of the next byte to read in the slice.
func (r *Reader) Offset() int { return r.pos }

// Mark returns where the last field read began: after a failure, the
// offset of the field at fault.
func (r *Reader) Mark() int { return r.mark }

// MarkHere makes the next byte the field at fault, for a failure about
// what follows (bytes left over after the end).
func (r *Reader) MarkHere() { r.mark = r.pos }

// Rest returns the bytes not read yet.
func (r *Reader) Rest() []byte { return r.b[r.pos:] }

// Continue makes b the bytes to read, from its start, for a codec that
// hands the rest to another codec and takes back what that one left. A
// failure already kept stays.
func (r *Reader) Continue(b []byte) { r.b, r.pos, r.mark = b, 0, 0 }

// Failf keeps a failure described by format and args, unless one is kept
// already.
func (r *Reader) Failf(format string, args ...any) {
	if r.err == nil {
		r.err = &failure{sentinel: r.sentinel, msg: fmt.Sprintf(format, args...), bare: r.bare}
	}
}

// Fail keeps err as the failure, unless one is kept already: for an error
// of another codec the reader's codec nests.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Bytes reads n bytes, returning them without copying (their capacity
// ends with them, so appending to them cannot overwrite what follows),
// or nil after a failure.
func (r *Reader) Bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	r.mark = r.pos
	if n < 0 || n > r.Left() {
		r.Failf("a %d-byte field runs past the end (%d bytes left)", n, r.Left())
		return nil
	}
	r.pos += n
	return r.b[r.pos-n : r.pos : r.pos]
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if p := r.Bytes(1); p != nil {
		return p[0]
	}
	return 0
}

// U16 reads a little-endian 2-byte integer.
func (r *Reader) U16() uint16 {
	if p := r.Bytes(2); p != nil {
		return binary.LittleEndian.Uint16(p)
	}
	return 0
}

// U32 reads a little-endian 4-byte integer.
func (r *Reader) U32() uint32 {
	if p := r.Bytes(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

// U64 reads a little-endian 8-byte integer.
func (r *Reader) U64() uint64 {
	if p := r.Bytes(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

// Uvarint reads a uvarint.
func (r *Reader) Uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	r.mark = r.pos
	v, n := binary.Uvarint(r.b[r.pos:])
	if n <= 0 {
		if n == 0 {
			r.Failf("a varint runs past the end")
		} else {
			r.Failf("a varint overflows 64 bits")
		}
		return 0
	}
	r.pos += n
	return v
}

// Varint reads a signed integer in zigzag form ([AppendVarint]).
func (r *Reader) Varint() int64 { return Unzigzag(r.Uvarint()) }

// Uint reads a uvarint that what names and checks it is in [lo, hi].
func (r *Reader) Uint(what string, lo, hi uint64) uint64 {
	v := r.Uvarint()
	if r.err == nil && (v < lo || v > hi) {
		r.Failf("%s %d is out of range (allowed: %d to %d)", what, v, lo, hi)
		return 0
	}
	return v
}

// Int reads a zigzag varint that what names and checks it is in [lo, hi].
func (r *Reader) Int(what string, lo, hi int64) int64 {
	v := r.Varint()
	if r.err == nil && (v < lo || v > hi) {
		r.Failf("%s %d is out of range (allowed: %d to %d)", what, v, lo, hi)
		return 0
	}
	return v
}

// Flag reads a byte that what names and must be 0 or 1.
func (r *Reader) Flag(what string) bool {
	v := r.Byte()
	if r.err == nil && v > 1 {
		r.Failf("%s %d is out of range (allowed: 0 or 1)", what, v)
	}
	return v == 1
}

// Length reads a uvarint count or size that what names, at most limit,
// of units that take at least minSize bytes each, and checks that the
// bytes left could hold them: so nothing a length sizes allocates more
// than the input's own length allows.
func (r *Reader) Length(what string, limit, minSize int) int {
	return r.fit(what, r.Uvarint(), limit, minSize)
}

// Count32 is [Length] for a count stored as a little-endian 4-byte
// integer.
func (r *Reader) Count32(what string, limit, minSize int) int {
	return r.fit(what, uint64(r.U32()), limit, minSize)
}

func (r *Reader) fit(what string, v uint64, limit, minSize int) int {
	switch {
	case r.err != nil:
		return 0
	case v > uint64(limit):
		r.Failf("%s %d is out of range (allowed: 0 to %d)", what, v, limit)
		return 0
	case v*uint64(minSize) > uint64(r.Left()) || minSize > 0 && v > uint64(r.Left()):
		r.Failf("%s %d needs more bytes than the %d left", what, v, r.Left())
		return 0
	}
	return int(v)
}

// String reads a byte string after its uvarint length, which what names
// and which is at most limit.
func (r *Reader) String(what string, limit int) string {
	return string(r.Bytes(r.Length(what, limit, 1)))
}
