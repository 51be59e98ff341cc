package rollback_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/timing"
)

// recorder is a simulation that keeps every confirmed input it was
// stepped with, by tick and player, so two peers' views can be compared
// bit for bit.
type recorder struct {
	toy     *toy
	actions int
	got     map[[2]int64][]input.Stats
}

func newRecorder(actions int) *recorder {
	r := &recorder{toy: newToy(8), actions: actions, got: map[[2]int64][]input.Stats{}}
	r.toy.present = nil
	return r
}

func (r *recorder) Save(tick int64) error    { return r.toy.Save(tick) }
func (r *recorder) Restore(tick int64) error { return r.toy.Restore(tick) }
func (r *recorder) Hash() uint64             { return r.toy.Hash() }
func (r *recorder) Step(in *rollback.Inputs, resim bool) error {
	for p := range in.Players() {
		if !in.Predicted(p) {
			r.got[[2]int64{in.Tick(), int64(p)}] = append([]input.Stats(nil), in.Player(p)...)
		}
	}
	return nil
}

// wirePair is two sessions of one player each with the given actions,
// window 8 and delay 2.
func wirePair(t testing.TB, actions, hashEvery int) (sims [2]*recorder, ss [2]*rollback.Session) {
	t.Helper()
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	for i := range ss {
		sims[i] = newRecorder(actions)
		s, err := rollback.NewSession(sims[i], rollback.Options{Self: i, Players: players, Actions: actions, Window: 8, HashEvery: hashEvery, Clock: timing.NewManualClock(0)})
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = s
	}
	return sims, ss
}

// sameConfirmed fails unless every tick both recorders confirmed for a
// player holds the same states, bit for bit, and there are at least min.
func sameConfirmed(t *testing.T, a, b *recorder, min int) {
	t.Helper()
	n := 0
	for k, x := range a.got {
		y, ok := b.got[k]
		if !ok {
			continue
		}
		n++
		for i := range x {
			if x[i] != y[i] || math.Float32bits(x[i].Value) != math.Float32bits(y[i].Value) || math.Float32bits(x[i].Mean) != math.Float32bits(y[i].Mean) {
				t.Fatalf("tick %d player %d action %d: sender %+v, receiver %+v", k[0], k[1], i, x[i], y[i])
			}
		}
	}
	if n < min {
		t.Fatalf("%d ticks confirmed on both sides, want at least %d", n, min)
	}
}

// fuzzStats makes an action state from four bytes, every field in its
// allowed range, -0 included.
func fuzzStats(b [4]byte) input.Stats {
	f := func(x byte) float32 {
		if x == 0x80 {
			return float32(math.Copysign(0, -1))
		}
		return float32(int8(x)) / 128
	}
	return input.Stats{Down: b[0]&1 != 0, WasDown: b[0]&2 != 0, Presses: int(b[0] >> 2 & 3), Releases: int(b[0] >> 4 & 3), Held: time.Duration(b[1]) * 65537, Value: f(b[2]), StartValue: f(b[3]), Mean: f(b[2] ^ b[3]), Peak: f(b[1])}
}

// FuzzWireRoundTrip plays two peers whose inputs come from the fuzzer,
// held between changes as keys are: every input a peer confirms is the
// one the other gave, bit for bit, and no message exceeds MaxMessage.
func FuzzWireRoundTrip(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 200, 9, 0x80, 0x7f})
	f.Add([]byte{255, 255, 255, 255})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		const actions = 6
		sims, ss := wirePair(t, actions, 1)
		var cur [2][actions]input.Stats
		at := 0
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[at%len(data)]
			at++
			return b
		}
		var msg [2][]byte
		for range 120 {
			for i, s := range ss {
				if c := next(); c < 64 {
					cur[i][c%actions] = fuzzStats([4]byte{next(), next(), next(), next()})
				}
				copy(s.Local(i), cur[i][:])
				if _, err := s.Advance(); err != nil {
					t.Fatal(err)
				}
				msg[i] = s.AppendMessage(msg[i][:0])
				if len(msg[i]) > rollback.MaxMessage {
					t.Fatalf("message of %d bytes, over MaxMessage %d", len(msg[i]), rollback.MaxMessage)
				}
			}
			for i, s := range ss {
				if err := s.Receive(msg[1-i]); err != nil {
					t.Fatalf("a genuine message refused: %v", err)
				}
			}
		}
		sameConfirmed(t, sims[0], sims[1], 100)
	})
}

// Many analog actions, all changing every tick, while the receiver's
// acknowledgements are lost for long stretches: the sender keeps each
// message within MaxMessage by sending fewer redundant ticks, and the
// receiver still gets every input exactly.
func TestMessagesStayWithinMaxMessage(t *testing.T) {
	const actions = 24
	sims, ss := wirePair(t, actions, 1)
	rng := rand.New(rand.NewPCG(1, 2))
	var msg [2][]byte
	longest := 0
	for n := range 400 {
		for i, s := range ss {
			l := s.Local(i)
			for a := range l {
				v := float32(rng.IntN(255)-127) / 127
				l[a] = input.Stats{Down: v != 0, WasDown: rng.IntN(2) == 0, Held: time.Duration(rng.IntN(1 << 24)), Value: v, StartValue: -v, Mean: v / 2, Peak: v}
			}
			if _, err := s.Advance(); err != nil {
				t.Fatal(err)
			}
			msg[i] = s.AppendMessage(msg[i][:0])
			longest = max(longest, len(msg[i]))
		}
		if err := ss[1].Receive(msg[0]); err != nil {
			t.Fatal(err)
		}
		if n%4 == 0 { // peer 1's messages, acknowledgements included, mostly lost
			if err := ss[0].Receive(msg[1]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if longest > rollback.MaxMessage {
		t.Errorf("longest message %d bytes, over MaxMessage %d", longest, rollback.MaxMessage)
	}
	if st := ss[1].Stats(); st.Confirmed < 100 {
		t.Errorf("receiver confirmed up to tick %d, want past 100", st.Confirmed)
	}
	sameConfirmed(t, sims[0], sims[1], 50)
}

// duelInput is a seeded stream of input typical of a two-player action
// game with six button actions: directions and thrust held for runs of
// many ticks, fire tapped now and then.
type duelInput struct {
	rng  *rand.Rand
	down [6]bool
}

func (d *duelInput) next(dst []input.Stats) {
	const interval = timing.DefaultInterval
	for a := range dst {
		was := d.down[a]
		flip := d.rng.IntN(30) == 0 // runs of 30 ticks on average
		if a == 4 {
			flip = was || d.rng.IntN(40) == 0 // fire: tapped
		}
		now := was != flip
		d.down[a] = now
		st := input.Stats{Down: now, WasDown: was}
		switch {
		case now && was:
			st.Held, st.Value, st.StartValue, st.Mean, st.Peak = interval, 1, 1, 1, 1
		case now:
			part := time.Duration(d.rng.Int64N(int64(interval)))
			st.Presses, st.Held, st.Value, st.Mean, st.Peak = 1, part, 1, float32(part)/float32(interval), 1
		case was:
			part := time.Duration(d.rng.Int64N(int64(interval)))
			st.Releases, st.Held, st.StartValue, st.Mean, st.Peak = 1, part, 1, float32(part)/float32(interval), 1
		}
		dst[a] = st
	}
}

// BenchmarkWireBytesPerTick plays two peers of a duel-like game, six
// button actions each and the default hash interval, their messages
// arriving d updates late each way (a round trip of 2d/60 s at 60 Hz),
// and reports the mean message size per tick and what that makes per
// second each way at 60 Hz.
func BenchmarkWireBytesPerTick(b *testing.B) {
	for _, d := range []int{1, 2, 4, 6} {
		b.Run(fmt.Sprintf("rtt=%dms", d*2000/60), func(b *testing.B) { benchWire(b, d) })
	}
}

func benchWire(b *testing.B, delay int) {
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	var ss [2]*rollback.Session
	for i := range ss {
		sim := newToy(8)
		sim.present = nil
		s, err := rollback.NewSession(sim, rollback.Options{Self: i, Players: players, Actions: 6, Window: 8, HashEvery: rollback.DefaultHashEvery, Clock: timing.NewManualClock(0)})
		if err != nil {
			b.Fatal(err)
		}
		ss[i] = s
	}
	in := [2]duelInput{{rng: rand.New(rand.NewPCG(7, 1))}, {rng: rand.New(rand.NewPCG(7, 2))}}
	inflight := make([][][]byte, 2)
	for i := range inflight {
		inflight[i] = make([][]byte, delay)
		for j := range inflight[i] {
			inflight[i][j] = make([]byte, 0, rollback.MaxMessage)
		}
	}
	sent, msgs, n := 0, 0, 0
	update := func() {
		for i, s := range ss {
			in[i].next(s.Local(i))
			if _, err := s.Advance(); err != nil {
				b.Fatal(err)
			}
			slot := n % delay
			if old := inflight[i][slot]; len(old) > 0 {
				if err := ss[1-i].Receive(old); err != nil {
					b.Fatal(err)
				}
			}
			inflight[i][slot] = s.AppendMessage(inflight[i][slot][:0])
			sent += len(inflight[i][slot])
			msgs++
		}
		n++
	}
	for range 600 {
		update()
	}
	sent, msgs = 0, 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		update()
	}
	per := float64(sent) / float64(msgs)
	b.ReportMetric(per, "B/tick")
	b.ReportMetric(per*60, "B/s@60Hz")
}
