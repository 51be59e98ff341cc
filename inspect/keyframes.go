package inspect

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/metronome-go/metronome/input"
)

// Keyframes are the world in the ECS snapshot's wire form. Kept whole,
// the demo's 500 sprites took 126 KiB a keyframe and 50 MiB over ten
// minutes, a hundred times its recording. Between two keyframes most of
// a world stays as it was (types, sprites, velocities; positions move),
// so the store keeps one keyframe in keyGroup whole, compressed with
// flate, and each of the others as its difference from the keyframe
// before it: runs copied from that keyframe (at the same place, or
// shifted when entities came or went) and the bytes that changed. A
// keyframe is then made by inflating its group's first keyframe and
// applying the differences up to it, a few hundred microseconds; the
// latest one made is kept, so scrubbing forward applies one difference.

// keyGroup is how many keyframes share a whole one: a keyframe is at
// most keyGroup-1 differences from it.
const keyGroup = 8

// keyframe is the world after a tick, stored compactly (keyStore), with
// the input state the tick's input started from.
type keyframe struct {
	tick  uint64
	data  []byte // flate of the wire when the first of its group, else the difference from the keyframe before
	size  int    // the wire's length
	state input.State
}

// keyStore keeps the keyframes and makes their wire form again.
type keyStore struct {
	keys []keyframe // in tick order

	// Adding: the latest keyframe's wire and an index of it.
	prev    []byte
	index   *deltaIndex
	fw      *flate.Writer
	out     bytes.Buffer
	scratch []byte

	// Making: the latest keyframe made (made is its index, -1 for none).
	made  int
	wire  []byte
	spare []byte
	fr    io.ReadCloser
	br    bytes.Reader
}

func newKeyStore() keyStore { return keyStore{made: -1} }

// add keeps wire as the keyframe of tick, after the others. It takes
// wire over: the caller hands in a buffer it got back from add (or nil).
func (s *keyStore) add(tick uint64, wire []byte, state input.State) ([]byte, error) {
	k := keyframe{tick: tick, size: len(wire), state: state}
	if len(s.keys)%keyGroup == 0 {
		s.out.Reset()
		if s.fw == nil {
			var err error
			if s.fw, err = flate.NewWriter(&s.out, flate.BestSpeed); err != nil {
				return wire, err
			}
		} else {
			s.fw.Reset(&s.out)
		}
		if _, err := s.fw.Write(wire); err != nil {
			return wire, err
		}
		if err := s.fw.Close(); err != nil {
			return wire, err
		}
		k.data = bytes.Clone(s.out.Bytes())
	} else {
		if s.index == nil {
			s.index = new(deltaIndex)
		}
		s.index.reset(s.prev)
		d := s.index.encode(s.scratch[:0], wire)
		k.data = bytes.Clone(d)
		s.scratch = d[:0]
	}
	s.keys = append(s.keys, k)
	// The keyframe made before stays valid: its data did not change.
	s.prev, wire = wire, s.prev
	return wire[:0], nil
}

// wireOf returns keyframe i's wire form, valid until the next wireOf.
func (s *keyStore) wireOf(i int) ([]byte, error) {
	if s.made == i {
		return s.wire, nil
	}
	first := i - i%keyGroup
	from := s.made
	if from < first || from > i {
		if err := s.inflate(first); err != nil {
			s.made = -1
			return nil, err
		}
		from = first
	}
	for j := from + 1; j <= i; j++ {
		out, err := applyDelta(s.spare[:0], s.wire, s.keys[j].data)
		if err == nil && len(out) != s.keys[j].size {
			err = fmt.Errorf("makes %d bytes, not the %d kept", len(out), s.keys[j].size)
		}
		if err != nil {
			s.made = -1
			return nil, fmt.Errorf("the difference to tick %d's: %w", s.keys[j].tick, err)
		}
		s.wire, s.spare = out, s.wire
		s.made = j
	}
	s.made = i
	return s.wire, nil
}

// inflate makes the wire of keyframe i, the first of its group.
func (s *keyStore) inflate(i int) error {
	k := &s.keys[i]
	s.br.Reset(k.data)
	if s.fr == nil {
		s.fr = flate.NewReader(&s.br)
	} else if err := s.fr.(flate.Resetter).Reset(&s.br, nil); err != nil {
		return err
	}
	if cap(s.wire) < k.size {
		s.wire = make([]byte, k.size, k.size+k.size/8)
	}
	s.wire = s.wire[:k.size]
	if _, err := io.ReadFull(s.fr, s.wire); err != nil {
		return fmt.Errorf("inflating tick %d's: %w", k.tick, err)
	}
	s.made = i
	return nil
}

// bytes is what the kept keyframes take, and what they would take whole.
func (s *keyStore) bytes() (kept, whole int) {
	for _, k := range s.keys {
		kept += cap(k.data)
		whole += k.size
	}
	return kept, whole
}

// A difference is a sequence of literal runs and copies:
//
//	uvarint n, n bytes    literal: bytes of the new keyframe
//	uvarint m, varint s   copy: m bytes of the base from its place plus s
//
// repeated, the last literal run ending it. The place in the base moves
// with the new keyframe's (a literal byte replaces a base byte), so a
// copy where nothing moved has shift 0 and costs two bytes.

// minMatch is the shortest copy: shorter ones cost more than their
// bytes as a literal.
const minMatch = 8

const hashBits = 16

// deltaIndex finds runs of a base keyframe by their first minMatch bytes.
type deltaIndex struct {
	base  []byte
	table [1 << hashBits]int32 // a position of the base with that hash, plus one
}

func hash8(b []byte) uint32 {
	return uint32((binary.LittleEndian.Uint64(b) * 0x9E3779B97F4A7C15) >> (64 - hashBits))
}

func (x *deltaIndex) reset(base []byte) {
	x.base = base
	clear(x.table[:])
	for i := 0; i+minMatch <= len(base); i++ {
		x.table[hash8(base[i:])] = int32(i + 1)
	}
}

// common returns the length of a's and b's common prefix.
func common(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && binary.LittleEndian.Uint64(a[i:]) == binary.LittleEndian.Uint64(b[i:]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// encode appends to dst the difference that makes t from the base.
func (x *deltaIndex) encode(dst, t []byte) []byte {
	base := x.base
	p, bp, lit := 0, 0, 0
	copyRun := func(k, at int) {
		dst = binary.AppendUvarint(dst, uint64(p-lit))
		dst = append(dst, t[lit:p]...)
		dst = binary.AppendUvarint(dst, uint64(k))
		dst = binary.AppendVarint(dst, int64(at-bp))
		p += k
		bp = at + k
		lit = p
	}
	for p+minMatch <= len(t) {
		if bp >= 0 && bp < len(base) {
			if k := common(t[p:], base[bp:]); k >= minMatch {
				copyRun(k, bp)
				continue
			}
		}
		if c := int(x.table[hash8(t[p:])]) - 1; c >= 0 {
			if k := common(t[p:], base[c:]); k >= minMatch {
				copyRun(k, c)
				continue
			}
		}
		p++
		bp++
	}
	dst = binary.AppendUvarint(dst, uint64(len(t)-lit))
	return append(dst, t[lit:]...)
}

var errDelta = errors.New("the difference is damaged")

// applyDelta appends to dst the keyframe the difference d makes from base.
func applyDelta(dst, base, d []byte) ([]byte, error) {
	bp := 0
	for {
		n, k := binary.Uvarint(d)
		if k <= 0 || n > uint64(len(d)-k) {
			return dst, errDelta
		}
		dst = append(dst, d[k:k+int(n)]...)
		d = d[k+int(n):]
		bp += int(n)
		if len(d) == 0 {
			return dst, nil
		}
		m, k := binary.Uvarint(d)
		if k <= 0 || m > uint64(len(base)) {
			return dst, errDelta
		}
		d = d[k:]
		sh, k := binary.Varint(d)
		if k <= 0 || sh < -int64(len(base)) || sh > int64(len(base)) {
			return dst, errDelta
		}
		d = d[k:]
		bp += int(sh)
		if bp < 0 || bp+int(m) > len(base) {
			return dst, errDelta
		}
		dst = append(dst, base[bp:bp+int(m)]...)
		bp += int(m)
	}
}
