// Package toysim is a tiny deterministic simulation for the tests of the
// transports: a counter per player that its input moves every tick, with
// the saves a rollback session restores. Its hash changes with any
// player's input on any tick, so two peers agree on it only when every
// input crossed the transport.
package toysim

import (
	"fmt"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
)

// MaxPlayers is the most players a Toy counts.
const MaxPlayers = 16

// saves is how many ticks back a Toy can restore: more than any window
// the tests use.
const saves = 17

// Toy is a [rollback.Simulation] of two actions per player: the first
// held moves the player's counter, presses of the second mix into it.
type Toy struct {
	pos   [MaxPlayers]int64
	saves [saves]struct {
		tick int64
		pos  [MaxPlayers]int64
	}
}

func (s *Toy) Save(k int64) error {
	s.saves[k%saves].tick, s.saves[k%saves].pos = k, s.pos
	return nil
}

func (s *Toy) Restore(k int64) error {
	if s.saves[k%saves].tick != k {
		return fmt.Errorf("toy: no save of tick %d", k)
	}
	s.pos = s.saves[k%saves].pos
	return nil
}

func (s *Toy) Step(in *rollback.Inputs, _ bool) error {
	for p := range in.Players() {
		st := in.Player(p)
		if st[0].Down {
			s.pos[p] += in.Tick()%5 + 1
		}
		s.pos[p] = s.pos[p]*3 + int64(st[1].Presses)
	}
	return nil
}

// Hash is FNV-1a over the counters.
func (s *Toy) Hash() uint64 {
	h := uint64(1469598103934665603)
	for _, v := range s.pos {
		h = (h ^ uint64(v)) * 1099511628211
	}
	return h
}

// HashAt is the hash of the state saved before tick k, while the Toy
// still keeps it: after the peers advanced past k with k confirmed, it is
// the confirmed state's.
func (s *Toy) HashAt(k int64) (uint64, bool) {
	sv := s.saves[k%saves]
	if sv.tick != k {
		return 0, false
	}
	return (&Toy{pos: sv.pos}).Hash(), true
}

// Bot writes player p's seeded input for tick k into dst (two actions):
// the first held in runs, the second pressed now and then.
func Bot(p int, k int64, dst []input.Stats) {
	x := uint64(k/7)*0x9e3779b97f4a7c15 ^ uint64(p+1)*0xbf58476d1ce4e5b9
	x ^= x >> 31
	down := x&1 == 0
	dst[0] = input.Stats{Down: down, WasDown: down}
	dst[1] = input.Stats{}
	if k%13 == int64(p) {
		dst[1] = input.Stats{Presses: 1, Releases: 1}
	}
}
