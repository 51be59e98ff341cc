package rollback

import (
	"errors"
	"fmt"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/timing"
)

// DefaultDelay is the input delay [DefaultOptions] gives a player, and
// DefaultWindow and DefaultHashEvery its prediction window and hash
// interval.
const (
	DefaultDelay     = 2
	DefaultWindow    = 8
	DefaultHashEvery = 60
)

// Player is one player of a match.
type Player struct {
	// Peer is the session whose game reads this player's devices; the
	// player is local to that session and remote to the others.
	Peer int
	// Delay is the input delay in ticks, 0 to 16: an input given during
	// tick t is this player's input for tick t+Delay, so peers usually
	// have it before they need it. Zero is no delay.
	Delay int
}

// Options configures a [Session]. Zero fields keep their zero meaning, as
// documented per field; [DefaultOptions] returns the defaults.
type Options struct {
	// Self is this session's peer number, 0 to 63.
	Self int
	// Players lists every player of the match, 1 to 16, in the order every
	// peer uses; the index is the player number.
	Players []Player
	// Actions is the number of action states in one player's input for
	// one tick, 1 to 64: the game's [input.Action] values 0 to Actions-1.
	Actions int
	// Window is the prediction window, 0 to 64 ticks: how far the session
	// simulates past the last tick whose inputs are all confirmed. Past it
	// the session holds the simulation back (see [Step.Held]). Zero is
	// lockstep: the session never predicts and never rolls back; it
	// simulates a tick only once every player's input for it is
	// confirmed, and holds until then.
	Window int
	// HashEvery is the hash interval in confirmed ticks, 0 to 3600; zero
	// sends no hashes and detects no desync. 1 is for development.
	HashEvery int
	// Clock measures the real time spent resimulating; nil is
	// [timing.SystemClock].
	Clock timing.Clock
	// LogBytes bounds the confirmed input log, 0 to [MaxLogBytes]: the
	// session keeps every player's confirmed input of every tick from its
	// first (0, or [NewSessionAfter]'s) in at most LogBytes bytes
	// (reserved at once, touched as it fills), so that a [Feed] can stream them to a spectator or a peer
	// catching up. At one to a few bytes a tick, [DefaultLogBytes] holds
	// tens of hours at 60 Hz; a full log stops logging and a feed asked
	// past its end fails with [ErrLogFull]. Zero keeps no log.
	LogBytes int
}

// DefaultOptions returns the defaults: a window of 8 ticks and a hash
// every 60 ticks. Add the players with [DefaultDelay] (2 ticks) or a
// delay of their own.
func DefaultOptions() Options {
	return Options{Window: DefaultWindow, HashEvery: DefaultHashEvery}
}

// Validate reports every invalid field at once, each as an *option.Error.
// Its ranges are the package's only statement of them: MatchOptions, the
// functions that take one of these values alone (NewApp, NewFollower),
// and the framework's seats check them against the same ranges.
func (o Options) Validate() error {
	var errs []error
	check := func(r span, field string, v int) {
		if err := r.check("Options."+field, v); err != nil {
			errs = append(errs, err)
		}
	}
	check(peerRange, "Self", o.Self)
	check(playersRange, "Players", len(o.Players))
	for i, p := range o.Players {
		check(peerRange, fmt.Sprintf("Players[%d].Peer", i), p.Peer)
		check(delayRange, fmt.Sprintf("Players[%d].Delay", i), p.Delay)
	}
	check(actionsRange, "Actions", o.Actions)
	check(windowRange, "Window", o.Window)
	check(hashEveryRange, "HashEvery", o.HashEvery)
	if o.LogBytes < 0 || o.LogBytes > MaxLogBytes {
		errs = append(errs, &option.Error{Pkg: "rollback", Field: "Options.LogBytes", Value: o.LogBytes, Problem: "is out of range", Allowed: "0 (no log) to 1 GiB"})
	}
	return errors.Join(errs...)
}

// span is the range of an option, stated once and checked wherever the
// value travels, each place naming it its own way.
type span struct {
	min, max int
	allowed  string
}

// The ranges of Options' fields, and of a host's spectator delay.
var (
	peerRange      = span{0, maxPeers - 1, "0 to 63"}
	playersRange   = span{1, maxPlayers, "1 to 16 players"}
	delayRange     = span{0, maxDelay, "0 to 16 ticks"}
	actionsRange   = span{1, maxActions, "1 to 64"}
	windowRange    = span{0, maxWindow, "0 to 64 ticks (0 is lockstep)"}
	hashEveryRange = span{0, maxHashEvery, "0 (no hashes) to 3600 ticks"}
	spectatorDelay = span{0, maxSpectatorDelay, "0 to 600 ticks"}
)

// check returns an *option.Error naming field when v is outside r.
func (r span) check(field string, v int) error {
	if v < r.min || v > r.max {
		return &option.Error{Pkg: "rollback", Field: field, Value: v, Problem: "is out of range", Allowed: r.allowed}
	}
	return nil
}

const (
	maxPeers   = 64
	maxPlayers = 16
	maxDelay   = 16
	maxActions = 64
	maxWindow  = 64
	hashSlots  = 32
	// maxHashEvery bounds every hash interval: a minute at 60 Hz.
	maxHashEvery = 3600
	// maxSpectatorDelay bounds a host's spectator delay: 10 s at 60 Hz.
	maxSpectatorDelay = 600
	// maxDebt bounds a debt in a message, in ticks: days at 60 Hz.
	maxDebt = 1 << 24
)

// Simulation is what a session drives: the game's deterministic state,
// which it saves, restores and steps. The ECS offers one for an ecs.App;
// a game writes none of these itself.
type Simulation interface {
	// Save keeps the current state as the state before tick. The session
	// restores only the last Window+1 ticks it saved.
	Save(tick int64) error
	// Restore puts back the state saved for tick.
	Restore(tick int64) error
	// Step runs one tick with the inputs of every player. resim is true
	// while the session resimulates ticks it already ran once: extract no
	// frame then and match side effects to those already made.
	Step(in *Inputs, resim bool) error
	// Hash returns the hash of the current state.
	Hash() uint64
}

// Inputs is every player's input for one tick, lent to [Simulation.Step].
type Inputs struct {
	s    *Session
	f    *Follower
	tick int64
}

// Tick returns the tick these inputs are for.
func (in *Inputs) Tick() int64 { return in.tick }

// Players returns the number of players.
func (in *Inputs) Players() int {
	if in.f != nil {
		return in.f.players
	}
	return in.s.players
}

// Player returns player p's action states for the tick, indexed by
// [input.Action]. The slice is valid during Step only.
func (in *Inputs) Player(p int) []input.Stats {
	if in.f != nil {
		return in.f.row(in.tick, p)
	}
	return in.s.used(in.tick, p)
}

// Predicted reports whether player p's input is a prediction (the
// player's last confirmed input repeated) rather than confirmed.
func (in *Inputs) Predicted(p int) bool { return in.f == nil && !in.s.confirmed(p, in.tick) }

// Step is what one [Session.Advance] did.
type Step struct {
	// Tick is the tick simulated, or the tick held back.
	Tick int64
	// Held reports that the session did not simulate: the tick would be
	// more than Window ticks past the last fully confirmed one.
	Held bool
	// Resimulated is the number of ticks run again after a rollback, and
	// ResimulationTime the real time that took.
	Resimulated      int
	ResimulationTime time.Duration
}

// Desync is a peer's hash of a confirmed tick that differs from ours.
type Desync struct {
	Tick          int64
	Peer          int
	Local, Remote uint64
}

// Error reads "rollback: desync at tick 600 with peer 1: local hash ..., peer's ...".
func (d Desync) Error() string {
	return fmt.Sprintf("rollback: desync at tick %d with peer %d: local hash %#016x, peer's %#016x", d.Tick, d.Peer, d.Local, d.Remote)
}

// Stats are a session's counts since it started.
type Stats struct {
	// Tick is the next tick to simulate; Confirmed the first tick whose
	// inputs are not all confirmed yet.
	Tick, Confirmed int64
	// Rollbacks counts restores; Resimulated the ticks run again, and
	// MaxDepth the most ticks one rollback ran again (never more than
	// Window). ResimulationTime is the real time resimulating took.
	Rollbacks, Resimulated uint64
	MaxDepth               int
	ResimulationTime       time.Duration
	// Held counts calls of Advance that held the simulation back at the
	// window's end instead of predicting further (a rollback past the
	// window is never dropped).
	Held uint64
	// Predicted counts the player-ticks simulated on a prediction, and
	// Mispredicted those whose confirmed input differed.
	Predicted, Mispredicted uint64
	// Refused counts remote inputs refused for a tick beyond what the
	// window lets the session hold, for a player that is not the
	// sender's, or coded against a tick the session does not hold;
	// Duplicates inputs received again; Malformed messages that
	// did not decode.
	Refused, Duplicates, Malformed uint64
	// Hashes counts peer hashes compared; StaleHashes peer hashes for a
	// tick this session no longer holds (reported, never ignored), the
	// latest in StaleHashTick; Desyncs the hashes that differed.
	Hashes, StaleHashes, Desyncs uint64
	StaleHashTick                int64
	// Advantage is how many ticks this session is ahead of its peers
	// (negative when behind), half the difference of both sides' views so
	// that latency cancels out; see [Session.AdvantageDebt].
	Advantage float64
}

// Session runs one peer's side of a rollback match. It belongs to the
// simulation goroutine: every method must be called from it.
type Session struct {
	opts    Options
	sim     Simulation
	clock   timing.Clock
	players int
	actions int
	window  int
	ringLen int // input ring, per player

	tick     int64
	started  bool
	frontier []int64 // per player: every tick below it is confirmed
	pending  int64   // earliest tick to resimulate, -1 for none

	inputs []input.Stats // ringLen × players × actions, confirmed
	stamps []int64       // ringLen × players: tick held in the slot, -1 none
	usedIn []input.Stats // (window+1) × players × actions
	local  []input.Stats // players × actions: next local input
	// carry holds, per local player, the input of the updates held since
	// the last simulated one, merged, and carried how many there were.
	carry   []input.Stats
	carried []int
	zero    []input.Stats

	peerTick []int64   // per peer: latest tick it reported
	peerAdv  []float64 // per peer: the advantage it reported
	peerDebt []int64   // per peer: the debt it reported, in ticks
	debt     int64     // this session's debt, in ticks (SetDebt)
	peerAck  []int64   // peers × players: the peer's frontier
	peerSeen []bool

	hashes [hashSlots]hashEntry
	desync Desync

	remotePeers []int
	seatless    []int         // the remote peers that play no player (AddPeer)
	scratch     []input.Stats // one decoded input
	scratchRows []input.Stats // every player's input of one tick
	log         *inputLog
	in          Inputs // lent to Step
	// filled has bit i set while the session confirms peer i's
	// players' inputs itself (Fill); resync says why the session left
	// the host's timeline (ErrResync), the first reason only, "" while it
	// has not.
	filled uint64
	resync string
	// fillFrom[p] is the first tick the host filled player p's input
	// at, since its latest Fill; begin is the tick this session started
	// at (NewSessionAfter's), which no fill it must answer begins before.
	fillFrom []int64
	begin    int64

	stats Stats
}

type hashEntry struct {
	tick          int64 // -1 for none
	local, remote uint64
	hasLocal      bool
	final         bool
	hasRemote     bool
	remotePeer    int
	checked       bool
	sent          int // messages that carried it once final
}

// NewSession validates opts and returns a session driving sim, at tick 0.
func NewSession(sim Simulation, opts Options) (*Session, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if sim == nil {
		return nil, errors.New("rollback: NewSession needs a Simulation, have nil")
	}
	s := &Session{opts: opts, sim: sim, clock: opts.Clock, players: len(opts.Players), actions: opts.Actions, window: opts.Window, pending: -1}
	if s.clock == nil {
		s.clock = timing.SystemClock{}
	}
	md := 0
	for _, p := range opts.Players {
		md = max(md, p.Delay)
	}
	// A peer runs at most Window past its own confirmed tick, which is at
	// most Delay past ours: its inputs reach at most 2(Window+Delay) past
	// what we last confirmed of it.
	s.ringLen = 2*(s.window+md) + 2
	if s.window == 0 {
		// In lockstep a local input is given one tick sooner, before the
		// tick before it is simulated: the peers may lack one tick more.
		s.ringLen += 2
	}
	s.inputs = make([]input.Stats, s.ringLen*s.players*s.actions)
	s.stamps = make([]int64, s.ringLen*s.players)
	for i := range s.stamps {
		s.stamps[i] = -1
	}
	s.usedIn = make([]input.Stats, (s.window+1)*s.players*s.actions)
	s.local = make([]input.Stats, s.players*s.actions)
	s.carry = make([]input.Stats, s.players*s.actions)
	s.carried = make([]int, s.players)
	s.zero = make([]input.Stats, s.actions)
	s.frontier = make([]int64, s.players)
	s.fillFrom = make([]int64, s.players)
	for p, pl := range opts.Players {
		// Ticks before a player's delay have no input: zero, confirmed.
		for k := range int64(pl.Delay) {
			s.stamps[s.slot(k)*s.players+p] = k
		}
		s.frontier[p] = int64(pl.Delay)
	}
	s.peerTick = make([]int64, maxPeers)
	s.peerAdv = make([]float64, maxPeers)
	s.peerDebt = make([]int64, maxPeers)
	s.peerAck = make([]int64, maxPeers*s.players)
	s.peerSeen = make([]bool, maxPeers)
	for i := range s.hashes {
		s.hashes[i].tick = -1
	}
	s.stats.StaleHashTick = -1
	s.scratch = make([]input.Stats, s.actions)
	if opts.LogBytes > 0 {
		s.log = newInputLog(0, opts.LogBytes, s.players, s.actions)
		s.scratchRows = make([]input.Stats, s.players*s.actions)
	}
	for _, pl := range opts.Players {
		if pl.Peer != opts.Self && !s.isPeer(pl.Peer) {
			s.remotePeers = append(s.remotePeers, pl.Peer)
		}
	}
	return s, nil
}

func (s *Session) slot(k int64) int { return int(k % int64(s.ringLen)) }

func (s *Session) confirmed(p int, k int64) bool {
	return k >= 0 && s.stamps[s.slot(k)*s.players+p] == k
}

func (s *Session) stored(p int, k int64) []input.Stats {
	i := (s.slot(k)*s.players + p) * s.actions
	return s.inputs[i : i+s.actions]
}

func (s *Session) used(k int64, p int) []input.Stats {
	i := (int(k%int64(s.window+1))*s.players + p) * s.actions
	return s.usedIn[i : i+s.actions]
}

// best is the input to simulate player p's tick k with: the confirmed one,
// or the player's last confirmed input repeated.
func (s *Session) best(p int, k int64) []input.Stats {
	if s.confirmed(p, k) {
		return s.stored(p, k)
	}
	if last := s.frontier[p] - 1; last >= 0 && s.confirmed(p, last) {
		return s.stored(p, last)
	}
	return s.zero
}

func (s *Session) isLocal(p int) bool { return s.opts.Players[p].Peer == s.opts.Self }

func (s *Session) minFrontier() int64 {
	m := s.frontier[0]
	for _, f := range s.frontier[1:] {
		m = min(m, f)
	}
	return m
}

// Tick returns the next tick the session simulates.
func (s *Session) Tick() int64 { return s.tick }

// Local returns the buffer for local player p's next input, indexed by
// [input.Action]: fill it before each [Session.Advance] with the input
// of the interval since the last one. The session takes it as the
// player's input for tick Tick()+Delay when Advance simulates; when
// Advance holds, it keeps it and merges it with the next fill, so that
// the tick takes the input of every interval since the last simulated
// update: presses, releases and held time add up, WasDown, StartValue
// come from the first, Down and Value from the last, Peak is the largest
// and Mean the average (each interval counting as one update). It panics
// when p is not a local player.
func (s *Session) Local(p int) []input.Stats {
	if p < 0 || p >= s.players || !s.isLocal(p) {
		panic(fmt.Sprintf("rollback: Session.Local(%d): not a local player of peer %d", p, s.opts.Self))
	}
	return s.local[p*s.actions : (p+1)*s.actions]
}

// Advance runs one update: first, if a confirmed input differed from its
// prediction, it restores the state of that tick and resimulates up to the
// present; then it simulates the present tick, unless that would take the
// simulation more than Window ticks past the last fully confirmed tick, in
// which case it holds (see [Step.Held]) and the caller owes the time, as
// debt. An error of the Simulation stops the session's progress and is
// returned wrapped.
func (s *Session) Advance() (Step, error) {
	if s.resync != "" {
		return Step{}, fmt.Errorf("%w: %s", ErrResync, s.resync)
	}
	s.fill()
	if !s.started {
		if err := s.sim.Save(s.tick); err != nil {
			return Step{}, fmt.Errorf("rollback: saving tick %d: %w", s.tick, err)
		}
		s.started = true
		s.hashState(s.tick)
	}
	var st Step
	if s.pending >= 0 {
		n, d, err := s.resimulate()
		st.Resimulated, st.ResimulationTime = n, d
		if err != nil {
			return st, err
		}
	}
	if s.window == 0 {
		// Lockstep: every peer needs this update's input before any can
		// simulate the tick it is for, so it is given now, held or not.
		for p := range s.players {
			if !s.isLocal(p) {
				continue
			}
			if k := s.tick + int64(s.opts.Players[p].Delay); s.confirmed(p, k) {
				s.carryLocal(p)
			} else {
				s.commitLocal(p, k)
			}
		}
	}
	mf := s.minFrontier()
	st.Tick = s.tick
	if s.tick-mf >= int64(s.window) || s.outrunsAddedPeer() {
		s.stats.Held++
		st.Held = true
		for p := range s.players {
			if s.isLocal(p) && s.window > 0 {
				s.carryLocal(p)
			}
		}
		s.finishHashes(mf)
		return st, nil
	}
	for p := range s.players {
		if s.isLocal(p) && s.window > 0 {
			s.commitLocal(p, s.tick+int64(s.opts.Players[p].Delay))
		}
	}
	if err := s.step(s.tick, false); err != nil {
		return st, err
	}
	s.finishHashes(s.minFrontier())
	return st, nil
}

// commitLocal makes local player p's input, with what held updates
// carried, its confirmed input for tick k.
func (s *Session) commitLocal(p int, k int64) {
	if s.carried[p] > 0 {
		s.carryLocal(p)
		s.carried[p] = 0
		copy(s.stored(p, k), s.carry[p*s.actions:(p+1)*s.actions])
	} else {
		copy(s.stored(p, k), s.local[p*s.actions:(p+1)*s.actions])
	}
	s.stamps[s.slot(k)*s.players+p] = k
	s.frontier[p] = k + 1
	s.logConfirmed()
}

// carryLocal merges local player p's input into what the updates held
// since the last simulated one carry.
func (s *Session) carryLocal(p int) {
	c, l := s.carry[p*s.actions:(p+1)*s.actions], s.local[p*s.actions:(p+1)*s.actions]
	n := s.carried[p]
	s.carried[p]++
	if n == 0 {
		copy(c, l)
		return
	}
	for a := range c {
		c[a] = followedBy(c[a], l[a], n)
	}
}

// followedBy returns the input of an interval made of n intervals whose
// merged input is a and then one more whose input is b.
func followedBy(a, b input.Stats, n int) input.Stats {
	m := a
	m.Down, m.Value = b.Down, b.Value
	m.Presses += b.Presses
	m.Releases += b.Releases
	m.Held += b.Held
	m.Mean = (a.Mean*float32(n) + b.Mean) / float32(n+1)
	if abs32(b.Peak) > abs32(a.Peak) {
		m.Peak = b.Peak
	}
	return m
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// step simulates tick k with the best inputs, saves the state after it and
// hashes it when due.
func (s *Session) step(k int64, resim bool) error {
	for p := range s.players {
		copy(s.used(k, p), s.best(p, k))
		if !s.confirmed(p, k) && !resim {
			s.stats.Predicted++
		}
	}
	s.in = Inputs{s: s, tick: k}
	if err := s.sim.Step(&s.in, resim); err != nil {
		return fmt.Errorf("rollback: tick %d: %w", k, err)
	}
	if err := s.sim.Save(k + 1); err != nil {
		return fmt.Errorf("rollback: saving tick %d: %w", k+1, err)
	}
	s.tick = k + 1
	s.hashState(k + 1)
	return nil
}

func (s *Session) resimulate() (int, time.Duration, error) {
	from, to := s.pending, s.tick
	s.pending = -1
	start := s.clock.Now()
	if err := s.sim.Restore(from); err != nil {
		return 0, 0, fmt.Errorf("rollback: restoring tick %d: %w", from, err)
	}
	s.tick = from
	for k := from; k < to; k++ {
		if err := s.step(k, true); err != nil {
			return int(k - from), 0, err
		}
	}
	d := time.Duration(max(s.clock.Now()-start, 0))
	n := int(to - from)
	s.stats.Rollbacks++
	s.stats.Resimulated += uint64(n)
	s.stats.MaxDepth = max(s.stats.MaxDepth, n)
	s.stats.ResimulationTime += d
	return n, d, nil
}

// confirm stores remote player p's input for tick k and moves the
// player's frontier over every contiguous confirmed tick, marking the
// earliest simulated tick whose prediction was wrong.
func (s *Session) confirm(p int, k int64, in []input.Stats) {
	f := s.frontier[p]
	if k < f || s.confirmed(p, k) {
		s.stats.Duplicates++
		return
	}
	// The ring keeps every tick from the first one not settled (the last
	// simulated or the first unconfirmed, whichever is earlier) on; a
	// peer that plays no player can see confirmations run far past its
	// tick (see AddPeer).
	if k >= s.Settled()-1+int64(s.ringLen) {
		s.stats.Refused++
		return
	}
	copy(s.stored(p, k), in)
	s.stamps[s.slot(k)*s.players+p] = k
	for s.confirmed(p, f) {
		if f < s.tick && !equal(s.used(f, p), s.stored(p, f)) {
			s.stats.Mispredicted++
			if s.pending < 0 || f < s.pending {
				s.pending = f
			}
		}
		f++
	}
	s.frontier[p] = f
	s.logConfirmed()
}

func equal(a, b []input.Stats) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (s *Session) hashState(k int64) {
	if s.opts.HashEvery == 0 || k%int64(s.opts.HashEvery) != 0 {
		return
	}
	e := &s.hashes[(k/int64(s.opts.HashEvery))%hashSlots]
	if e.tick != k {
		*e = hashEntry{tick: k}
	}
	e.local, e.hasLocal, e.final, e.sent = s.sim.Hash(), true, false, 0
}

// finishHashes marks final the hashes of every tick up to mf, all of whose
// inputs are confirmed and were simulated with, and compares them with
// the peers' hashes that came first.
func (s *Session) finishHashes(mf int64) {
	for i := range s.hashes {
		e := &s.hashes[i]
		if e.hasLocal && !e.final && e.tick <= mf {
			e.final = true
			if e.hasRemote {
				s.compare(e)
			}
		}
	}
}

func (s *Session) compare(e *hashEntry) {
	if e.checked {
		return
	}
	e.checked = true
	s.stats.Hashes++
	if e.local != e.remote {
		s.stats.Desyncs++
		if s.stats.Desyncs == 1 {
			s.desync = Desync{Tick: e.tick, Peer: e.remotePeer, Local: e.local, Remote: e.remote}
		}
	}
}

// remoteHash takes a peer's hash of its confirmed tick k.
func (s *Session) remoteHash(peer int, k int64, h uint64) {
	n := int64(s.opts.HashEvery)
	if n == 0 || k%n != 0 {
		s.stats.Malformed++
		return
	}
	e := &s.hashes[(k/n)%hashSlots]
	switch {
	case e.tick > k:
		s.stats.StaleHashes++
		s.stats.StaleHashTick = k
		return
	case e.tick < k:
		*e = hashEntry{tick: k}
	}
	if e.hasRemote || s.Filling(peer) {
		return // a repeat, or of a timeline the host left (Fill)
	}
	e.remote, e.hasRemote, e.remotePeer = h, true, peer
	if e.final {
		s.compare(e)
	}
}

// Desync returns the first desync found, and whether there was one.
func (s *Session) Desync() (Desync, bool) { return s.desync, s.stats.Desyncs > 0 }

// Stats returns the session's counts.
func (s *Session) Stats() Stats {
	st := s.stats
	st.Tick, st.Confirmed = s.tick, s.minFrontier()
	st.Advantage = s.advantage()
	return st
}

// advantage is the largest of the ticks this session is ahead of each
// peer: each side's view (its tick minus the peer's latest reported one)
// includes the one-way latency, and half their difference cancels it.
func (s *Session) advantage() float64 {
	adv, any := 0.0, false
	for peer, seen := range s.peerSeen {
		if !seen {
			continue
		}
		a := (float64(s.tick-s.peerTick[peer]) - s.peerAdv[peer]) / 2
		if !any || a > adv {
			adv, any = a, true
		}
	}
	return adv
}

// SetDebt gives the time this peer's scheduler owes, in whole ticks
// (negative when it is ahead of real time), for its next messages; it is
// clamped to about three days at 60 Hz. Peers share what they owe: see
// [Session.SharedDebt].
func (s *Session) SetDebt(ticks int64) { s.debt = min(max(ticks, -maxDebt), maxDebt) }

// SharedDebt is the mean of this session's debt ([Session.SetDebt]) and
// the latest debt each peer it has heard from reported, in ticks: what
// the match as a whole owes. A host that stalls owes the stall, and its
// peers, held at their windows meanwhile, owe about as much; a peer that
// owes less than the others holds or rolls back for them until they catch
// up. Every peer that moves its own debt to SharedDebt minus its frame
// advantage keeps the match's total debt, so the match repays a stall
// together, at the pace of its pacing, and no peer's lag is lost.
func (s *Session) SharedDebt() float64 {
	sum, n := float64(s.debt), 1
	for peer, seen := range s.peerSeen {
		if seen {
			sum += float64(s.peerDebt[peer])
			n++
		}
	}
	return sum / float64(n)
}

// AdvantageDebt is the frame advantage as time owed at the given step:
// ahead is negative debt, so a scheduler that repays debt by pacing
// (timing's RepayDebt) slows this peer down by a few percent until its
// peers catch up, and speeds a peer that is behind up, never by waiting
// whole frames.
func (s *Session) AdvantageDebt(step time.Duration) time.Duration {
	return -time.Duration(s.advantage() * float64(step))
}
