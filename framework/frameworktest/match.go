package frameworktest

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/rollback/rollbacktest"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// MatchOptions configure [Match].
type MatchOptions struct {
	// Options are every peer's: Config or Sets (timing.mode must be
	// "fixed"), RenderCost. Record, Sound and SyncTest are refused.
	Options
	// Peers is the number of peers, one player each; 0 is the game's
	// Net.Players.
	Peers int
	// Net is the simulated network between every two peers.
	Net netsim.Options
	// The match's input delay, prediction window and hash interval are
	// the [net] table's: set them with Sets ("net.delay=2").
	// For is how long the match plays, in virtual time from the start;
	// every peer stops at the first update at or after it.
	For time.Duration
	// Start delays each peer's session by Start[i] of virtual time (a
	// peer that starts late); missing entries are 0.
	Start []time.Duration
	// Records, if set, are files each peer records its match to, as
	// --record does in a match (framework.Session.RecordMatch):
	// Records[i] is peer i's, "" or missing records nothing. Replay one
	// with [NewReplay] or framework.Replay.
	Records []string
	// Stalls make peers stop for a while mid-match, as a machine does in
	// a long collection, a swap or a suspended process.
	Stalls []Stall
	// Script, if set, scripts each peer's input (on sim.Input, at
	// sim.At(...)) before the match starts. Every peer's own player reads
	// the game's first seat.
	Script func(peer int, sim *Sim)
}

// Stall is a peer that stops: its first update at or after At (virtual
// time from the start) takes For of virtual time before it runs.
type Stall struct {
	Peer    int
	At, For time.Duration
}

// Peer is one peer of a finished [Match]: its Sim (the runtime, the
// fakes with every present's instant, the world) and its networked
// figures.
type Peer struct {
	*Sim
	// Stats are the peer's networked figures at the end.
	Stats framework.NetStats
	// Tick and Hash are its last confirmed, hashed tick and the world
	// hash there (framework.Session.ConfirmedHash); HasHash is false when
	// it confirmed none.
	Tick    int64
	Hash    uint64
	HasHash bool
	// Trace is the peer's rollback tick after each of its updates, with
	// the update's instant: two peers' traces give their frame
	// difference at any instant.
	Trace []TickAt
}

// TickAt is a peer's next rollback tick (rollback.Stats.Tick) as of an
// instant.
type TickAt struct {
	At   timing.Instant
	Tick int64
}

// TickAt returns the peer's rollback tick as of instant at: that after
// its last update at or before at (0 before its first).
func (p *Peer) TickAt(at timing.Instant) int64 {
	tr := p.Trace
	lo, hi := 0, len(tr)
	for lo < hi {
		m := (lo + hi) / 2
		if tr[m].At <= at {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return 0
	}
	return tr[lo-1].Tick
}

// Match plays a networked match of the game between opts.Peers sessions in one
// process: each runs through the real runtime loop on the fakes, all on
// one virtual clock, their messages carried by a simulated network
// (rollbacktest.Transport over netsim), for opts.For of virtual time. It
// calls game once per peer (and once more to read its Net), so that each
// session has its own settings and seats, as a game's newGame function
// gives them. It returns every peer once all have stopped, and the first session error,
// naming the peer (a desync is one: a rollback.Desync).
//
// The game lists a network in its Net.Networks, such as
// netplay.UDPNetwork(), as a networked game does: its driver plays each
// peer's side of the match (the simulated network carries the messages).
//
// The peers' waits are ordered by the shared clock, so a match is as
// fast as the CPU allows and a seed is the same match every run.
func Match(game func() framework.Game, opts MatchOptions) ([]*Peer, error) {
	g := game()
	if g.Net == nil {
		return nil, errors.New("frameworktest: Match needs a game with framework.Game.Net")
	}
	if opts.Record != "" || opts.RecordTo != nil || opts.Sound || opts.SyncTest != 0 {
		return nil, errors.New("frameworktest: Match: Options.Record, RecordTo, Sound and SyncTest are for one session (New)")
	}
	if opts.For <= 0 {
		return nil, fmt.Errorf("frameworktest: Match: For %v: want a positive duration", opts.For)
	}
	n := opts.Peers
	if n == 0 {
		n = g.Net.Players
	}
	stalls := slices.SortedFunc(slices.Values(opts.Stalls), func(a, b Stall) int { return cmp.Compare(a.At, b.At) })
	for _, st := range stalls {
		if st.Peer < 0 || st.Peer >= n || st.For <= 0 || st.At < 0 {
			return nil, fmt.Errorf("frameworktest: Match: Stall %+v: want a peer of the match, At 0 or more and For more than 0", st)
		}
	}
	nw, err := netsim.NewNetwork(n, opts.Net)
	if err != nil {
		return nil, fmt.Errorf("frameworktest: Match: %w", err)
	}
	shared := timing.NewManualClock(runtimetest.Start)
	trs := rollbacktest.NewTransports(nw, shared)
	peers := make([]int, n)
	for i := range peers {
		peers[i] = i
	}
	end := runtimetest.Start.AddSaturating(opts.For)
	var stopAll sync.Once
	sims := make([]*Sim, n)
	stop := func() {
		stopAll.Do(func() {
			for _, s := range sims {
				s.Runtime.Stop()
			}
		})
	}
	for i := range sims {
		// Each peer is a game of its own, whose Setup fills its seats.
		gi := game()
		m := &framework.Match{Transport: trs[i], Self: i, Peers: peers}
		var start time.Duration
		if i < len(opts.Start) {
			start = opts.Start[i]
		}
		o := opts.Options
		if i < len(opts.Records) {
			o.Record = opts.Records[i]
		}
		s, err := newSession(gi, o, &runtimetest.Clock{ManualClock: shared}, m)
		if err != nil {
			for _, o := range sims[:i] {
				o.Close()
			}
			return nil, fmt.Errorf("frameworktest: Match: peer %d: %w", i, err)
		}
		s.step.limit = ^uint64(0)
		s.step.trace = make([]TickAt, 0, int(opts.For/time.Millisecond)/4)
		s.step.end, s.step.stopAll, s.step.delay = end, stop, start
		for _, st := range stalls {
			if st.Peer == i {
				s.step.stalls = append(s.step.stalls, st)
			}
		}
		sims[i] = s
		if opts.Script != nil {
			opts.Script(i, s)
		}
	}
	// Every peer is paused before its loop; let them all go at once.
	for _, s := range sims {
		s.step.resume <- false
	}
	out := make([]*Peer, n)
	var errs []error
	for i, s := range sims {
		s.finish(<-s.done)
		if s.err != nil {
			errs = append(errs, fmt.Errorf("peer %d: %w", i, s.err))
		}
		p := &Peer{Sim: s, Trace: s.step.trace}
		p.Stats, _ = s.step.NetStats()
		p.Tick, p.Hash, p.HasHash = s.step.ConfirmedHash()
		out[i] = p
	}
	return out, errors.Join(errs...)
}

// NetStats returns the session's networked figures (framework.NetStats),
// and false when it plays no match. Between steps or after the session.
func (s *Sim) NetStats() (framework.NetStats, bool) { return s.step.NetStats() }

// ConfirmedHashAt returns the world hash of a networked session's
// confirmed timeline at tick (framework.Session.ConfirmedHashAt). Between
// steps or after the session.
func (s *Sim) ConfirmedHashAt(tick int64) (uint64, bool) { return s.step.ConfirmedHashAt(tick) }
