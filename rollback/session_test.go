package rollback_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

// toy is a deterministic simulation: each player's position moves by the
// player's input every tick, and every state is kept in a ring of saves.
type toy struct {
	pos    [4]int64
	steps  uint64
	saves  []toyState
	resims int
	// steps run per tick, for checking that the present is run once
	present map[int64]int
}

type toyState struct {
	tick  int64
	pos   [4]int64
	steps uint64
}

func newToy(window int) *toy {
	return &toy{saves: make([]toyState, window+1), present: map[int64]int{}}
}

func (t *toy) Save(tick int64) error {
	t.saves[tick%int64(len(t.saves))] = toyState{tick, t.pos, t.steps}
	return nil
}

func (t *toy) Restore(tick int64) error {
	s := t.saves[tick%int64(len(t.saves))]
	if s.tick != tick {
		return fmt.Errorf("toy: no save of tick %d (slot holds %d)", tick, s.tick)
	}
	t.pos, t.steps = s.pos, s.steps
	return nil
}

func (t *toy) Step(in *rollback.Inputs, resim bool) error {
	for p := range in.Players() {
		st := in.Player(p)
		if st[0].Down {
			t.pos[p] += in.Tick()%7 + 1
		}
		t.pos[p] += int64(st[1].Presses) * 3
	}
	t.steps++
	if resim {
		t.resims++
	} else if t.present != nil {
		t.present[in.Tick()]++
	}
	return nil
}

func (t *toy) Hash() uint64 {
	h := uint64(14695981039346656037)
	vals := [5]int64{t.pos[0], t.pos[1], t.pos[2], t.pos[3], int64(t.steps)}
	for _, v := range vals {
		for range 8 {
			h = (h ^ uint64(v&0xff)) * 1099511628211
			v >>= 8
		}
	}
	return h
}

// script is player p's input at tick k: held down in runs that change
// every few ticks, and a press now and then.
func script(seed uint64, p int, k int64, dst []input.Stats) {
	x := uint64(k/5)*0x9e3779b97f4a7c15 ^ seed ^ uint64(p)*0xbf58476d1ce4e5b9
	x ^= x >> 29
	x *= 0x94d049bb133111eb
	x ^= x >> 32
	dst[0] = input.Stats{Down: x&3 == 0, WasDown: x&3 == 0}
	dst[1] = input.Stats{}
	if k%11 == int64(p) {
		dst[1] = input.Stats{Presses: 1, Releases: 1}
	}
}

type peer struct {
	s   *rollback.Session
	sim *toy
}

// match runs n sessions, one player each, over a simulated network for
// ticks updates at 60 Hz of virtual time; start[i] delays peer i's first
// update. It returns the peers.
func match(t testing.TB, n int, netOpts netsim.Options, window, delay, hashEvery int, ticks int, start []time.Duration) []peer {
	t.Helper()
	nw, err := netsim.NewNetwork(n, netOpts)
	if err != nil {
		t.Fatal(err)
	}
	players := make([]rollback.Player, n)
	for i := range players {
		players[i] = rollback.Player{Peer: i, Delay: delay}
	}
	peers := make([]peer, n)
	for i := range peers {
		sim := newToy(window)
		opts := rollback.Options{Self: i, Players: players, Actions: 2, Window: window, HashEvery: hashEvery, Clock: timing.NewManualClock(0)}
		s, err := rollback.NewSession(sim, opts)
		if err != nil {
			t.Fatal(err)
		}
		peers[i] = peer{s, sim}
	}
	const step = time.Second / 60
	const quantum = time.Millisecond
	next := make([]time.Duration, n)
	copy(next, start)
	msg, buf := make([]byte, 0, 4096), make([]byte, 64<<10)
	for now := time.Duration(0); ; now += quantum {
		done := true
		for i, pr := range peers {
			for j := range peers {
				if i == j {
					continue
				}
				l := nw.Link(j, i)
				for k, ok := l.Receive(timing.Instant(now), buf); ok; k, ok = l.Receive(timing.Instant(now), buf) {
					if err := pr.s.Receive(buf[:k]); err != nil {
						t.Fatalf("peer %d: %v", i, err)
					}
				}
			}
			if pr.s.Tick() < int64(ticks) {
				done = false
			}
			if now < next[i] || pr.s.Tick() >= int64(ticks) {
				continue
			}
			next[i] += step
			script(1, i, pr.s.Tick()+int64(delay), pr.s.Local(i))
			if _, err := pr.s.Advance(); err != nil {
				t.Fatalf("peer %d: %v", i, err)
			}
			msg = pr.s.AppendMessage(msg[:0])
			for j := range peers {
				if j != i {
					nw.Link(i, j).Send(timing.Instant(now), msg)
				}
			}
		}
		if done {
			return peers
		}
	}
}

func TestPerfectNetworkNeverRollsBack(t *testing.T) {
	peers := match(t, 2, netsim.Options{}, 8, 2, 1, 600, nil)
	for i, p := range peers {
		st := p.s.Stats()
		if st.Rollbacks != 0 || st.Desyncs != 0 {
			t.Errorf("peer %d: %d rollbacks, %d desyncs; want none", i, st.Rollbacks, st.Desyncs)
		}
		if st.Hashes < 500 {
			t.Errorf("peer %d compared %d hashes, want about 600", i, st.Hashes)
		}
	}
	if peers[0].sim.pos != peers[1].sim.pos {
		t.Errorf("positions %v and %v differ", peers[0].sim.pos, peers[1].sim.pos)
	}
}

func TestLatencyRollsBackAndConverges(t *testing.T) {
	opts := netsim.Options{Latency: 75 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Seed: 5}
	peers := match(t, 2, opts, 8, 2, 1, 1200, nil)
	for i, p := range peers {
		st := p.s.Stats()
		if st.Rollbacks == 0 {
			t.Errorf("peer %d never rolled back over 150 ms round trip", i)
		}
		if st.MaxDepth > 8 {
			t.Errorf("peer %d rolled back %d ticks, more than the window of 8", i, st.MaxDepth)
		}
		if st.Desyncs != 0 {
			d, _ := p.s.Desync()
			t.Errorf("peer %d: %v", i, d)
		}
		if st.Hashes == 0 {
			t.Errorf("peer %d compared no hashes", i)
		}
		for k, n := range p.sim.present {
			if n != 1 {
				t.Fatalf("peer %d ran tick %d as the present %d times", i, k, n)
			}
		}
	}
	// Both ran the same confirmed ticks: the states both confirmed match.
	a, b := peers[0].s.Stats(), peers[1].s.Stats()
	if a.Confirmed < 1100 || b.Confirmed < 1100 {
		t.Errorf("confirmed up to %d and %d of 1200", a.Confirmed, b.Confirmed)
	}
}

func TestHoldsAtTheWindowInsteadOfDroppingARollback(t *testing.T) {
	// Peer 1 starts 400 ms late: peer 0 reaches its window and holds.
	peers := match(t, 2, netsim.Options{Latency: 10 * time.Millisecond}, 8, 2, 1, 300, []time.Duration{0, 400 * time.Millisecond})
	st := peers[0].s.Stats()
	if st.Held == 0 {
		t.Error("peer 0 never held although its peer was 24 ticks late")
	}
	if st.MaxDepth > 8 {
		t.Errorf("rolled back %d ticks past a window of 8", st.MaxDepth)
	}
	if st.Desyncs != 0 || peers[1].s.Stats().Desyncs != 0 {
		t.Error("desync")
	}
}

func TestThreePeers(t *testing.T) {
	opts := netsim.Options{Latency: 30 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.02, Duplicate: 0.02, Reorder: 0.05, Seed: 9}
	peers := match(t, 3, opts, 8, 2, 10, 900, nil)
	for i, p := range peers {
		if st := p.s.Stats(); st.Desyncs != 0 || st.MaxDepth > 8 || st.Hashes == 0 {
			t.Errorf("peer %d: %d desyncs, depth %d, %d hashes compared", i, st.Desyncs, st.MaxDepth, st.Hashes)
		}
	}
}

// seen is a toy that also keeps the input each tick ran with.
type seen struct {
	*toy
	used map[int64][2]input.Stats // player 0's, by tick
}

func (s *seen) Step(in *rollback.Inputs, resim bool) error {
	st := in.Player(0)
	s.used[in.Tick()] = [2]input.Stats{st[0], st[1]}
	return s.toy.Step(in, resim)
}

// While Advance holds at the window's end, the local input filled before
// each held update is kept: a press made and released during the hold
// reaches the tick the next simulated update takes the input for, with
// the held time added, WasDown from the first fill and Down from the last.
func TestHeldUpdatesKeepTheLocalInput(t *testing.T) {
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	sim0 := &seen{toy: newToy(8), used: map[int64][2]input.Stats{}}
	s0, err := rollback.NewSession(sim0, rollback.Options{Self: 0, Players: players, Actions: 2, Window: 8, HashEvery: 1, Clock: timing.NewManualClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	s1, err := rollback.NewSession(newToy(8), rollback.Options{Self: 1, Players: players, Actions: 2, Window: 8, HashEvery: 1, Clock: timing.NewManualClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	advance := func(s *rollback.Session, p int, in ...input.Stats) rollback.Step {
		t.Helper()
		l := s.Local(p)
		clear(l)
		copy(l, in)
		st, err := s.Advance()
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	// Peer 1 is silent: peer 0 runs to its window (8 ticks past peer 1's
	// delay of 2) and then holds.
	for s0.Tick() < 10 {
		if advance(s0, 0).Held {
			t.Fatalf("held at tick %d, before the window's end", s0.Tick())
		}
	}
	held := s0.Tick() + 2 // the tick the local input is taken for
	steps := sim0.steps
	down := input.Stats{Down: true, Held: 3 * time.Millisecond}
	for _, in := range [][]input.Stats{
		{{WasDown: true, Held: 5 * time.Millisecond}, {Presses: 1, Releases: 1, Held: 2 * time.Millisecond}},
		{{}, {Presses: 1, Down: true, Held: 4 * time.Millisecond}},
		{down, {WasDown: true, Releases: 1, Held: time.Millisecond}},
	} {
		if st := advance(s0, 0, in...); !st.Held {
			t.Fatalf("update at tick %d simulated, want it held (peer 1 silent)", st.Tick)
		}
	}
	if sim0.steps != steps {
		t.Fatalf("held updates ran %d steps", sim0.steps-steps)
	}
	// Peer 1 catches up; peer 0 then simulates again.
	if err := s1.Receive(s0.AppendMessage(nil)); err != nil {
		t.Fatal(err)
	}
	for s1.Tick() < held+4 {
		if advance(s1, 1).Held {
			break
		}
		if err := s0.Receive(s1.AppendMessage(nil)); err != nil {
			t.Fatal(err)
		}
	}
	if st := advance(s0, 0, input.Stats{WasDown: true, Down: true, Held: time.Millisecond}); st.Held {
		t.Fatal("peer 0 still holds after peer 1's input arrived")
	}
	for s0.Tick() <= held {
		advance(s0, 0)
	}
	got := sim0.used[held]
	want := [2]input.Stats{
		{WasDown: true, Down: true, Held: 9 * time.Millisecond},
		{Presses: 2, Releases: 2, Held: 7 * time.Millisecond},
	}
	for a := range want {
		if got[a].Down != want[a].Down || got[a].WasDown != want[a].WasDown || got[a].Presses != want[a].Presses || got[a].Releases != want[a].Releases || got[a].Held != want[a].Held {
			t.Errorf("tick %d ran with action %d %+v, want the held fills and the next merged: %+v", held, a, got[a], want[a])
		}
	}
}
