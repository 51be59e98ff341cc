package inspect

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/metronome-go/metronome/input"
)

// A difference makes the new keyframe exactly from the one before,
// whatever changed: bytes replaced, runs inserted or cut (entities that
// came and went), or all of it.
func TestDeltaMakesTheKeyframeAgain(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := make([]byte, 20000)
	for i := range base {
		base[i] = byte(rng.IntN(4)) // few values, so runs repeat elsewhere too
	}
	var x deltaIndex
	for round := range 200 {
		next := bytes.Clone(base)
		for range rng.IntN(40) {
			at := rng.IntN(len(next) + 1)
			switch rng.IntN(3) {
			case 0:
				if at < len(next) {
					next[at] = byte(rng.Uint32())
				}
			case 1:
				run := make([]byte, rng.IntN(300))
				for i := range run {
					run[i] = byte(rng.Uint32())
				}
				next = append(next[:at], append(run, next[at:]...)...)
			case 2:
				end := min(len(next), at+rng.IntN(300))
				next = append(next[:at], next[end:]...)
			}
		}
		if round%50 == 0 {
			next = next[:rng.IntN(len(next)+1)]
		}
		x.reset(base)
		d := x.encode(nil, next)
		got, err := applyDelta(nil, base, d)
		if err != nil || !bytes.Equal(got, next) {
			t.Fatalf("round %d: the difference (%d bytes) makes %d bytes (err %v), want the %d of the keyframe", round, len(d), len(got), err, len(next))
		}
		// A cut or altered difference is refused or makes other bytes,
		// never a panic.
		for cut := range min(len(d), 64) {
			_, _ = applyDelta(nil, base, d[:cut])
		}
		base = next
	}
	x.reset(base)
	if d := x.encode(nil, base); len(d) > 16 {
		t.Errorf("the difference of a keyframe from itself takes %d bytes, want a few", len(d))
	}
}

// Keyframes made in any order are the ones added.
func TestKeyStoreMakesEveryKeyframe(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := newKeyStore()
	var want [][]byte
	w := make([]byte, 5000)
	var buf []byte
	for i := range 30 {
		for range 50 {
			w[rng.IntN(len(w))] = byte(rng.Uint32())
		}
		if i%7 == 3 {
			w = append(w[:100], w[140:]...)
		}
		buf = append(buf[:0], w...)
		want = append(want, bytes.Clone(w))
		var err error
		if buf, err = s.add(uint64(i*10), buf, input.State{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, i := range append(rng.Perm(30), 0, 1, 2, 3, 9, 8, 7, 29) {
		got, err := s.wireOf(i)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want[i]) {
			t.Fatalf("keyframe %d: made %d bytes that differ from the %d added", i, len(got), len(want[i]))
		}
	}
	if kept, whole := s.bytes(); kept*3 > whole {
		t.Errorf("the store keeps %d bytes of %d: want under a third", kept, whole)
	}
}
