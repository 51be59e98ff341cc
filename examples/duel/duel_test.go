package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

const tick = time.Second / 60

var syncTicks = flag.Int("synctest-ticks", 1500, "ticks of seeded random input TestSyncTest plays (the issue's figure is 100000)")

// randomSeat scripts n ticks of seeded random play on one seat's keys:
// holds of the direction keys and taps of fire.
func randomSeat(sim *frameworktest.Sim, seat int, n int, seed uint64) {
	r := rand.New(rand.NewPCG(seed, uint64(seat)))
	k := seatKeys[seat]
	keys := []input.Button{k.left, k.right, k.up, k.down, k.fire}
	for at := 0; at < n; {
		at += 1 + r.IntN(12)
		k := keys[r.IntN(len(keys))]
		hold := time.Duration(1+r.IntN(30)) * tick
		if k == keys[4] {
			hold = 2 * tick
		}
		sim.Input.Tap(sim.At(time.Duration(at)*tick), k, hold)
	}
}

// sameEnd checks that two peers end on the same confirmed tick and world
// hash.
func sameEnd(t *testing.T, a, b *frameworktest.Peer) {
	t.Helper()
	if !a.HasHash || !b.HasHash || a.Tick != b.Tick || a.Hash != b.Hash {
		t.Errorf("confirmed tick %d hash %#x (%v) and tick %d hash %#x (%v): want the same", a.Tick, a.Hash, a.HasHash, b.Tick, b.Hash, b.HasHash)
	}
}

func roundOf(sim *frameworktest.Sim) Round { return *ecs.GetResource[Round](sim.App.World()) }

// Two players at one keyboard: each seat's keys move its own ship, and
// shots score.
func TestLocalTwoPlayers(t *testing.T) {
	sim, err := frameworktest.New(newGame(), frameworktest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Player 1 holds D (right) for half a second, player 2 nothing.
	sim.Input.Tap(sim.At(0), input.KeyD, 500*time.Millisecond)
	if err := sim.Step(60); err != nil {
		t.Fatal(err)
	}
	var at [2]float32
	q := ecs.NewFilter2[ecs.Transform, Ship](sim.App.World()).Query()
	for q.Next() {
		tr, s := q.Get()
		at[s.Player] = tr.Position.X
	}
	if at[0] <= spawnAt[0].X+100 {
		t.Errorf("player 1's ship at x %v after holding right, want past %v", at[0], spawnAt[0].X+100)
	}
	if at[1] != spawnAt[1].X {
		t.Errorf("player 2's ship moved to x %v without input, want %v", at[1], spawnAt[1].X)
	}
	// Player 1 faces player 2 across the arena and fires.
	for i := range 6 {
		sim.Input.Tap(sim.At(time.Second+time.Duration(i)*400*time.Millisecond), input.KeySpace, 2*tick)
	}
	if err := sim.Step(240); err != nil {
		t.Fatal(err)
	}
	if r := roundOf(sim); r.Score[0] == 0 {
		t.Errorf("player 1 fired along the arena at player 2 and scored nothing: %+v", r)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
}

// The duel is deterministic under --synctest 2: every tick is run again
// from a snapshot two ticks back, with the same hash.
//
// make test plays 1,500 ticks; the issue's figure is
// go test ./examples/duel -run '^TestSyncTest$' -synctest-ticks=100000 -v
func TestSyncTest(t *testing.T) {
	sim, err := frameworktest.New(newGame(), frameworktest.Options{SyncTest: 2, Sets: []string{"game.round=10s"}})
	if err != nil {
		t.Fatal(err)
	}
	sim.Fakes.Renderer.Discard = true // a copy of every frame is what makes a long run slow
	n := *syncTicks
	randomSeat(sim, 0, n, 1)
	randomSeat(sim, 1, n, 2)
	if err := sim.RunTicks(n); err != nil {
		t.Fatal(err)
	}
	st, _ := sim.SyncTestStats()
	if st.Checked == 0 {
		t.Fatal("no hash checked")
	}
	t.Logf("%+v; round %+v", st, roundOf(sim))
}

// issueNet is issue 25's network: 150 ms round trip, ±20 ms jitter, 5% loss.
var issueNet = netsim.Options{Latency: 75 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Seed: 26}

// lateStart is how late peer 1 starts: 12 ticks, which pacing evens out
// in 2 s and which without pacing shows as a stalled present.
var lateStart = 200 * time.Millisecond

// matchResult is what playMatch measured.
type matchResult struct {
	peers []*frameworktest.Peer
	// worst frame difference between the peers at any instant after 2 s,
	// and at the start; the longest present interval.
	worstAfter, startDiff int64
	longestPresent        time.Duration
	// longestTick is the longest real time between two ticks of one peer
	// (a figure: issue 26 asks for no whole-frame waits), and when.
	longestTick, longestTickAt time.Duration
	problems                   []string
	late                       []string
}

// playMatch plays d of seeded random input between two peers through the
// real runtime loop over issueNet, with input delay 2, the frame cap at
// 60 Hz and peer 1 starting lateStart late, and checks issue 25's
// conditions: no desync, no rollback deeper than the window, the peers
// within one tick of each other after 2 s, no present interval longer
// than twice the cap's, and the same world at the same confirmed tick.
func playMatch(t testing.TB, d time.Duration, sets ...string) matchResult {
	t.Helper()
	peers, err := frameworktest.Match(newGame, frameworktest.MatchOptions{
		Options: frameworktest.Options{Sets: append([]string{"runtime.frame_cap=60", "window.vsync=false", "net.delay=2"}, sets...)},
		Net:     issueNet, For: d, Start: []time.Duration{0, lateStart},
		Script: func(peer int, sim *frameworktest.Sim) { randomSeat(sim, 0, int(d/tick), uint64(10+peer)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	r := matchResult{peers: peers}
	bad := func(f string, a ...any) { r.problems = append(r.problems, fmt.Sprintf(f, a...)) }
	a, b := peers[0], peers[1]
	for i, p := range peers {
		st := p.Stats
		if st.Desyncs != 0 || st.Hashes == 0 {
			bad("peer %d: %d desyncs in %d hashes compared", i, st.Desyncs, st.Hashes)
		}
		if st.MaxDepth > 8 {
			bad("peer %d: a rollback %d ticks deep, past the window of 8", i, st.MaxDepth)
		}
		for k := 1; k < len(p.Trace); k++ {
			if gap := time.Duration(p.Trace[k].At - p.Trace[k-1].At); p.Trace[k].Tick != p.Trace[k-1].Tick && gap > r.longestTick {
				r.longestTick, r.longestTickAt = gap, time.Duration(p.Trace[k].At-p.Trace[0].At)
			}
		}
		ins := p.Fakes.Presenter.Instants()
		for k := 1; k < len(ins); k++ {
			r.longestPresent = max(r.longestPresent, time.Duration(ins[k]-ins[k-1]))
		}
	}
	if limit := 2 * time.Second / 60; r.longestPresent > limit {
		bad("a present interval of %v, over twice the cap's (%v)", r.longestPresent, limit)
	}
	start := a.Trace[0].At
	r.startDiff = a.TickAt(start+timing.Instant(100*time.Millisecond)) - b.TickAt(start+timing.Instant(100*time.Millisecond))
	for _, s := range a.Trace {
		if s.At < start+timing.Instant(2*time.Second) {
			continue
		}
		diff := s.Tick - b.TickAt(s.At)
		if diff > 1 || diff < -1 {
			r.late = append(r.late, fmt.Sprintf("%v:%d", time.Duration(s.At-start).Round(time.Millisecond), diff))
		}
		r.worstAfter = max(r.worstAfter, diff, -diff)
	}
	if r.worstAfter > 1 {
		bad("peers %d ticks apart after 2 s (%d at the start), want at most 1", r.worstAfter, r.startDiff)
	}
	if !a.HasHash || !b.HasHash {
		bad("a peer confirmed no hashed tick")
	} else if a.Tick == b.Tick && a.Hash != b.Hash {
		bad("confirmed tick %d: hashes %016x and %016x differ", a.Tick, a.Hash, b.Hash)
	} else if a.Tick != b.Tick {
		ha, oka := a.Sim.ConfirmedHashAt(min(a.Tick, b.Tick))
		hb, okb := b.Sim.ConfirmedHashAt(min(a.Tick, b.Tick))
		if oka && okb && ha != hb {
			bad("confirmed tick %d: hashes %016x and %016x differ", min(a.Tick, b.Tick), ha, hb)
		}
	}
	return r
}

func logMatch(t testing.TB, r matchResult) {
	for i, p := range r.peers {
		st := p.Stats
		t.Logf("peer %d: tick %d confirmed %d; %d rollbacks (%.1f/s), mean depth %.2f, deepest %d; advantage %.1f; %d held; %.0f B/s sent; %d hashes compared; last confirmed tick %d hash %016x",
			i, st.Tick, st.Confirmed, st.Rollbacks, float64(st.Rollbacks)/st.Seconds, float64(st.Resimulated)/max(1, float64(st.Rollbacks)),
			st.MaxDepth, st.Advantage, st.Held, float64(st.BytesSent)/st.Seconds, st.Hashes, p.Tick, p.Hash)
	}
	t.Logf("late: %v", r.late)
	t.Logf("start difference %d ticks, worst after 2 s %d; longest present interval %v, longest between ticks %v (at %v)", r.startDiff, r.worstAfter, r.longestPresent, r.longestTick, r.longestTickAt)
}

// Two peers over the simulated network at issue 25's conditions, each
// through the real runtime loop: no desync, identical confirmed worlds,
// pacing evens out a late start within 2 s without a long present.
func TestNetworkedMatch(t *testing.T) {
	r := playMatch(t, 20*time.Second)
	logMatch(t, r)
	for _, p := range r.problems {
		t.Error(p)
	}
	// The HUD shows the match's figures.
	q := ecs.NewFilter2[ecs.Text, Label](r.peers[0].App.World()).Query()
	line := ""
	for q.Next() {
		if text, l := q.Get(); l.Shows == netLabel {
			line = text.Content
		}
	}
	if !strings.Contains(line, "rollbacks") || !strings.Contains(line, "B/s") {
		t.Errorf("the HUD's net line reads %q, want the rollbacks and bytes per second", line)
	}
	t.Logf("HUD: %s", line)
}

// With pacing off the late peer is evened out by stalls: a present waits
// for far more than twice the cap's interval, so the checks of
// TestNetworkedMatch can fail.
func TestNetworkedMatchNeedsPacing(t *testing.T) {
	r := playMatch(t, 10*time.Second, "timing.debt.pacing=false")
	logMatch(t, r)
	if len(r.problems) == 0 {
		t.Error("no problem found with pacing off: the paced test would not notice pacing missing")
	}
	t.Logf("problems with pacing off: %q", r.problems)
}

// BenchmarkNetworkedMatch measures a 20 s match at issue 25's conditions
// through the real loop, paced and (the baseline of the same run) with
// pacing off.
func BenchmarkNetworkedMatch(b *testing.B) {
	for _, c := range []struct{ name, set string }{{"paced", "timing.debt.pacing=true"}, {"unpaced", "timing.debt.pacing=false"}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var r matchResult
			for b.Loop() {
				r = playMatch(b, 20*time.Second, c.set)
			}
			var rb, resim, bytes uint64
			var secs float64
			for _, p := range r.peers {
				rb += p.Stats.Rollbacks
				resim += p.Stats.Resimulated
				bytes += p.Stats.BytesSent
				secs += p.Stats.Seconds
			}
			b.ReportMetric(float64(rb)/secs, "rollbacks/s/peer")
			b.ReportMetric(float64(resim)/max(1, float64(rb)), "mean-depth-ticks")
			b.ReportMetric(float64(r.worstAfter), "max-advantage-after-2s-ticks")
			b.ReportMetric(float64(r.longestPresent)/float64(time.Millisecond), "longest-present-ms")
			b.ReportMetric(float64(r.longestTick)/float64(time.Millisecond), "longest-tick-ms")
			b.ReportMetric(float64(bytes)/secs, "bytes/s/peer")
			b.ReportMetric(float64(len(r.problems)), "problems")
		})
	}
}

// A game at one keyboard records and replays like any other: the seats'
// input is the devices', and the replay checks every world hash.
func TestRecordingReplays(t *testing.T) {
	path := t.TempDir() + "/duel.rec"
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Record: path})
	if err != nil {
		t.Fatal(err)
	}
	randomSeat(sim, 0, 600, 3)
	randomSeat(sim, 1, 600, 4)
	if err := sim.RunTicks(600); err != nil {
		t.Fatal(err)
	}
	want := roundOf(sim)
	rep, err := frameworktest.NewReplay(newGame(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.RunTicks(600); err != nil && !errors.Is(err, frameworktest.ErrEnded) {
		t.Fatal(err)
	}
	if got := roundOf(rep); got != want {
		t.Errorf("replayed round %+v, want %+v", got, want)
	}
}

// With net.window = 0 the match is lockstep: over issue 25's network the
// peers never predict or roll back and end on the same confirmed world.
func TestLockstepMatch(t *testing.T) {
	const d = 10 * time.Second
	peers, err := frameworktest.Match(newGame, frameworktest.MatchOptions{
		Options: frameworktest.Options{Sets: []string{"runtime.frame_cap=60", "window.vsync=false", "net.delay=2", "net.window=0"}},
		Net:     issueNet, For: d,
		Script: func(peer int, sim *frameworktest.Sim) { randomSeat(sim, 0, int(d/tick), uint64(20+peer)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	a, b := peers[0], peers[1]
	for i, p := range peers {
		st := p.Stats
		if st.Rollbacks != 0 || st.Predicted != 0 {
			t.Errorf("peer %d: %d rollbacks, %d predicted player-ticks; lockstep wants none", i, st.Rollbacks, st.Predicted)
		}
		if st.Desyncs != 0 || st.Hashes == 0 {
			t.Errorf("peer %d: %d desyncs in %d hashes compared", i, st.Desyncs, st.Hashes)
		}
		t.Logf("peer %d: tick %d, confirmed %d, %d held; last confirmed tick %d hash %016x", i, st.Tick, st.Confirmed, st.Held, p.Tick, p.Hash)
	}
	k := min(a.Tick, b.Tick)
	ha, oka := a.Sim.ConfirmedHashAt(k)
	hb, okb := b.Sim.ConfirmedHashAt(k)
	if !oka || !okb || ha != hb {
		t.Errorf("confirmed tick %d: hashes %016x (%v) and %016x (%v)", k, ha, oka, hb, okb)
	}
}
