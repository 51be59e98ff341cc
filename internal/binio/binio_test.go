package binio_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/internal/binio"
)

var errBad = errors.New("codec: bad input")

// Every value written comes back, and the reader ends where the writer did.
func TestRoundTrip(t *testing.T) {
	var b []byte
	b = binio.AppendUvarint(b, math.MaxUint64)
	b = binio.AppendVarint(b, math.MinInt64)
	b = binio.AppendVarint(b, -3)
	b = binio.AppendU16(b, 0xbeef)
	b = binio.AppendU32(b, 0xdeadbeef)
	b = binio.AppendU64(b, 1<<63|5)
	b = binio.AppendBool(b, true)
	b = binio.AppendString(b, "ship")
	b = append(b, 7)
	r := binio.NewReader(b, errBad)
	if got := r.Uvarint(); got != math.MaxUint64 {
		t.Errorf("Uvarint: got %d", got)
	}
	if got := r.Varint(); got != math.MinInt64 {
		t.Errorf("Varint: got %d", got)
	}
	if got := r.Int("delta", -5, 5); got != -3 {
		t.Errorf("Int: got %d", got)
	}
	if got := r.U16(); got != 0xbeef {
		t.Errorf("U16: got %#x", got)
	}
	if got := r.U32(); got != 0xdeadbeef {
		t.Errorf("U32: got %#x", got)
	}
	if got := r.U64(); got != 1<<63|5 {
		t.Errorf("U64: got %#x", got)
	}
	if !r.Flag("paused") {
		t.Error("Flag: got false")
	}
	if got := r.String("name length", 4); got != "ship" {
		t.Errorf("String: got %q", got)
	}
	if got := r.Byte(); got != 7 {
		t.Errorf("Byte: got %d", got)
	}
	if r.Err() != nil || r.Left() != 0 || r.Offset() != len(b) {
		t.Errorf("after reading all: err %v, %d left at %d of %d", r.Err(), r.Left(), r.Offset(), len(b))
	}
}

// The zigzag words are encoding/binary's varints.
func TestZigzag(t *testing.T) {
	for _, v := range []int64{0, -1, 1, -2, math.MaxInt64, math.MinInt64} {
		u := binio.Zigzag(v)
		if !bytes.Equal(binio.AppendUvarint(nil, u), binio.AppendVarint(nil, v)) || binio.Unzigzag(u) != v {
			t.Errorf("Zigzag(%d) = %d does not match AppendVarint or does not come back", v, u)
		}
	}
}

// Each failure names what was wrong and what is allowed, wraps the
// sentinel, and sticks: later reads return zero and keep the first.
func TestFailures(t *testing.T) {
	long := binio.AppendUvarint(nil, 900)
	for _, c := range []struct {
		name string
		b    []byte
		read func(r *binio.Reader)
		want string
		mark int
	}{
		{"cut fixed", []byte{1, 2, 3}, func(r *binio.Reader) { r.U32() }, "a 4-byte field runs past the end (3 bytes left)", 0},
		{"cut varint", []byte{1, 0x80}, func(r *binio.Reader) { r.Byte(); r.Uvarint() }, "a varint runs past the end", 1},
		{"overflow", bytes.Repeat([]byte{0xff}, 11), func(r *binio.Reader) { r.Uvarint() }, "a varint overflows 64 bits", 0},
		{"length over the limit", long, func(r *binio.Reader) { r.String("the name's length", 64) }, "the name's length 900 is out of range (allowed: 0 to 64)", 0},
		{"length past the end", long, func(r *binio.Reader) { r.Length("record count", 1000, 1) }, "record count 900 needs more bytes than the 0 left", 0},
		{"count32 past the end", []byte{9, 0, 0, 0, 1, 2}, func(r *binio.Reader) { r.Count32("entities", 100, 4) }, "entities 9 needs more bytes than the 2 left", 0},
		{"uint range", long, func(r *binio.Reader) { r.Uint("players", 1, 16) }, "players 900 is out of range (allowed: 1 to 16)", 0},
		{"int range", binio.AppendVarint(nil, -9), func(r *binio.Reader) { r.Int("debt", -8, 8) }, "debt -9 is out of range (allowed: -8 to 8)", 0},
		{"flag", []byte{0, 2}, func(r *binio.Reader) { r.Flag("a"); r.Flag("paused") }, "paused 2 is out of range (allowed: 0 or 1)", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := binio.NewReader(c.b, errBad)
			c.read(&r)
			err := r.Err()
			if !errors.Is(err, errBad) || err.Error() != "codec: bad input: "+c.want {
				t.Fatalf("got %v, want %q wrapping the sentinel", err, c.want)
			}
			if r.Mark() != c.mark {
				t.Errorf("mark %d, want %d", r.Mark(), c.mark)
			}
			if r.U64() != 0 || r.Uvarint() != 0 || r.Bytes(0) != nil || r.String("x", 9) != "" || r.Err() != err {
				t.Error("a read after the failure returned something or changed the failure")
			}
			r.Failf("later")
			if r.Err() != err {
				t.Error("Failf replaced the first failure")
			}
			bare := binio.NewBareReader(c.b, errBad)
			c.read(&bare)
			if !errors.Is(bare.Err(), errBad) || bare.Err().Error() != c.want {
				t.Errorf("bare: got %v, want %q alone", bare.Err(), c.want)
			}
		})
	}
}

// Bytes hands out a slice whose capacity ends with it.
func TestBytesCapacity(t *testing.T) {
	r := binio.NewReader([]byte{1, 2, 3, 4}, errBad)
	p := r.Bytes(2)
	_ = append(p, 9)
	if r.Byte() != 3 {
		t.Fatal("appending to a read field overwrote the next byte")
	}
}

// Continue reads another slice and keeps a failure.
func TestContinue(t *testing.T) {
	r := binio.NewReader([]byte{1, 2}, errBad)
	r.Byte()
	rest := r.Rest()
	r.Continue(append(rest[:0:0], 5, 6))
	if r.Byte() != 5 || r.Left() != 1 {
		t.Fatal("Continue did not read the new slice from its start")
	}
	r.U64()
	err := r.Err()
	r.Continue([]byte{1})
	if r.Err() != err || r.Byte() != 0 {
		t.Fatal("Continue dropped the failure")
	}
	if !strings.Contains(err.Error(), "8-byte field") {
		t.Fatalf("got %v", err)
	}
}

// Reading allocates nothing until a failure.
func TestReadAllocatesNothing(t *testing.T) {
	b := binio.AppendString(binio.AppendU64(binio.AppendVarint(nil, -7), 3), "abc")
	if n := testing.AllocsPerRun(100, func() {
		r := binio.NewReader(b, errBad)
		r.Varint()
		r.U64()
		r.Bytes(r.Length("name", 8, 1))
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
	}); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

// FuzzReader reads random bytes with every kind of read: never a panic,
// a read past the end is a failure, and after a failure every read is
// zero.
func FuzzReader(f *testing.F) {
	f.Add([]byte{0x81, 0x01, 3, 'a', 'b', 'c', 1, 2, 3, 4}, []byte{0, 1, 2, 3})
	f.Add(bytes.Repeat([]byte{0xff}, 12), []byte{4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, b, ops []byte) {
		r := binio.NewReader(b, errBad)
		for _, op := range ops {
			before := r.Offset()
			switch op % 9 {
			case 0:
				r.Uvarint()
			case 1:
				r.Varint()
			case 2:
				r.U16()
			case 3:
				r.U32()
			case 4:
				r.U64()
			case 5:
				r.Flag("flag")
			case 6:
				r.String("string", int(op))
			case 7:
				r.Count32("count", 1<<20, int(op%5))
			case 8:
				r.Int("int", -int64(op), int64(op))
			}
			if r.Offset() < before || r.Offset() > len(b) {
				t.Fatalf("offset %d after %d of %d bytes", r.Offset(), before, len(b))
			}
			if r.Err() != nil {
				if !errors.Is(r.Err(), errBad) {
					t.Fatalf("failure %v does not wrap the sentinel", r.Err())
				}
				at := r.Offset()
				if r.U64() != 0 || r.Offset() != at {
					t.Fatal("a read after a failure moved or returned something")
				}
			}
		}
	})
}
