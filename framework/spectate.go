package framework

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/runtime"
)

// A spectator (--spectate ADDR --token T) joins a running match as a
// netplay spectator and watches it: it runs a rollback.Follower on the
// confirmed inputs the host's rollback.Feed streams it, from tick 0 or,
// when it arrives more than a few seconds into the match, from a
// snapshot of the host's world at a recent confirmed tick (the game's
// world travels: rollback.App is a rollback.StateSimulation), catching
// up within half a frame of work an update, and then live, the host's
// net.spectator_delay ticks behind. It never predicts, never rolls
// back and sends nothing but its acknowledgements to the host, so the
// players never wait for it.
//
// A player who rejoins (--join to a match under way, taking back the
// slot its last run held: netplay.Match.Rejoining) catches up the same
// way, with no delay: while it was away its peers confirmed no tick past
// its last input, so the host's feed ends there (rollback.Follower.
// CaughtUp), and it plays on from that tick with a session of its own
// (rollback.NewSessionAfter). The host feeds it from its first
// acknowledgement and stops when its first session message arrives.

// specRun is a spectator's state on the simulation side.
type specRun struct {
	app       *rollback.App
	fol       *rollback.Follower
	tr        rollback.Transport
	msg, buf  []byte
	step      runStep
	log       io.Writer
	bad       error // the first catch-up message refused
	toldState bool  // the snapshot it started from was reported
	// rec records the confirmed timeline it follows (--record), or is
	// nil; actions is each player's action count.
	rec     *matchRecording
	actions int
	// rejoin is, for a player catching up (rejoining or
	// resynchronising), its run, which gets a session with its options
	// once caught up (playOn); nil for a spectator.
	rejoin *netRun
}

// runStep is the fixed step and the host's delay a spectator follows at.
type runStep struct {
	tick  time.Duration // the fixed step
	half  time.Duration // the catch-up budget of an update
	delay int           // ticks a live spectator keeps queued before it runs faster
}

// startSpectator builds the follower of a spectator's match in place of
// a player's session: app, the game's world as a rollback.App, is its
// Simulation.
func (s *Session) startSpectator(app *rollback.App, actions int) error {
	return s.startFollower(app, actions, s.cfg.Net.SpectatorDelay)
}

// startRejoin builds the follower a rejoining player catches up with;
// r plays on once it has (playOn).
func (s *Session) startRejoin(r *netRun) error {
	if err := s.startFollower(r.app, r.opts.Actions, 0); err != nil {
		return err
	}
	s.spec.rejoin = r
	fmt.Fprintf(s.spec.log, "%s: rejoining the match as peer %d: catching up on the host's confirmed inputs\n", programName(), s.match.Self)
	return nil
}

// resync answers rollback.ErrResync: the host played on without this
// machine (it held the match past the cutoff), so this session's
// timeline is not the match's any more. It catches up as a rejoining
// player does, from the host's snapshot (the world it holds is not the
// state of any tick the host's timeline passed through), and plays on.
// A recording ends with the error: what it kept is this machine's
// timeline, which the match left.
func (s *Session) resync(cause error) error {
	r := s.net
	if r.rec != nil {
		return fmt.Errorf("framework: --record: %w; the recording keeps this machine's timeline up to where the match left it", cause)
	}
	s.net, r.sess = nil, nil
	r.resyncs++
	if err := s.startFollower(r.app, r.opts.Actions, 0); err != nil {
		return err
	}
	s.spec.fol.NeedState()
	s.spec.rejoin = r
	fmt.Fprintf(s.spec.log, "%s: %v: resynchronising from the host's snapshot\n", programName(), cause)
	return nil
}

// startFollower builds s.spec over app, following delay ticks behind
// the host's confirmed end.
func (s *Session) startFollower(app *rollback.App, actions, delay int) error {
	m := s.match
	fol, err := rollback.NewFollower(app, len(m.Peers), actions, s.cfg.Net.HashEvery, 0, s.rt.Options().Clock)
	if err != nil {
		return fmt.Errorf("framework: following the match: %w", err)
	}
	step := matchStep(s.cfg.Timing)
	app.SetDelta(step)
	if s.matchRec != nil {
		fol.FromStart() // its recording starts at tick 0, as a player's does
	}
	s.spec = &specRun{app: app, fol: fol, tr: m.Transport, rec: s.matchRec, actions: actions, msg: make([]byte, 0, rollback.MaxMessage), buf: make([]byte, rollback.MaxMessage),
		step: runStep{tick: step, half: step / 2, delay: delay}, log: s.stderr}
	if s.spec.log == nil {
		s.spec.log = os.Stderr
	}
	return nil
}

// update takes the catch-up messages that arrived, simulates what they
// allow and acknowledges. With a target (--ticks), it stops on it.
func (r *specRun) update(t *runtime.TickContext, target int64) error {
	if m, ok := r.tr.(*netplay.Match); ok {
		for ev, ok := m.Event(); ok; ev, ok = m.Event() {
			if r.rejoin != nil {
				if err := r.rejoin.event(ev); err != nil {
					return err
				}
				continue
			}
			if ev.Peer == 0 && ev.Kind == netplay.Left {
				return fmt.Errorf("%w: the host", errPeerLeft)
			}
			fmt.Fprintf(r.log, "%s: peer %d %s\n", programName(), ev.Peer, ev.Kind)
		}
	}
	for {
		n, from, ok := r.tr.Receive(r.buf)
		if !ok {
			break
		}
		if from != 0 || (r.rejoin != nil && !rollback.IsCatchUp(r.buf[:n])) {
			continue // a player catching up: its peers send to its session to be, which asks again
		}
		if err := r.fol.Receive(r.buf[:n]); err != nil && r.bad == nil {
			r.bad = err // counted in the follower's stats; the feed sends again
		}
	}
	st := r.fol.Stats()
	if st.StateBytes > 0 && !r.toldState {
		r.toldState = true
		fmt.Fprintf(r.log, "%s: starting from the host's snapshot of tick %d (%d bytes)\n", programName(), st.StateTick, st.StateBytes)
	}
	limit := int(st.Received - st.Tick)
	if target >= 0 {
		limit = min(limit, int(target-st.Tick))
	}
	if limit > 0 {
		// Behind by more than the host's delay (and a little): catching
		// up, as much as half a step allows; else one tick an update.
		budget, most := time.Duration(0), 1
		if limit > 2*r.step.delay+2 {
			budget, most = r.step.half, limit
			if r.rec != nil && r.rec.every > 0 {
				// The App keeps its last 64 hashes: the recording reads
				// them after the update, so an update runs fewer.
				most = min(most, 32*int(r.rec.every))
			}
		}
		if _, err := r.app.Follow(r.fol, t, budget, most); err != nil {
			return err
		}
	}
	if r.rec != nil {
		if err := r.rec.record(r.fol, r.app, r.actions); err != nil {
			return err
		}
	}
	r.msg = r.fol.AppendAck(r.msg[:0])
	if err := r.tr.Send(0, r.msg); errors.Is(err, rollback.ErrClosed) {
		return fmt.Errorf("framework: spectating: %w", err)
	}
	return nil
}

// stats are a follower's figures: the ticks it ran, all confirmed, and
// the transport's traffic and round trip. Every peer's game sees a match
// from its first tick, whether it plays, watches or catches up, so that
// what a game spawns for a match's display spawns on every one of them.
func (r *specRun) stats() NetStats {
	st := r.fol.Stats()
	ns := NetStats{RTT: transportRTT(r.tr), Seconds: float64(st.Tick) * r.step.tick.Seconds()}
	ns.Tick, ns.Confirmed = st.Tick, st.Tick
	ns.Received = st.Messages
	return ns
}

// updateSpectator runs one update of a spectator, or of a rejoining
// player catching up.
func (s *Session) updateSpectator(t *runtime.TickContext) error {
	err := s.spec.update(t, s.specTarget())
	if errors.Is(err, errPeerLeft) {
		fmt.Fprintf(s.spec.log, "%s: %v: the match ends\n", programName(), err)
		s.rt.Stop()
		return nil
	}
	if err == nil && s.spec.rejoin != nil && s.spec.fol.CaughtUp() {
		return s.playOn()
	}
	return err
}

// playOn turns a rejoining player that caught up into a player: its
// session starts on the tick its follower reached, and the next update
// plays it.
func (s *Session) playOn() error {
	sp, r := s.spec, s.spec.rejoin
	sess, err := rollback.NewSessionAfter(sp.fol, r.opts)
	if err != nil {
		return fmt.Errorf("framework: rejoining the match: %w", err)
	}
	if err := r.play(sess, s.match.Seatless); err != nil {
		return err
	}
	s.net, s.spec = r, nil
	fmt.Fprintf(sp.log, "%s: caught up on the match at tick %d: playing on as peer %d\n", programName(), sess.Tick(), r.opts.Self)
	return nil
}

// specTarget is the tick a spectator with --ticks N stops on: the last
// hashed tick below N, the tick the players' confirmed line gives; -1
// without --ticks.
func (s *Session) specTarget() int64 {
	if s.stopAfter == 0 {
		return -1
	}
	if every := int64(s.cfg.Net.HashEvery); every > 0 {
		return (int64(s.stopAfter) - 1) / every * every
	}
	return int64(s.stopAfter)
}

// spectatorEvent starts or ends the host's feed of a spectator.
func (r *netRun) spectatorEvent(ev netplay.Event) {
	if r.self != 0 || ev.Peer < 0 || ev.Peer >= netplay.MaxPlayers+netplay.MaxSpectators {
		return
	}
	if r.feeds == nil {
		r.feeds = make([]*rollback.Feed, netplay.MaxPlayers+netplay.MaxSpectators)
	}
	if ev.Kind == netplay.Joined {
		r.feeds[ev.Peer] = r.sess.NewFeed(r.spectatorDelay)
	} else {
		r.feeds[ev.Peer] = nil
	}
}

// feedMessage takes msg, from peer from, when it is for a feed at the
// host, and reports whether it was: a spectator's acknowledgement, or a
// rejoining player's while it catches up. A player's first
// acknowledgement starts its feed, and its first session message ends
// it (it plays again).
func (r *netRun) feedMessage(from int, msg []byte) bool {
	if from < 0 || from >= netplay.MaxPlayers+netplay.MaxSpectators {
		return false
	}
	player := slices.Contains(r.peers, from)
	if !rollback.IsAck(msg) {
		if player && r.feeds != nil && r.feeds[from] != nil {
			r.feeds[from] = nil
			fmt.Fprintf(r.log, "%s: peer %d caught up and plays on\n", programName(), from)
		}
		return false
	}
	if r.self != 0 {
		return true // only the host feeds
	}
	if r.feeds == nil {
		r.feeds = make([]*rollback.Feed, netplay.MaxPlayers+netplay.MaxSpectators)
	}
	if r.feeds[from] == nil {
		if !player {
			return true // a spectator that left
		}
		r.sess.Unfill(from) // it resynchronises: its inputs are wanted from here
		r.sess.Rejoined(from)
		r.feeds[from] = r.sess.NewFeed(0)
		fmt.Fprintf(r.log, "%s: peer %d is catching up: sending it the confirmed timeline\n", programName(), from)
	}
	if err := r.feeds[from].Receive(msg); err != nil && r.malformed == nil {
		r.malformed = err
	}
	return true
}

// sendFeeds sends each spectator, and each player catching up, the next
// few catch-up messages its acknowledgement lets through. A full input
// log ends that feed, not the match.
func (r *netRun) sendFeeds() error {
	for peer, f := range r.feeds {
		if f == nil {
			continue
		}
		for range 4 {
			msg, more, err := f.Append(r.msg[:0])
			if err != nil {
				fmt.Fprintf(r.log, "%s: peer %d: %v: no more to send it\n", programName(), peer, err)
				r.feeds[peer] = nil
				break
			}
			if !more {
				break
			}
			r.msg = msg
			if err := r.tr.Send(peer, msg); errors.Is(err, rollback.ErrClosed) {
				return fmt.Errorf("framework: networked match: %w", err)
			}
		}
		if r.feeds[peer] != nil {
			f.Update()
		}
	}
	return nil
}

// flushFeeds lets the spectators have the ticks their delay holds back:
// the match is ending.
func (r *netRun) flushFeeds() {
	for _, f := range r.feeds {
		if f != nil {
			f.Flush()
		}
	}
}
