package framework

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/bits"
	"os"

	"time"

	"github.com/metronome-go/metronome/ecs"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Net declares that a game is played by several players, and which of its
// actions make one player's input. Its systems read every player's input
// from the [rollback.Players] resource the same way in every mode:
// Input(p)[i] is the state of the i-th action of player p's seat.
//
// Without a [Match] (no network) all players sit at this machine: player p
// reads Seats[p] from the devices, so two players share one keyboard; no
// tick is predicted or run again. In a match each machine's own player
// reads Seats[0], the others' inputs arrive over the match's transport,
// and a rollback session predicts and corrects them.
type Net struct {
	// Players is the number of players, 1 to 16.
	Players int
	// Seats lists, per player on one machine, the actions that make that
	// player's input, in the order the systems index them. Every seat has
	// the same number of actions (1 to 64); there is one seat per player.
	// Setup registers the actions, so it fills Seats (Game.Net is a
	// pointer for that); they are checked after it.
	Seats [][]input.Action
}

// validate checks n against the actions registered.
func (n *Net) validate(actions *input.Actions) error {
	var errs []error
	if n.Players < 1 || n.Players > 16 {
		errs = append(errs, fmt.Errorf("framework: Game.Net.Players %d: want 1 to 16", n.Players))
	}
	if len(n.Seats) != n.Players {
		errs = append(errs, fmt.Errorf("framework: Game.Net.Seats has %d seats for %d players: want one per player", len(n.Seats), n.Players))
	}
	for i, s := range n.Seats {
		if len(s) < 1 || len(s) > 64 {
			errs = append(errs, fmt.Errorf("framework: Game.Net.Seats[%d] has %d actions: want 1 to 64", i, len(s)))
		} else if len(s) != len(n.Seats[0]) {
			errs = append(errs, fmt.Errorf("framework: Game.Net.Seats[%d] has %d actions, Seats[0] %d: want the same in every seat", i, len(s), len(n.Seats[0])))
		}
		for j, a := range s {
			if a == input.NoAction || (actions != nil && int(a) > actions.Len()) {
				errs = append(errs, fmt.Errorf("framework: Game.Net.Seats[%d][%d] is action %d, which Setup never registered", i, j, a))
			}
		}
	}
	return errors.Join(errs...)
}

// Match is this machine's side of a networked match: the transport its
// messages travel through, its peer number and the peer each player plays
// at. The match's input delay, prediction window and hash interval are
// the configuration's [net] table (config.Config.Net), which every peer
// must share. The match layer that connects the peers (a host and those who join)
// makes one; tests make one over a simulated network
// (rollbacktest.NewTransports).
type Match struct {
	Transport rollback.Transport
	// Self is this machine's peer number.
	Self int
	// Peers[p] is the peer player p plays at; one per player of the
	// game's [Net]. The players at Self read the seats in order.
	Peers []int
	// Seatless lists the peers of the match that play no player, such as
	// a dedicated host (--dedicated), which relays the match and compares
	// its hashes: this machine sends them its messages too and accepts
	// theirs (rollback.Session.AddPeer). A machine whose Self plays no
	// player is itself seat-less: it runs the simulation only, with no
	// window, sound or input (see [RunOptions.Match]).
	Seatless []int
	// Spectator makes this machine a spectator of the match (Self is
	// then no player's peer, and Peers are the players' peers as on
	// every machine): it follows the confirmed inputs the host streams
	// instead of playing (--spectate).
	Spectator bool
	// Rejoining makes this machine take back its player's slot in a
	// match under way, as a new run of a player whose process ended
	// (netplay.Match.Rejoining): it first follows the host's confirmed
	// inputs from tick 0, as a spectator does, and plays on from the
	// tick it caught up on (rollback.NewSessionAfter).
	Rejoining bool
	// Late lists, at the host, the peers whose players had not joined
	// when the match started (net.start_with): the host plays them with
	// neutral input, on every peer, until each joins, catching up first
	// as a rejoining player does.
	Late []int
	// Bot, if not zero, plays this machine's players with input drawn
	// from this seed instead of the devices (--bot SEED), for soak runs
	// and tests of two processes against each other.
	Bot uint64
}

// seatless reports whether m gives this machine no player: a dedicated
// host's side of a match.
func (m *Match) seatless() bool {
	if m.Spectator {
		return false // it shows the match in a window unless told not to
	}
	for _, peer := range m.Peers {
		if peer == m.Self {
			return false
		}
	}
	return true
}

// NetStats are a networked session's figures for an overlay or a report.
type NetStats struct {
	// Stats are the rollback session's counts: rollbacks, resimulated
	// ticks and their depth, frame advantage, confirmed tick. Its
	// Advantage is the estimate pacing follows: the session's, averaged
	// over about half a second, as each message's jitter moves it.
	rollback.Stats
	// BytesSent and BytesReceived count the messages' bytes; Sent and
	// Received the messages.
	BytesSent, BytesReceived uint64
	Sent, Received           uint64
	// RTT is the transport's round-trip time, 0 when it gives none.
	RTT time.Duration
	// Waiting counts the peers this machine hears nothing from (each
	// reported disconnected): the match holds at its prediction window
	// until they come back (a player whose process ended rejoins with its
	// --join command) or net.join_timeout passes and the match ends.
	Waiting int
	// PlayedOn counts the times the host played on without a peer that
	// held the match past the debt cutoff (its players' input neutral
	// until it resynchronises), and Resyncs the times this peer
	// resynchronised from the host's snapshot after the host played on
	// without it.
	PlayedOn, Resyncs int
	// SlowedDown is the time the host dropped past the debt cutoff, which
	// the whole match lost together (timing.SharedSlowdown, see
	// [Session.MatchTiming]); zero on a joined player.
	SlowedDown time.Duration
	// Seconds is the simulated time the match has run, for rates.
	Seconds float64
}

// UseMatch makes the session play m instead of a local game: it needs a
// game with [Game.Net] and fixed timing (timing.mode = "fixed"), and it
// turns on the scheduler's repay-debt policy with rollback declared, so
// that resimulation, held ticks and frame advantage are repaid by pacing.
// Call it before the session runs; the transport is the session's to
// close once it ends.
func (s *Session) UseMatch(m *Match) error {
	if s.game.Net == nil {
		return errors.New("framework: a networked match needs a game that declares its players (Game.Net)")
	}
	if m.Transport == nil {
		return errors.New("framework: Match.Transport is nil")
	}
	if len(m.Peers) != s.game.Net.Players {
		return fmt.Errorf("framework: Match.Peers has %d peers for the game's %d players: want one per player", len(m.Peers), s.game.Net.Players)
	}
	if s.cfg.Timing.Mode != timing.FixedMode {
		return fmt.Errorf("framework: %s: a networked match needs timing.mode = \"fixed\" (rollback runs identical fixed steps), not %q", s.source, s.cfg.Timing.Mode)
	}
	if s.syncDepth != 0 {
		return errors.New("framework: --synctest and a networked match: a sync-test runs one machine alone")
	}
	s.match = m
	return nil
}

// matchStep is the step every tick of a match runs with: the fixed step,
// or an exact rate's step rounded to whole nanoseconds, as the scheduler
// gives it (timing.Scheduler.Step).
func matchStep(o timing.Options) time.Duration {
	if o.Rate.IsZero() {
		return o.FixedStep
	}
	return o.Rate.Step()
}

// MatchTiming returns o as the session's match runs it ([Session.UseMatch]
// first): repay-debt recovery with rollback declared, so that the
// session's debts reach pacing, and past the debt cutoff its role's
// policy (seed 001's HostDoes and OwnerDoes):
//   - the host slows the whole match down together
//     (timing.SharedSlowdown): it drops what it owes past the cutoff, and
//     its peers, who share the match's debt with it
//     (rollback.Session.SharedDebt), lose the same time with it;
//   - a joined player resynchronises (timing.Resync): it drops nothing
//     itself, since the host's slowdown drops for the match, and when the
//     host has played on without it (it held the match past the cutoff)
//     it catches up from the host's snapshot;
//   - a spectator keeps o's policy (timing.debt.past_cutoff): it plays no
//     part in the match's time.
func (s *Session) MatchTiming(o timing.Options) timing.Options {
	o.Recovery, o.Rollback = timing.RepayDebt, true
	o.Debt.VariableStep = false
	switch m := s.match; {
	case m == nil || m.Spectator:
	case m.Self == 0:
		o.Debt.PastCutoff, o.Debt.Hook = timing.SharedSlowdown, dropPast(o.Debt.Cutoff)
	default:
		o.Debt.PastCutoff, o.Debt.Hook = timing.Resync, dropPast(o.Debt.Cutoff)
	}
	return o
}

// dropPast is a match's answer past the debt cutoff: a host drops the
// debt past it (timing.SharedSlowdown), a joined player nothing.
func dropPast(cutoff time.Duration) timing.DebtHook {
	return timing.DebtHookFunc(func(policy timing.PastCutoff, debt time.Duration) time.Duration {
		if policy != timing.SharedSlowdown {
			return 0
		}
		return debt - cutoff
	})
}

// NetStats returns the networked session's figures, and false when the
// session plays no match. Simulation owner (a system), or after the
// session.
func (s *Session) NetStats() (NetStats, bool) {
	if s.replayNet != nil {
		return s.replayNet.stats(), true // a match's replay is the match, with no network
	}
	if s.spec != nil {
		return s.spec.stats(), true // a spectator, or a player rejoining, follows the match
	}
	if s.net == nil {
		return NetStats{}, false
	}
	return s.net.stats(), true
}

// NetStats returns the match's figures for the game's own display (see
// [Session.NetStats]), and false when the session plays no match. Call it
// from a system: it belongs to the simulation owner.
func (s *Setup) NetStats() (NetStats, bool) {
	if s.session == nil {
		return NetStats{}, false
	}
	return s.session.NetStats()
}

// ConfirmedHash returns the last confirmed tick of a networked session
// that the session hashed, with its world hash (see
// rollback.App.ConfirmedHash): the same on every peer of a match in sync.
// Simulation owner, or after the session.
func (s *Session) ConfirmedHash() (tick int64, hash uint64, ok bool) {
	if s.net == nil {
		return 0, 0, false
	}
	return s.net.app.ConfirmedHash(s.net.sess)
}

// ConfirmedHashAt returns the world hash of the confirmed timeline at
// tick, when the networked session hashed it, it is confirmed and still
// held (rollback.App.HashAt). Simulation owner, or after the session.
func (s *Session) ConfirmedHashAt(tick int64) (uint64, bool) {
	if s.net == nil {
		return 0, false
	}
	return s.net.app.HashAt(s.net.sess, tick)
}

// ConfirmedLine is the line a headless networked run ends with, for a
// script to compare two processes: "confirmed tick 1199 hash
// 0123456789abcdef".
func ConfirmedLine(tick int64, hash uint64) string {
	return fmt.Sprintf("confirmed tick %d hash %016x", tick, hash)
}

// A peer more than yieldOver ticks ahead that pacing cannot slow yields
// one update in yieldEvery (netRun.yield): a fifth, as far as pacing's
// default slowest pace (timing.max_slow_down 1.25) would slow it.
const (
	yieldOver  = 1.5
	yieldEvery = 5
	// yieldOwing is the debt that shows pacing cannot keep the rate:
	// past a quarter of a second owed, pacing at its fastest has not
	// repaid it. Under it the peer ahead is left to pacing, which slows
	// it without whole-frame waits.
	yieldOwing = 250 * time.Millisecond
)

// netRun is a networked session's state on the simulation side.
type netRun struct {
	app       *rollback.App
	sess      *rollback.Session
	tr        rollback.Transport
	self      int
	peers     []int // the other peers, once each
	local     []int // the players at self, in seat order
	seats     [][]input.Action
	msg, buf  []byte
	sent      [2]uint64 // messages, bytes
	received  [2]uint64
	ticks     uint64
	step      time.Duration
	advantage float64       // the session's advantage estimate, smoothed
	malformed error         // the first message refused, kept for the stats
	bot       *bot          // Match.Bot's input, or nil
	linger    int           // updates run since the last tick asked for was confirmed
	log       io.Writer     // the match's connection messages (RunOptions.Stderr)
	cutoff    time.Duration // the largest debt adjustment the scheduler takes (timing.debt.cutoff)
	// away[peer] is when the player's peer was reported disconnected,
	// for the peers whose bit awaySet holds; past patience
	// (net.join_timeout) without it coming back the match ends.
	away     [netplay.MaxPlayers]timing.Instant
	awaySet  uint32
	clock    timing.Clock
	patience time.Duration
	// opts are the session's options, for a session that plays on after
	// resynchronising; heldFor is how long the session has held in a
	// row (a host past the cutoff plays on without the peer it waits
	// for: fillPast).
	opts    rollback.Options
	heldFor time.Duration
	// slowed is what the scheduler dropped past the cutoff; playedOn and
	// resyncs count fillPast's fills and the resynchronisations
	// (NetStats).
	slowed            time.Duration
	playedOn, resyncs int
	// sinceYield counts updates since the last one yielded, yields those
	// yielded (see yield).
	sinceYield int
	yields     uint64

	// rec records the confirmed timeline (--record, netrecord.go), or nil.
	rec *matchRecording
	// feeds[peer] streams the confirmed inputs to the spectator, or the
	// rejoining player catching up, at that peer number (the host's), or
	// is nil; spectatorDelay is the spectators' delay.
	feeds          []*rollback.Feed
	spectatorDelay int
}

// localSeats is a local game's input: one buffer per player, filled from
// its seat before every tick.
type localSeats struct {
	players rollback.Players
	in      [][]input.Stats
}

// startNet builds the local seats or the match after the game's Setup,
// once its actions and state types are registered.
func (s *Session) startNet() error {
	n := s.game.Net
	if n == nil {
		return nil
	}
	if err := n.validate(s.actions); err != nil {
		return err
	}
	if s.match == nil {
		s.seats = &localSeats{in: make([][]input.Stats, n.Players)}
		for p := range s.seats.in {
			s.seats.in[p] = make([]input.Stats, len(n.Seats[p]))
		}
		ecs.AddResource(s.App.World(), &s.seats.players)
		if s.replayNet != nil {
			return s.replayNet.checkSeats(n)
		}
		return nil
	}
	m := s.match
	// The [net] table: the same on every peer.
	delay, window, every := s.cfg.Net.Delay, s.cfg.Net.Window, s.cfg.Net.HashEvery
	app, err := rollback.NewApp(s.App, window)
	if err != nil {
		return fmt.Errorf("framework: networked match: %w", err)
	}
	if m.Spectator {
		if err := s.startSpectator(app, len(n.Seats[0])); err != nil {
			return err
		}
		return s.startMatchRecording()
	}
	opts := rollback.Options{Self: m.Self, Actions: len(n.Seats[0]), Window: window, HashEvery: every, Clock: s.rt.Options().Clock}
	if m.Self == 0 {
		opts.LogBytes = rollback.DefaultLogBytes // the host feeds its spectators
	}
	r := &netRun{app: app, tr: m.Transport, self: m.Self, seats: n.Seats, spectatorDelay: s.cfg.Net.SpectatorDelay,
		msg: make([]byte, 0, rollback.MaxMessage), buf: make([]byte, rollback.MaxMessage), step: matchStep(s.cfg.Timing), log: s.stderr,
		cutoff: s.cfg.Timing.Debt.Cutoff, clock: s.rt.Options().Clock, patience: s.cfg.Net.JoinTimeout}
	if r.clock == nil {
		r.clock = timing.SystemClock{} // the runtime's default
	}
	if r.log == nil {
		r.log = os.Stderr
	}
	app.SetDelta(r.step)
	seen := map[int]bool{m.Self: true}
	for p, peer := range m.Peers {
		opts.Players = append(opts.Players, rollback.Player{Peer: peer, Delay: delay})
		if peer == m.Self {
			r.local = append(r.local, p)
		} else if !seen[peer] {
			seen[peer] = true
			r.peers = append(r.peers, peer)
		}
	}
	for _, peer := range m.Seatless {
		if peer == m.Self || seen[peer] {
			return fmt.Errorf("framework: Match.Seatless lists peer %d, which is this machine or plays a player: want the peers that play none", peer)
		}
		seen[peer] = true
		r.peers = append(r.peers, peer)
	}
	if m.Bot != 0 && len(r.local) > 0 {
		r.bot = newBot(m.Bot, len(r.local), len(n.Seats[0]))
	}
	r.opts = opts
	if m.Rejoining {
		// It records what it catches up on, then what it plays, into the
		// one recording (the follower runs every input from tick 0 then).
		r.rec = s.matchRec
		if err := s.startRejoin(r); err != nil {
			return err
		}
		return s.startMatchRecording()
	}
	sess, err := rollback.NewSession(app, opts)
	if err != nil {
		return fmt.Errorf("framework: networked match: %w", err)
	}
	if err := r.play(sess, m.Seatless); err != nil {
		return err
	}
	for _, peer := range m.Late {
		if err := sess.Fill(peer); err != nil {
			return fmt.Errorf("framework: networked match: %w", err)
		}
		fmt.Fprintf(r.log, "%s: peer %d has not joined: its players' input is neutral until it joins\n", programName(), peer)
	}
	s.net = r
	r.rec = s.matchRec
	return s.startMatchRecording()
}

// starter is a match's transport that starts its peers together
// (netplay.Match.Ready).
type starter interface {
	Ready(ctx context.Context) error
}

// readyToStart waits, just before the clock of a networked match starts
// (the window open, the renderer warm, the Startup systems run), until
// every peer is ready, so that the peers' clocks start together: see
// netplay.Match.Ready. Not for a spectator, a player joining a match
// under way (they catch up) or a transport with no start of its own.
// Simulation owner, before the first tick.
func (s *Session) readyToStart() error {
	if s.net == nil || s.match == nil || s.match.Rejoining || s.match.Spectator {
		return nil
	}
	st, ok := s.match.Transport.(starter)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.net.patience)
	defer cancel()
	if err := st.Ready(ctx); err != nil {
		return fmt.Errorf("framework: starting the networked match (net.join_timeout %v): %w", s.net.patience, err)
	}
	return nil
}

// play gives r its session, which also talks to the seat-less peers.
func (r *netRun) play(sess *rollback.Session, seatless []int) error {
	for _, peer := range seatless {
		if err := sess.AddPeer(peer); err != nil {
			return fmt.Errorf("framework: networked match: %w", err)
		}
	}
	r.sess = sess
	return nil
}

// updateNet runs one update: through the match of a networked session,
// else as any game's.
func (s *Session) updateNet(t *runtime.TickContext) error {
	if s.spec != nil {
		return s.updateSpectator(t)
	}
	if s.net != nil {
		err := s.net.update(t)
		if errors.Is(err, rollback.ErrResync) {
			return s.resync(err)
		}
		if errors.Is(err, errPeerLeft) {
			fmt.Fprintf(s.net.log, "%s: %v: the match ends\n", programName(), err)
			s.rt.Stop()
			return nil
		}
		return err
	}
	return s.updateApp(t)
}

// fillSeats is the system that gives a local game's players the input of
// their seats for the tick (a networked session's come from its match).
func (s *Session) fillSeats(ctx *ecs.Sys) {
	ls := s.seats
	if ls == nil {
		return
	}
	if s.replayNet != nil {
		s.replayNet.fill(ls.in) // a match's replay: the recorded confirmed input
	} else {
		for p, seat := range s.game.Net.Seats {
			for i, a := range seat {
				ls.in[p][i] = ctx.Input.Action(a)
			}
		}
	}
	ls.players.SetLocal(ls.in)
}

// update takes what arrived, gives the local players' input, advances the
// session, owes its resimulation, held ticks and advantage to the
// scheduler, and sends this peer's message. A desync stops the session.
func (r *netRun) update(t *runtime.TickContext) error {
	if err := r.netEvents(); err != nil {
		return err
	}
	if err := r.waited(); err != nil {
		return err
	}
	for {
		n, from, ok := r.tr.Receive(r.buf)
		if !ok {
			break
		}
		r.received[0]++
		r.received[1] += uint64(n)
		if r.feedMessage(from, r.buf[:n]) {
			continue
		}
		if err := r.sess.ReceiveFrom(from, r.buf[:n]); err != nil && r.malformed == nil {
			r.malformed = err // counted in Stats.Malformed; a peer's bad message stops nothing
		}
	}
	var st rollback.Step
	if r.yield(t) {
		st.Held = true // stands aside one update, owed as a held one
	} else {
		var err error
		if st, err = r.tick(t); err != nil {
			return err
		}
	}
	if !st.Held {
		r.ticks++
		r.heldFor = 0
	} else {
		r.heldFor += r.step
		r.fillPast()
	}
	t.Owed.Resimulated, t.Owed.ResimulationTime = st.Resimulated, st.ResimulationTime
	if st.Held {
		t.Owed.Held = r.step
	}
	if !st.Held {
		// The advantage estimate moves with each message's jitter; its
		// mean over about half a second is what pacing is pushed by.
		r.advantage += (r.sess.Stats().Advantage - r.advantage) / 16
	}
	// What this peer owes, in whole steps, as its messages tell its peers.
	owed := min(t.Timing.DebtTime, t.Timing.Ledger.Pending())
	r.slowed = t.Timing.Ledger.DroppedByHook
	r.sess.SetDebt(int64(owed / r.step))
	if !st.Held && r.sess.Tick()%30 == 0 {
		// The peers share what the match owes (a stall of any of them,
		// held ticks) and each owes its frame advantage on top: ahead,
		// less than the match; behind, more. This peer's debt moves to
		// its share; a difference under half a step is left alone, so
		// pacing is not pushed about by what noise is left. A move is
		// bounded by the cutoff the scheduler accepts in one adjustment
		// (a peer that held for 3 s while a joiner opened its window);
		// pacing repays the rest.
		want := time.Duration((r.sess.SharedDebt() - r.advantage) * float64(r.step))
		if diff := want - owed; diff > r.step/2 || diff < -r.step/2 {
			t.Owed.Advantage = min(max(diff, -r.cutoff), r.cutoff)
		}
	}
	if err := r.recordConfirmed(t); err != nil {
		return err
	}
	r.msg = r.sess.AppendMessage(r.msg[:0])
	for _, p := range r.peers {
		if err := r.tr.Send(p, r.msg); err != nil {
			if errors.Is(err, rollback.ErrClosed) {
				return fmt.Errorf("framework: networked match: %w", err)
			}
			continue // not sent: the next message repeats what it held
		}
		r.sent[0]++
		r.sent[1] += uint64(len(r.msg))
	}
	if err := r.sendFeeds(); err != nil {
		return err
	}
	if d, ok := r.sess.Desync(); ok {
		return d
	}
	return nil
}

// fillPast makes a host that has held for one peer longer than the
// scheduler's cutoff play on without it (rollback.Session.Fill): that
// peer's players get neutral input, on the host and through its messages
// on every other peer, until it asks to catch up on the host's timeline
// (it resynchronises, see Session.resync). Not for a peer reported
// disconnected, which the match waits for (up to net.join_timeout) as a
// player may rejoin.
func (r *netRun) fillPast() {
	if r.self != 0 || r.heldFor <= r.cutoff || r.awaySet != 0 {
		return
	}
	peer, ok := r.sess.Lagging()
	if !ok || r.sess.Filling(peer) || (r.feeds != nil && r.feeds[peer] != nil) {
		return
	}
	if r.sess.Fill(peer) == nil {
		r.playedOn++
		fmt.Fprintf(r.log, "%s: peer %d held the match for %v (timing.debt.cutoff): playing on without it, its players' input neutral, until it resynchronises\n", programName(), peer, r.cutoff)
	}
}

// tick gives the local players' input and advances the session.
func (r *netRun) tick(t *runtime.TickContext) (rollback.Step, error) {
	for k, p := range r.local {
		dst := r.sess.Local(p)
		if r.bot != nil {
			r.bot.fill(k, r.sess.Tick(), r.step, dst)
			continue
		}
		for i, a := range r.seats[k] {
			if t.Input != nil {
				dst[i] = t.Input.Action(a)
			} else {
				dst[i] = input.Stats{}
			}
		}
	}
	return r.app.Update(r.sess, t)
}

// yield reports whether this update stands aside, running no tick, so
// that a peer ahead of the others gives up ticks that pacing cannot take
// from it. Pacing slows a peer ahead by waiting longer between ticks;
// when the machine is too slow for even that pace (each cycle takes more
// than MaxSlowDown steps, as under CPU starvation), the peer stays
// behind real time and ticks every cycle, while the peer behind cannot
// tick faster either (one tick a cycle, timing.max_fixed_updates), so
// the offset between them would never close. A peer more than
// yieldOver ticks ahead that owes more than yieldOwing yields one update
// in yieldEvery: it then runs slower than its peers' cycles.
func (r *netRun) yield(t *runtime.TickContext) bool {
	r.sinceYield++
	if r.sinceYield < yieldEvery || t.Timing.DebtTime < yieldOwing || r.sess.Stats().Advantage <= yieldOver {
		return false
	}
	r.sinceYield = 0
	r.yields++
	return true
}

func (r *netRun) stats() NetStats {
	ns := NetStats{Stats: r.sess.Stats(), Sent: r.sent[0], BytesSent: r.sent[1], Received: r.received[0], BytesReceived: r.received[1],
		Seconds: float64(r.ticks) * r.step.Seconds()}
	ns.Advantage = r.advantage
	ns.RTT = transportRTT(r.tr)
	ns.Waiting = bits.OnesCount32(r.awaySet)
	ns.SlowedDown, ns.PlayedOn, ns.Resyncs = r.slowed, r.playedOn, r.resyncs
	return ns
}

// The network flags: --host and --join name the match to play
// (connectMatch, netplay.go).
func (f *Flags) registerNet(fs *flag.FlagSet) {
	fs.StringVar(&f.Host, "host", "", "host a networked match on this `address`, such as :7777 (needs a game with Game.Net)")
	fs.StringVar(&f.Join, "join", "", "join the networked match hosted at this `address`, such as 127.0.0.1:7777, with --token")
	fs.BoolVar(&f.Dedicated, "dedicated", false, "with --host: serve the match without a seat here (every player joins), with no window, GPU, X server or sound device")
	fs.BoolVar(&f.NoWindow, "no-window", false, "with --join or --host and --bot: play the match with no window, GPU, X server or sound device, the simulation only (load tests)")
	fs.StringVar(&f.Spectate, "spectate", "", "watch the networked match hosted at this `address` as a spectator, with --token: it catches up from the start and follows live")
	fs.StringVar(&f.Token, "token", "", "with --join or --spectate: the join `token` the host printed")
	fs.Uint64Var(&f.Bot, "bot", 0, "with --host or --join: this machine's players play seeded random input from this `seed` instead of the keyboard (soak runs, tests of two processes; 0 = off)")
}

func (f *Flags) validateNet() error {
	var errs []error
	if f.Host != "" && f.Join != "" {
		errs = append(errs, errors.New("framework: --host and --join: a session hosts a match or joins one"))
	}
	if f.Join != "" && f.Token == "" {
		errs = append(errs, errors.New("framework: --join needs --token, the join token the host printed"))
	}
	if f.Spectate != "" {
		if f.Host != "" || f.Join != "" {
			errs = append(errs, errors.New("framework: --spectate and --host or --join: a session watches a match or plays in one"))
		}
		if f.Token == "" {
			errs = append(errs, errors.New("framework: --spectate needs --token, the join token the host printed"))
		}
		if f.Bot != 0 || f.Dedicated {
			errs = append(errs, errors.New("framework: --spectate with --bot or --dedicated: a spectator plays no player and hosts nothing"))
		}
		if f.Replay != "" || f.SyncTest != 0 {
			errs = append(errs, errors.New("framework: --spectate watches a match: not with --replay or --synctest"))
		}
	}
	if f.Bot != 0 && f.Host == "" && f.Join == "" {
		errs = append(errs, errors.New("framework: --bot plays a match's local players: use it with --host or --join"))
	}
	if f.Dedicated && f.Host == "" {
		errs = append(errs, errors.New("framework: --dedicated goes with --host ADDR: a dedicated host serves a match it plays no seat in"))
	}
	if f.Dedicated && f.Bot != 0 {
		errs = append(errs, errors.New("framework: --dedicated and --bot: a dedicated host has no player for the bot to play"))
	}
	if f.NoWindow && f.Spectate == "" && (f.Bot == 0 || (f.Host == "" && f.Join == "")) {
		errs = append(errs, errors.New("framework: --no-window plays a match whose players here are bots: use it with --host or --join and --bot SEED (a dedicated host, --dedicated, has none and needs no window anyway)"))
	}
	if f.Token != "" && f.Join == "" && f.Spectate == "" {
		errs = append(errs, errors.New("framework: --token goes with --join ADDR or --spectate ADDR"))
	}
	if (f.Host != "" || f.Join != "") && (f.Replay != "" || f.SyncTest != 0) {
		errs = append(errs, errors.New("framework: --host and --join play a match: not with --replay or --synctest"))
	}
	return errors.Join(errs...)
}
