package rollback

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// PeerOptions configure a [Peer]: its session's options and what the
// match around the session adds.
type PeerOptions struct {
	// Options are the session's. A host's (Self 0) LogBytes of 0 is
	// [DefaultLogBytes]: it feeds its spectators and the players who
	// catch up from its log.
	Options
	// Transport carries the match's messages; a Transport that is also a
	// [PeerWatcher] reports its peers' connections and round trips.
	Transport Transport
	// Step is every tick's simulation delta ([App.SetDelta]): the fixed
	// step.
	Step time.Duration
	// Seatless lists the peers that play no player (a dedicated host):
	// the session talks to them too ([Session.AddPeer]).
	Seatless []int
	// Late lists, at the host, the peers whose players had not joined
	// when the match started: their input is neutral until each joins
	// and catches up.
	Late []int
	// Rejoining makes this peer take back its player's slot in a match
	// under way: it follows the host's confirmed inputs first and plays
	// on from where it caught up ([NewSessionAfter]).
	Rejoining bool
	// JoinedLate says that a Rejoining peer's player never played in
	// this match before: it joins a match under way for the first time,
	// so its event says joining, not rejoining.
	JoinedLate bool
	// Patience is how long a player's peer that stopped answering is
	// waited for before the match is abandoned ([MatchOptions].JoinTimeout).
	Patience time.Duration
	// Cutoff is timing's DebtOptions.Cutoff, the most debt the scheduler
	// takes in one adjustment: a share of the match's debt, or the debt
	// a play-on settles, moves by at most that much at once. When the
	// host plays on is the scheduler's to say (its cutoff acting), not
	// this value's.
	Cutoff time.Duration
	// SpectatorDelay is how many confirmed ticks a host holds back from
	// its spectators ([MatchOptions].SpectatorDelay).
	SpectatorDelay int
	// Ticks, if positive, is where the match ends: once every tick below
	// it is confirmed (and a few more updates have repeated the last
	// inputs for the peers still missing some) the match is
	// [Finished]. 0 plays until the caller stops.
	Ticks int64
	// Recorded says the caller records the confirmed timeline after each
	// update (from [Peer.Timeline]): a peer catching up starts from tick
	// 0 rather than a snapshot, so the recording has every tick.
	Recorded bool
	// Bot, if not zero, plays this peer's players with input drawn from
	// this seed ([Bot]) instead of what the caller puts in [Peer.Input],
	// for soak runs and matches of processes against each other.
	Bot uint64
}

// PeerStats are a match's figures for an overlay or a report, a
// [Peer]'s or a [Spectator]'s.
type PeerStats struct {
	// Stats are the session's counts. Its Advantage is the estimate
	// pacing follows: the session's, averaged over about half a second,
	// as each message's jitter moves it. A spectator, or a player
	// catching up, has only Tick and Confirmed.
	Stats
	// BytesSent and BytesReceived count the messages' bytes; Sent and
	// Received the messages.
	BytesSent, BytesReceived uint64
	Sent, Received           uint64
	// RTT is the longest round trip to a peer the transport measured, 0
	// when it measures none ([PeerWatcher]).
	RTT time.Duration
	// Waiting counts the players' peers this machine hears nothing from:
	// the match holds at its window until they come back or the
	// patience ends.
	Waiting int
	// PlayedOn counts the times the host played on without a peer that
	// held the match past the debt cutoff, and Resyncs the times this
	// peer resynchronised from the host's snapshot.
	PlayedOn, Resyncs int
	// SlowedDown is the time the host dropped past the debt cutoff, which
	// the whole match lost together ([PeerTiming]).
	SlowedDown time.Duration
	// Yields counts the updates this peer stood aside because it ran
	// ahead of the others by more than pacing could slow it.
	Yields uint64
	// Seconds is the simulated time the match has run, for rates.
	Seconds float64
}

// A peer more than yieldOver ticks ahead that pacing cannot slow yields
// one update in yieldEvery: a fifth, as far as pacing's default slowest
// pace (timing's max_slow_down 1.25) would slow it.
const (
	yieldOver  = 1.5
	yieldEvery = 5
	// yieldOwing is the debt that shows pacing cannot keep the rate:
	// past a quarter of a second owed, pacing at its fastest has not
	// repaid it. Under it the peer ahead is left to pacing.
	yieldOwing = 250 * time.Millisecond
	// lingerUpdates is how many updates a peer goes on sending after the
	// last tick asked for is confirmed, so that its peers get the inputs
	// they still lack even if a message is lost: a quarter of a second
	// at 60 Hz.
	lingerUpdates = 15
	// quietOver is how long a player's peer goes unheard before the host
	// may play on without it: a peer whose messages keep coming is slow
	// (a lockstep match over a link longer than its input delay, a busy
	// machine), not stalled, and the match slows down with it (the
	// host's shared slowdown); playing on without it would only make it
	// resynchronise and hold the match again while it catches up. A
	// stalled process, a frozen page or a link down (one way or both)
	// sends nothing, and a throttled page once a second.
	quietOver = 250 * time.Millisecond
)

// Peer is one player's machine in a match, as GGRS's P2PSession sits on
// its protocol: it owns the [Session] (or, while it catches up, a
// [Follower]), the [Transport], the feeds of the spectators and of the
// players catching up, and every policy of a match: how long a silent
// player is waited for, when a peer far ahead stands aside, when the
// host plays on without a peer past the debt cutoff, how the frame
// advantage and the match's debt are shared, late joins, rejoins and
// resynchronisation. A packet goes from the transport to the session
// and to a resimulation inside [Peer.Update], and so does the answer.
//
//	p, err := rollback.NewPeer(app, opts)
//	// every update:
//	copy(p.Input(0), actionStates) // each local player's, in seat order
//	err = p.Update(ctx)            // ctx.Owed says what pacing owes
//	for _, ev := range p.Events() { log(ev) }
//	if o, ok := p.Outcome(); ok { stop(o) }
//
// A Peer belongs to the simulation goroutine.
type Peer struct {
	opts  PeerOptions
	app   *App
	sess  *Session // nil while catching up
	catch *follow  // the follower of a peer catching up, or nil
	tr    Transport
	watch PeerWatcher // tr's, or nil
	peers []int       // the other peers, once each
	local []int       // the players at Self, in seat order
	input [][]input.Stats
	bot   *Bot // PeerOptions.Bot's, or nil
	msg   []byte
	buf   []byte

	sent, received [2]uint64 // messages, bytes
	ticks          uint64
	advantage      float64 // the session's advantage estimate, smoothed
	malformed      error   // the first message refused
	// away[peer] is when a player's peer was reported disconnected, for
	// the peers whose bit awaySet holds.
	away    [maxPeers]timing.Instant
	awaySet uint64
	// heard[peer] is when the latest session message of that peer came.
	heard [maxPeers]timing.Instant
	clock timing.Clock

	slowed            time.Duration
	playedOn, resyncs int
	// caughtUp says a player the host fed (it caught up) plays again:
	// the update settles the debt its catching up held the host for.
	caughtUp   bool
	sinceYield int
	yields     uint64
	// feeds[peer] streams the confirmed inputs to the spectator, or the
	// player catching up, at that peer number (the host's only).
	feeds  []*Feed
	linger int
	// behind holds the players' peers the host played on without that
	// have not played again since (caught up, or left): at the match's
	// end the host waits for them ([Peer.finish]). endAt is when this
	// peer first had every tick of the match confirmed.
	behind       uint64
	endAt        timing.Instant
	atEnd        bool
	atEndOutcome Outcome // finished() when it reached the end
	// snapAt is the latest tick of a snapshot a player resynchronised
	// from: this peer's (it caught up from it), or, at the host, one it
	// fed. No peer that started there holds a hash below it.
	snapAt int64

	events  []Event
	outcome Outcome
	ended   bool
}

// NewPeer validates opts and returns this machine's side of a match,
// its world app, ready for its first [Peer.Update]. A Peer that is
// Rejoining starts by catching up.
func NewPeer(app *App, opts PeerOptions) (*Peer, error) {
	var errs []error
	if app == nil {
		errs = append(errs, errors.New("rollback: NewPeer needs an App, have nil"))
	}
	if opts.Transport == nil {
		errs = append(errs, errors.New("rollback: PeerOptions.Transport is nil"))
	}
	if opts.Step <= 0 {
		errs = append(errs, fmt.Errorf("rollback: PeerOptions.Step %v is out of range; allowed: more than 0 (the fixed step)", opts.Step))
	}
	if opts.Patience < 0 || opts.Cutoff < 0 || opts.Ticks < 0 {
		errs = append(errs, fmt.Errorf("rollback: PeerOptions.Patience %v, Cutoff %v and Ticks %d: want 0 or more", opts.Patience, opts.Cutoff, opts.Ticks))
	}
	errs = append(errs, spectatorDelay.check("PeerOptions.SpectatorDelay", opts.SpectatorDelay))
	if opts.Self == 0 && opts.LogBytes == 0 {
		opts.LogBytes = DefaultLogBytes
	}
	if err := opts.Options.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	p := &Peer{opts: opts, app: app, tr: opts.Transport, clock: opts.Clock,
		msg: make([]byte, 0, MaxMessage), buf: make([]byte, MaxMessage)}
	p.watch, _ = opts.Transport.(PeerWatcher)
	if p.clock == nil {
		p.clock = timing.SystemClock{}
	}
	app.SetDelta(opts.Step)
	seen := map[int]bool{opts.Self: true}
	for pl, player := range opts.Players {
		if player.Peer == opts.Self {
			p.local = append(p.local, pl)
			p.input = append(p.input, make([]input.Stats, opts.Actions))
		} else if !seen[player.Peer] {
			seen[player.Peer] = true
			p.peers = append(p.peers, player.Peer)
		}
	}
	for _, peer := range opts.Seatless {
		if peer == opts.Self || seen[peer] {
			return nil, fmt.Errorf("rollback: PeerOptions.Seatless lists peer %d, which is this peer or plays a player: want the peers that play none", peer)
		}
		seen[peer] = true
		p.peers = append(p.peers, peer)
	}
	if opts.Bot != 0 && len(p.local) > 0 {
		p.bot = NewBot(opts.Bot, len(p.local), opts.Actions)
	}
	if opts.Rejoining {
		if err := p.follow(false); err != nil {
			return nil, err
		}
		kind := EventRejoining
		if opts.JoinedLate {
			kind = EventJoiningLate
		}
		p.note(Event{Kind: kind, Peer: opts.Self})
		return p, nil
	}
	sess, err := NewSession(app, opts.Options)
	if err != nil {
		return nil, err
	}
	if err := p.play(sess); err != nil {
		return nil, err
	}
	for _, peer := range opts.Late {
		if err := sess.Fill(peer); err != nil {
			return nil, err
		}
		p.note(Event{Kind: EventNotJoined, Peer: peer})
	}
	return p, nil
}

// Ready waits, just before the first tick, until every peer of the match
// is ready, when its transport starts its peers together ([Starter]), so
// that their clocks start together; it returns at once for a transport
// that does not, and for a peer that catches up (rejoining: the match is
// under way). It waits up to [PeerOptions].Patience (when positive), and
// ctx can end the wait sooner. Simulation goroutine, before the first
// Update.
func (p *Peer) Ready(ctx context.Context) error {
	st, ok := p.tr.(Starter)
	if !ok || p.opts.Rejoining {
		return nil
	}
	if p.opts.Patience > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.opts.Patience)
		defer cancel()
	}
	return st.Ready(ctx)
}

// PeerTiming returns o as a match's peer runs it: repay-debt recovery
// with rollback declared, so that resimulation, held ticks and the frame
// advantage reach pacing, and past the debt cutoff its role's policy
// (seed 001's HostDoes and OwnerDoes), applied by the scheduler alone:
//   - the host (host true) slows the whole match down together
//     (timing.SharedSlowdown): it drops what it owes past the cutoff, and
//     its peers, who share the match's debt ([Session.SharedDebt]), lose
//     the same time with it; a host held past the cutoff for one peer
//     it has not heard from for a quarter of a second plays on without
//     that peer ([Session.Fill]);
//   - a joined player resynchronises (timing.Resync): it drops nothing
//     itself, since the host's slowdown drops for the match, and when the
//     host has played on without it, it catches up from the host's
//     snapshot.
//
// A spectator's timing is [SpectatorTiming].
func PeerTiming(o timing.Options, host bool) timing.Options {
	o = SpectatorTiming(o)
	o.Debt.PastCutoff, o.Debt.Hook = timing.Resync, dropPast{o.Debt.Cutoff}
	if host {
		o.Debt.PastCutoff = timing.SharedSlowdown
	}
	return o
}

// SpectatorTiming returns o as a spectator (or a replay of a match) runs
// it: repay-debt recovery with rollback declared and no variable step,
// keeping o's policy past the cutoff, since it plays no part in the
// match's time.
func SpectatorTiming(o timing.Options) timing.Options {
	o.Recovery, o.Rollback = timing.RepayDebt, true
	o.Debt.VariableStep = false
	return o
}

// dropPast is a match's answer past the debt cutoff: a host drops the
// debt past it (timing.SharedSlowdown), a joined player nothing.
type dropPast struct{ cutoff time.Duration }

func (d dropPast) PastCutoff(policy timing.PastCutoff, debt time.Duration) time.Duration {
	if policy != timing.SharedSlowdown {
		return 0
	}
	return debt - d.cutoff
}

// Input returns the input buffer of the k-th player at this peer (seat
// order): fill it before each [Peer.Update]. The buffer stays the same.
func (p *Peer) Input(k int) []input.Stats { return p.input[k] }

// Locals returns how many players play at this peer.
func (p *Peer) Locals() int { return len(p.local) }

// Tick returns the next tick this peer simulates.
func (p *Peer) Tick() int64 {
	if p.sess == nil {
		return p.catch.fol.Tick()
	}
	return p.sess.Tick()
}

// Events returns what the latest [Peer.Update] (or NewPeer, before the
// first) did or saw, for the caller to show. The slice is reused by the
// next Update.
func (p *Peer) Events() []Event { return p.events }

// Outcome returns how the match ended, and false while it goes on.
func (p *Peer) Outcome() (Outcome, bool) { return p.outcome, p.ended }

// Timeline returns the confirmed timeline the peer plays on: its
// session's, or its follower's while it catches up (a recording reads
// the settled ticks from it).
func (p *Peer) Timeline() Timeline {
	if p.sess == nil {
		return p.catch.fol
	}
	return p.sess
}

// CatchingUp reports whether the peer is catching up on the host's
// confirmed inputs (rejoining or resynchronising) instead of playing.
func (p *Peer) CatchingUp() bool { return p.sess == nil }

// ConfirmedHash returns the latest confirmed tick the peer hashed, with
// its world hash ([App.ConfirmedHash]); ok is false while it catches up
// or before any.
func (p *Peer) ConfirmedHash() (tick int64, hash uint64, ok bool) {
	if p.sess == nil {
		return 0, 0, false
	}
	return p.app.ConfirmedHash(p.sess)
}

// HashAt returns the world hash of the confirmed timeline at tick, if the
// peer hashed it, it is settled and still held ([App.HashAt]).
func (p *Peer) HashAt(tick int64) (uint64, bool) { return p.app.HashAt(p.Timeline(), tick) }

// Stats returns the match's figures.
func (p *Peer) Stats() PeerStats {
	var ps PeerStats
	if p.sess == nil {
		st := p.catch.fol.Stats()
		ps.Tick, ps.Confirmed = st.Tick, st.Tick
		ps.Seconds = float64(st.Tick) * p.opts.Step.Seconds()
	} else {
		ps.Stats = p.sess.Stats()
		ps.Advantage = p.advantage
		ps.Seconds = float64(p.ticks) * p.opts.Step.Seconds()
	}
	ps.Sent, ps.BytesSent, ps.Received, ps.BytesReceived = p.sent[0], p.sent[1], p.received[0], p.received[1]
	if p.catch != nil {
		ps.Sent += p.catch.sent[0]
		ps.BytesSent += p.catch.sent[1]
		ps.Received += p.catch.received[0]
		ps.BytesReceived += p.catch.received[1]
	}
	ps.RTT = longestRTT(p.watch, p.peers)
	ps.Waiting = bits.OnesCount64(p.awaySet)
	ps.SlowedDown, ps.PlayedOn, ps.Resyncs, ps.Yields = p.slowed, p.playedOn, p.resyncs, p.yields
	return ps
}

// longestRTT is the longest round trip w measured to one of peers, 0
// without a watcher.
func longestRTT(w PeerWatcher, peers []int) time.Duration {
	var rtt time.Duration
	if w == nil {
		return 0
	}
	for _, peer := range peers {
		rtt = max(rtt, w.RTT(peer))
	}
	return rtt
}

// Update runs one update of the match with the runtime's tick t: it takes
// the transport's connection events and messages, runs the session (the
// resimulation a late input calls for, then this tick with the local
// players' input from [Peer.Input]), owes the resimulation, a held tick
// and its share of the match's debt in t.Owed, and sends its message (not
// on a quiet update: see sendMessage) and the feeds'. A peer catching up follows the host's feed instead.
// Once the match has ended ([Peer.Outcome]) Update does nothing more; the
// update that ends it other than [Finished] returns the outcome as an
// *[OutcomeError]. Any other error is a failure of the machinery (a
// closed transport, the game's).
func (p *Peer) Update(t *runtime.TickContext) error {
	if p.bot != nil {
		for k, in := range p.input {
			p.bot.Fill(k, p.Tick(), p.opts.Step, in)
		}
	}
	p.events = p.events[:0]
	if p.ended {
		return nil
	}
	p.connections()
	p.waited()
	if p.ended {
		return p.outcome.Err()
	}
	if p.catch != nil {
		if !p.catch.fol.CaughtUp() {
			return p.catch.update(t, -1, true, &p.events)
		}
		if err := p.playOn(); err != nil {
			return err
		}
	}
	for {
		n, from, ok := p.tr.Receive(p.buf)
		if !ok {
			break
		}
		p.received[0]++
		p.received[1] += uint64(n)
		if p.feedMessage(from, p.buf[:n]) {
			continue
		}
		if err := p.sess.ReceiveFrom(from, p.buf[:n]); err != nil {
			if p.malformed == nil {
				p.malformed = err // counted in Stats.Malformed; a peer's bad message stops nothing
			}
		} else {
			p.heard[from] = p.clock.Now()
		}
	}
	var st Step
	if p.yield(t) {
		st.Held = true // stands aside one update, owed as a held one
	} else {
		for k, pl := range p.local {
			copy(p.sess.Local(pl), p.input[k])
		}
		var err error
		if st, err = p.app.Update(p.sess, t); err != nil {
			if errors.Is(err, ErrResync) {
				return p.resync(err)
			}
			return err
		}
	}
	playedOn := p.playOnPast(st.Held, t.Timing.Acting&timing.MechCutoff != 0)
	if !st.Held {
		p.ticks++
		// The advantage estimate moves with each message's jitter; its
		// mean over about half a second is what pacing is pushed by.
		p.advantage += (p.sess.Stats().Advantage - p.advantage) / 16
	}
	t.Owed.Resimulated, t.Owed.ResimulationTime = st.Resimulated, st.ResimulationTime
	owed := min(t.Timing.DebtTime, t.Timing.Ledger.Pending())
	switch {
	case playedOn || p.caughtUp:
		// The host moves on from a wait: it played on without a peer, or
		// a peer it held for while it caught up plays again. The time
		// held is the match's loss, not a debt to repay, so the next
		// hold is measured against the cutoff from here.
		p.caughtUp = false
		t.Owed.Held, owed = -min(max(owed, 0), p.opts.Cutoff), 0
	case st.Held:
		t.Owed.Held = p.opts.Step
	}
	p.shareDebt(t, st, owed)
	if err := p.sendMessage(t); err != nil {
		return err
	}
	if err := p.sendFeeds(); err != nil {
		return err
	}
	if d, ok := p.sess.Desync(); ok {
		p.end(desynced(d))
		return p.outcome.Err()
	}
	p.finish()
	return nil
}

// sendMessage sends the session's message to every peer, except on a
// quiet update ([timing.Update.Quiet]: one of a batch that is not its
// last, under timing's quiet_ticks, on by default) before the match has
// reached its end (the lingering updates repeat the last inputs). The
// updates of one batch run back to back, and the last one's message
// carries every input the earlier ones would have
// ([Session.AppendMessage] repeats what the peers have not confirmed),
// so a page that runs four ticks an animation frame sends once, not four
// times: each data channel send blocks the page until the browser's
// network thread takes it, milliseconds on a loaded machine.
func (p *Peer) sendMessage(t *runtime.TickContext) error {
	if t.Quiet && !p.reachedEnd() {
		return nil
	}
	p.msg = p.sess.AppendMessage(p.msg[:0])
	for _, peer := range p.peers {
		if err := p.tr.Send(peer, p.msg); err != nil {
			if errors.Is(err, ErrClosed) {
				return fmt.Errorf("rollback: the match's transport: %w", err)
			}
			continue // not sent: the next message repeats what it held
		}
		p.sent[0]++
		p.sent[1] += uint64(len(p.msg))
	}
	return nil
}

// shareDebt tells the peers what this one owes, and moves its debt to its
// share of the match's: the peers share what the match owes (a stall of
// any of them, held ticks) and each owes its frame advantage on top:
// ahead, less than the match; behind, more. A difference under half a
// step is left alone, so pacing is not pushed about by noise, and a move
// is bounded by the cutoff the scheduler takes in one adjustment (a peer
// that held for 3 s while a joiner opened its window); pacing repays the
// rest.
func (p *Peer) shareDebt(t *runtime.TickContext, st Step, owed time.Duration) {
	step := p.opts.Step
	p.slowed = t.Timing.Ledger.DroppedByHook
	p.sess.SetDebt(int64(owed / step))
	if st.Held || p.sess.Tick()%30 != 0 {
		return
	}
	want := time.Duration((p.sess.SharedDebt() - p.advantage) * float64(step))
	if diff := want - owed; diff > step/2 || diff < -step/2 {
		t.Owed.Advantage = min(max(diff, -p.opts.Cutoff), p.opts.Cutoff)
	}
}

// playOnPast makes a host held for one peer when its scheduler's debt
// passed the cutoff (past, timing's MechCutoff acting) play on without
// that peer ([Session.Fill]), and reports whether it did: that peer's
// players get neutral input, on the host and through its messages on
// every other peer, until it asks to catch up on the host's timeline.
// Not for a peer reported disconnected, which the match waits for (up to
// the patience), as a player may rejoin, nor for one heard from within
// quietOver, which is slow rather than stalled. The cutoff is the
// scheduler's alone ([PeerTiming]): the scheduler drops the debt past
// it, and the caller settles the rest, so the next hold starts from no
// debt and a peer that caught up and holds the host a moment does not
// pass it again.
func (p *Peer) playOnPast(held, past bool) bool {
	if !held || !past || p.opts.Self != 0 || p.awaySet != 0 || p.caughtUp {
		return false
	}
	peer, ok := p.sess.Lagging()
	if !ok || p.sess.Filling(peer) || (p.feeds != nil && p.feeds[peer] != nil) {
		return false
	}
	if time.Duration(p.clock.Now()-p.heard[peer]) < quietOver {
		return false // it still sends: slow, not stalled
	}
	if p.sess.Fill(peer) != nil {
		return false
	}
	p.playedOn++
	p.behind |= 1 << peer
	p.note(Event{Kind: EventPlayedOn, Peer: peer, Wait: p.opts.Cutoff})
	return true
}

// yield reports whether this update stands aside, running no tick, so
// that a peer ahead of the others gives up ticks that pacing cannot take
// from it. Pacing slows a peer ahead by waiting longer between ticks;
// when the machine is too slow for even that pace (each cycle takes more
// than the slowest pace's step, as under CPU starvation), the peer stays
// behind real time and ticks every cycle, while the peer behind cannot
// tick faster either, so the offset between them would never close. A
// peer more than yieldOver ticks ahead that owes more than yieldOwing
// yields one update in yieldEvery.
func (p *Peer) yield(t *runtime.TickContext) bool {
	p.sinceYield++
	if p.sinceYield < yieldEvery || t.Timing.DebtTime < yieldOwing || p.sess.Stats().Advantage <= yieldOver {
		return false
	}
	p.sinceYield = 0
	p.yields++
	return true
}

// finish ends the match once every tick below PeerOptions.Ticks is
// confirmed and lingerUpdates more updates have sent the last inputs.
// A host first waits, up to the patience from when it reached the end,
// for each player it played on without or is feeding (resynchronising:
// it has not seen the end yet) to catch up and play again, or to leave:
// ended, the host would feed it nothing more, and that player would
// wait for its snapshot for ever.
func (p *Peer) finish() {
	if !p.reachedEnd() {
		return
	}
	now := p.clock.Now()
	if !p.atEnd {
		// The last hash below the end, kept: waiting at the end runs
		// on past what the App holds.
		p.atEnd, p.endAt, p.atEndOutcome = true, now, p.finished()
	}
	p.flushFeeds() // the spectators get the ticks their delay held back
	if p.waitsAtEnd() && time.Duration(now-p.endAt) <= p.opts.Patience {
		return
	}
	p.linger++
	if p.linger > lingerUpdates {
		p.end(p.finished())
	}
}

// waitsAtEnd reports whether a player the host played on without, or
// feeds, is still connected and catching up.
func (p *Peer) waitsAtEnd() bool {
	if p.opts.Self != 0 {
		return false
	}
	for peer := range maxPeers {
		if p.awaySet&(1<<peer) != 0 {
			continue
		}
		if p.behind&(1<<peer) != 0 || p.feeds != nil && p.feeds[peer] != nil && slices.Contains(p.peers, peer) {
			return true
		}
	}
	return false
}

// reachedEnd reports whether every tick the match asked for is confirmed.
func (p *Peer) reachedEnd() bool {
	return p.opts.Ticks > 0 && p.sess != nil && p.sess.Stats().Confirmed >= p.opts.Ticks
}

// finished is the outcome of a match that reached its end: the last
// hashed tick below it, which every peer confirmed before it stopped,
// or else the last confirmed tick hashed.
func (p *Peer) finished() Outcome {
	o := Outcome{Kind: Finished}
	if every := int64(p.opts.HashEvery); every > 0 && p.opts.Ticks > 0 {
		tick := (p.opts.Ticks - 1) / every * every
		if p.snapAt > tick {
			// A player resynchronised from a snapshot past it: the first
			// hashed tick of its timeline is the one both can name.
			tick = (p.snapAt + every - 1) / every * every
		}
		if hash, ok := p.HashAt(tick); ok {
			o.Tick, o.Hash, o.HasHash = tick, hash, true
			return o
		}
		if p.atEnd && p.atEndOutcome.HasHash && p.atEndOutcome.Tick == tick {
			return p.atEndOutcome
		}
	}
	o.Tick, o.Hash, o.HasHash = p.ConfirmedHash()
	return o
}

// end ends the match with o, once.
func (p *Peer) end(o Outcome) {
	if !p.ended {
		p.outcome, p.ended = o, true
	}
}

func (p *Peer) note(ev Event) { p.events = append(p.events, ev) }

// connections takes the transport's connection events: a player's peer
// that stops answering is waited for (the session holds at its window,
// owing the time), one that comes back is sent what it lacks, a host that
// goes silent or leaves ends the match (it cannot come back: a host that
// starts again hosts a new match), and so does a player that leaves.
func (p *Peer) connections() {
	if p.watch == nil {
		return
	}
	for {
		ev, ok := p.watch.Event()
		if !ok {
			return
		}
		p.connection(ev)
	}
}

func (p *Peer) connection(ev PeerEvent) {
	if ev.Spectator {
		p.spectatorEvent(ev)
		p.note(Event{Kind: EventConnection, Conn: ev})
		return
	}
	if ev.Peer < 0 || ev.Peer >= maxPeers || ev.Peer == p.opts.Self {
		return
	}
	gone := ev.Kind == PeerLeft || (ev.Kind == PeerDisconnected && ev.Peer == 0)
	switch {
	case gone && p.reachedEnd():
		p.end(p.finished()) // it stopped where this peer did
		return
	case gone && ev.Peer == 0:
		p.end(Outcome{Kind: HostGone})
		return
	case gone:
		p.end(Outcome{Kind: Abandoned, Peer: ev.Peer})
		return
	case ev.Kind == PeerDisconnected:
		if p.sess != nil {
			p.sess.Unfill(ev.Peer) // a peer gone is waited for, in case it rejoins
		}
		p.away[ev.Peer] = p.clock.Now()
		p.awaySet |= 1 << ev.Peer
		p.note(Event{Kind: EventConnection, Conn: ev, Wait: p.opts.Patience})
		return
	case ev.Kind == PeerReconnected:
		p.awaySet &^= 1 << ev.Peer
		if p.sess != nil {
			// Its link came back, or a new run of it took its slot back:
			// either way, send it every input it does not acknowledge anew.
			p.sess.Rejoined(ev.Peer)
		}
	}
	p.note(Event{Kind: EventConnection, Conn: ev})
}

// waited abandons the match when a player's peer has been disconnected
// for longer than the patience.
func (p *Peer) waited() {
	if p.awaySet == 0 || p.ended {
		return
	}
	now := p.clock.Now()
	for peer := range maxPeers {
		if p.awaySet&(1<<peer) != 0 && time.Duration(now-p.away[peer]) > p.opts.Patience {
			p.end(Outcome{Kind: Abandoned, Peer: peer, Waited: p.opts.Patience})
			return
		}
	}
}

// play gives p its session, which also talks to the seat-less peers.
func (p *Peer) play(sess *Session) error {
	for _, peer := range p.opts.Seatless {
		if err := sess.AddPeer(peer); err != nil {
			return err
		}
	}
	p.sess, p.catch = sess, nil
	return nil
}

// follow starts catching up on the host's confirmed inputs, from its
// snapshot when needState (the world this peer holds is no state of the
// host's timeline).
func (p *Peer) follow(needState bool) error {
	f, err := newFollow(p.app, p.tr, followOptions{players: len(p.opts.Players), actions: p.opts.Actions, hashEvery: p.opts.HashEvery,
		step: p.opts.Step, clock: p.clock, recorded: p.opts.Recorded})
	if err != nil {
		return err
	}
	if needState {
		f.fol.NeedState()
	}
	p.sess, p.catch = nil, f
	return nil
}

// resync answers ErrResync: the host played on without this peer (it held
// the match past the cutoff), so its timeline is not the match's any
// more. It catches up as a rejoining player does, from the host's
// snapshot, and plays on.
func (p *Peer) resync(cause error) error {
	p.resyncs++
	if err := p.follow(true); err != nil {
		return err
	}
	p.note(Event{Kind: EventResyncing, Err: cause})
	return nil
}

// playOn turns a peer that caught up into a player: its session starts on
// the tick its follower reached. It runs at the start of the update after
// the one that caught up, so that the caller has seen every tick the
// follower ran (a match recording takes them from the follower's
// timeline), and that update plays the session.
func (p *Peer) playOn() error {
	sess, err := NewSessionAfter(p.catch.fol, p.opts.Options)
	if err != nil {
		return err
	}
	f := p.catch
	if st := f.fol.Stats(); st.StateBytes > 0 {
		p.snapAt = max(p.snapAt, st.StateTick)
	}
	if err := p.play(sess); err != nil {
		return err
	}
	for i := range 2 {
		p.sent[i] += f.sent[i]
		p.received[i] += f.received[i]
	}
	p.note(Event{Kind: EventPlaying, Tick: sess.Tick(), Peer: p.opts.Self})
	return nil
}

// spectatorEvent starts or ends the host's feed of a spectator.
func (p *Peer) spectatorEvent(ev PeerEvent) {
	if p.opts.Self != 0 || p.sess == nil || ev.Peer < 0 || ev.Peer >= maxPeers {
		return
	}
	if p.feeds == nil {
		p.feeds = make([]*Feed, maxPeers)
	}
	if ev.Kind == PeerJoined {
		p.feeds[ev.Peer] = p.sess.NewFeed(p.opts.SpectatorDelay)
	} else {
		p.feeds[ev.Peer] = nil
	}
}

// feedMessage takes msg, from peer from, when it is for a feed at the
// host, and reports whether it was: a spectator's acknowledgement, or a
// catching-up player's. A player's first acknowledgement starts its feed,
// and its first session message ends it (it plays again). It takes a
// catch-up message too, and drops it: this peer plays, so it is one the
// host's feed sent before it heard that this peer caught up, late and
// for no session.
func (p *Peer) feedMessage(from int, msg []byte) bool {
	if from < 0 || from >= maxPeers {
		return false
	}
	if IsCatchUp(msg) {
		return true
	}
	player := slices.Contains(p.peers, from)
	if !IsAck(msg) {
		if player && p.feeds != nil && p.feeds[from] != nil {
			p.snapAt = max(p.snapAt, p.feeds[from].stateTick) // 0 without a snapshot
			p.feeds[from] = nil
			p.behind &^= 1 << from
			p.caughtUp = true
			p.note(Event{Kind: EventCaughtUp, Peer: from})
		}
		return false
	}
	if p.opts.Self != 0 {
		return true // only the host feeds
	}
	if p.feeds == nil {
		p.feeds = make([]*Feed, maxPeers)
	}
	if p.feeds[from] == nil {
		if !player {
			return true // a spectator that left
		}
		p.sess.Unfill(from) // it resynchronises: its inputs are wanted from here
		p.sess.Rejoined(from)
		p.feeds[from] = p.sess.NewFeed(0)
		p.note(Event{Kind: EventFeeding, Peer: from})
	}
	if err := p.feeds[from].Receive(msg); err != nil && p.malformed == nil {
		p.malformed = err
	}
	return true
}

// sendFeeds sends each spectator, and each player catching up, the next
// few catch-up messages its acknowledgement lets through. A full input
// log ends that feed, not the match.
func (p *Peer) sendFeeds() error {
	for peer, f := range p.feeds {
		if f == nil {
			continue
		}
		for range 4 {
			msg, more, err := f.Append(p.msg[:0])
			if err != nil {
				p.note(Event{Kind: EventFeedEnded, Peer: peer, Err: err})
				p.feeds[peer] = nil
				p.behind &^= 1 << peer // it cannot catch up from this log
				break
			}
			if !more {
				break
			}
			p.msg = msg
			if err := p.tr.Send(peer, msg); errors.Is(err, ErrClosed) {
				return fmt.Errorf("rollback: the match's transport: %w", err)
			} else if err == nil {
				p.sent[0]++
				p.sent[1] += uint64(len(msg))
			}
		}
		if p.feeds[peer] != nil {
			f.Update()
		}
	}
	return nil
}

// flushFeeds lets the spectators have the ticks their delay holds back:
// the match is ending.
func (p *Peer) flushFeeds() {
	for _, f := range p.feeds {
		if f != nil {
			f.Flush()
		}
	}
}
