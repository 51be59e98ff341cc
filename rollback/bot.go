package rollback

import (
	"time"

	"github.com/metronome-go/metronome/input"
)

// A Bot plays players with seeded random input instead of the devices:
// each action is held or left up for runs of a random number of ticks, as
// a player's keys are, so that two processes of a game can play a long
// match by themselves and be compared (a framework game's --bot SEED).
// The same seed, player and tick give the same input. A Bot belongs to
// one goroutine, the simulation's.
type Bot struct {
	seed uint64
	down [][]bool // per player, per action
	left [][]int  // ticks until the action changes
}

// NewBot returns a bot for players players of actions actions each,
// playing from seed.
func NewBot(seed uint64, players, actions int) *Bot {
	b := &Bot{seed: seed, down: make([][]bool, players), left: make([][]int, players)}
	for p := range players {
		b.down[p] = make([]bool, actions)
		b.left[p] = make([]int, actions)
	}
	return b
}

// splitmix is SplitMix64's output function: a well-mixed value from x.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Fill writes player p's input for tick into dst, one tick of step long.
// It allocates nothing.
func (b *Bot) Fill(p int, tick int64, step time.Duration, dst []input.Stats) {
	for a := range dst {
		was := b.down[p][a]
		if b.left[p][a] <= 0 {
			r := splitmix(b.seed ^ splitmix(uint64(tick)<<8|uint64(p)<<4|uint64(a)))
			b.down[p][a] = r&3 == 0 // down about a quarter of the time
			b.left[p][a] = 5 + int(r>>8%50)
		}
		b.left[p][a]--
		now := b.down[p][a]
		s := input.Stats{Down: now, WasDown: was}
		if now && !was {
			s.Presses = 1
		}
		if was && !now {
			s.Releases = 1
		}
		if now {
			s.Held, s.Value, s.Mean, s.Peak = step, 1, 1, 1
		}
		if was {
			s.StartValue = 1
			if !now {
				s.Peak = 1
			}
		}
		dst[a] = s
	}
}
