package rollback_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

// pacedResult is what a paced match measured.
type pacedResult struct {
	rollbacks, resimulated uint64
	maxDepth               int
	desyncs                uint64
	held                   uint64
	seconds                float64
	// worst |tick difference| between the peers at one instant after
	// settle, and at the start
	worstAfter, startDiff int64
	// worstTrue is the worst true frame advantage after settle, in
	// fractional ticks: how much earlier one peer ran a tick than the other.
	worstTrue float64
}

// pacedMatch runs two peers for d of virtual time, each under its own
// timing.Scheduler (60 Hz fixed, RepayDebt, rollback declared): every
// update the scheduler selects is one Session.Advance, a held update is
// owed back to the scheduler, resimulation is owed with
// AddResimulation, and every half second the frame advantage becomes
// debt with AdjustAdvantage. Peer 1 starts late by lag. The sessions
// read the match's virtual clock, so resimulating takes no time and the
// match is the same on every machine (the real time a rollback costs is
// the runtime's to owe; on a loaded machine it would change the result).
func pacedMatch(t testing.TB, netOpts netsim.Options, delay int, lag, d, settle time.Duration, pace bool) pacedResult {
	t.Helper()
	nw, err := netsim.NewNetwork(2, netOpts)
	if err != nil {
		t.Fatal(err)
	}
	players := []rollback.Player{{Peer: 0, Delay: delay}, {Peer: 1, Delay: delay}}
	type side struct {
		s     *rollback.Session
		sched *timing.Scheduler
	}
	var sides [2]side
	clock := timing.NewManualClock(0)
	o := timing.DefaultOptions()
	o.Mode, o.Recovery, o.Rollback, o.MaxFixedUpdates = timing.FixedMode, timing.RepayDebt, true, 2
	step := o.FixedStep
	for i := range sides {
		sim := newToy(rollback.DefaultWindow)
		sim.present = nil
		s, err := rollback.NewSession(sim, rollback.Options{Self: i, Players: players, Actions: 2, Window: rollback.DefaultWindow, HashEvery: rollback.DefaultHashEvery, Clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		sched, err := timing.NewScheduler(o)
		if err != nil {
			t.Fatal(err)
		}
		sides[i] = side{s, sched}
	}
	var res pacedResult
	started := [2]bool{}
	var ran [2][]time.Duration // per peer: when it ran each tick
	msg, buf := make([]byte, 0, 4096), make([]byte, 64<<10)
	const quantum = time.Millisecond
	for now := time.Duration(0); now < d; now += quantum {
		at := timing.Instant(now)
		clock.Set(at)
		for i := range sides {
			sd := &sides[i]
			for k, ok := nw.Link(1-i, i).Receive(at, buf); ok; k, ok = nw.Link(1-i, i).Receive(at, buf) {
				if err := sd.s.Receive(buf[:k]); err != nil {
					t.Fatal(err)
				}
			}
			if i == 1 && now < lag {
				continue
			}
			if !started[i] {
				sd.sched.Start(at)
				started[i] = true
			}
			batch, err := sd.sched.Advance(at)
			if err != nil {
				t.Fatal(err)
			}
			for range batch.Updates {
				script(1, i, sd.s.Tick()+int64(delay), sd.s.Local(i))
				st, err := sd.s.Advance()
				if err != nil {
					t.Fatal(err)
				}
				if st.Held {
					if err := sd.sched.AdjustDebt(step); err != nil {
						t.Fatal(err)
					}
				} else {
					ran[i] = append(ran[i], now)
				}
				if st.Resimulated > 0 {
					if err := sd.sched.AddResimulation(st.Resimulated, st.ResimulationTime); err != nil {
						t.Fatal(err)
					}
				}
				if pace && sd.s.Tick()%30 == 0 {
					// The advantage replaces whatever advantage debt pacing
					// has not repaid yet.
					want := sd.s.AdvantageDebt(step)
					if diff := want - sd.sched.Stats().DebtTime; diff > step/2 || diff < -step/2 {
						if err := sd.sched.AdjustAdvantage(diff); err != nil {
							t.Fatal(err)
						}
					}
				}
				msg = sd.s.AppendMessage(msg[:0])
				nw.Link(i, 1-i).Send(at, msg)
			}
		}
		diff := sides[0].s.Tick() - sides[1].s.Tick()
		if now == lag {
			res.startDiff = diff
		}
		if now >= settle {
			res.worstAfter = max(res.worstAfter, diff, -diff)
		}
	}
	for k := range min(len(ran[0]), len(ran[1])) {
		if ran[0][k] >= settle && ran[1][k] >= settle {
			res.worstTrue = max(res.worstTrue, (ran[0][k]-ran[1][k]).Abs().Seconds()/step.Seconds())
		}
	}
	for _, sd := range sides {
		st := sd.s.Stats()
		res.rollbacks += st.Rollbacks
		res.resimulated += st.Resimulated
		res.maxDepth = max(res.maxDepth, st.MaxDepth)
		res.desyncs += st.Desyncs + st.StaleHashes
		res.held += st.Held
		if st.Hashes == 0 {
			t.Fatal("no hashes compared")
		}
	}
	res.seconds = d.Seconds()
	return res
}

// The issue's conditions: 150 ms round trip, ±20 ms jitter, 5% loss,
// input delay 2; peer 1 starts 50 ms (3 ticks) late, and pacing evens the
// peers out.
var issueNet = netsim.Options{Latency: 75 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Seed: 25}

func TestPacedMatchOverALossyNetwork(t *testing.T) {
	r := pacedMatch(t, issueNet, 2, 50*time.Millisecond, 10*time.Second, 2*time.Second, true)
	if r.desyncs != 0 {
		t.Errorf("%d desyncs or stale hashes", r.desyncs)
	}
	if r.maxDepth > rollback.DefaultWindow {
		t.Errorf("rollback %d ticks deep, past the window", r.maxDepth)
	}
	if r.worstAfter > 1 {
		t.Errorf("peers %d ticks apart after 2 s (%d at the start), want at most 1", r.worstAfter, r.startDiff)
	}
	t.Logf("%+v", r)
}

// BenchmarkPacedMatch150msRTT measures the match with the frame advantage
// repaid by pacing ("paced") and, as the baseline of the same run, without
// it ("unpaced": the peers stay as far apart as they started).
func BenchmarkPacedMatch150msRTT(b *testing.B) {
	for _, pace := range []bool{true, false} {
		name := "unpaced"
		if pace {
			name = "paced"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var r pacedResult
			for b.Loop() {
				r = pacedMatch(b, issueNet, 2, 50*time.Millisecond, 10*time.Second, 2*time.Second, pace)
			}
			b.ReportMetric(float64(r.rollbacks)/2/r.seconds, "rollbacks/s/peer")
			b.ReportMetric(float64(r.resimulated)/max(float64(r.rollbacks), 1), "mean-depth-ticks")
			b.ReportMetric(float64(r.maxDepth), "max-depth-ticks")
			b.ReportMetric(float64(r.worstAfter), "max-advantage-after-2s-ticks")
			b.ReportMetric(r.worstTrue, "max-true-advantage-after-2s-ticks")
			b.ReportMetric(float64(r.startDiff), "start-advantage-ticks")
			b.ReportMetric(float64(r.desyncs), "desyncs")
			b.ReportMetric(float64(r.held)/2/r.seconds, "held/s/peer")
		})
	}
}
