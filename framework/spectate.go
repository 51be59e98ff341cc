package framework

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/runtime"
)

// A spectator (--spectate ADDR --token T) joins a running match as a
// netplay spectator and watches it: it runs a rollback.Follower on the
// confirmed inputs the host's rollback.Feed streams it, from tick 0 (it
// catches up within half a frame of work an update) and then live, the
// host's net.spectator_delay ticks behind. It never predicts, never rolls
// back and sends nothing but its acknowledgements to the host, so the
// players never wait for it.

// specRun is a spectator's state on the simulation side.
type specRun struct {
	app      *rollback.App
	fol      *rollback.Follower
	tr       rollback.Transport
	msg, buf []byte
	step     runStep
	log      io.Writer
	bad      error // the first catch-up message refused
}

// runStep is the fixed step and the host's delay a spectator follows at.
type runStep struct {
	half  time.Duration // the catch-up budget of an update
	delay int           // ticks a live spectator keeps queued before it runs faster
}

// startSpectator builds the follower of a spectator's match in place of
// a player's session: app, the game's world as a rollback.App, is its
// Simulation.
func (s *Session) startSpectator(app *rollback.App, actions int) error {
	m := s.match
	fol, err := rollback.NewFollower(app, len(m.Peers), actions, s.cfg.Net.HashEvery, 0, s.rt.Options().Clock)
	if err != nil {
		return fmt.Errorf("framework: spectating: %w", err)
	}
	step := s.cfg.Timing.FixedStep
	if rate := s.cfg.Timing.Rate; !rate.IsZero() {
		step = rate.Step()
	}
	app.SetDelta(step)
	s.spec = &specRun{app: app, fol: fol, tr: m.Transport, msg: make([]byte, 0, rollback.MaxMessage), buf: make([]byte, rollback.MaxMessage),
		step: runStep{half: step / 2, delay: s.cfg.Net.SpectatorDelay}, log: s.stderr}
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
		if from != 0 {
			continue
		}
		if err := r.fol.Receive(r.buf[:n]); err != nil && r.bad == nil {
			r.bad = err // counted in the follower's stats; the feed sends again
		}
	}
	st := r.fol.Stats()
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
		}
		if _, err := r.app.Follow(r.fol, t, budget, most); err != nil {
			return err
		}
	}
	r.msg = r.fol.AppendAck(r.msg[:0])
	if err := r.tr.Send(0, r.msg); errors.Is(err, rollback.ErrClosed) {
		return fmt.Errorf("framework: spectating: %w", err)
	}
	return nil
}

// updateSpectator runs one update of a spectator.
func (s *Session) updateSpectator(t *runtime.TickContext) error {
	err := s.spec.update(t, s.specTarget())
	if errors.Is(err, errPeerLeft) {
		fmt.Fprintf(s.spec.log, "%s: %v: the match ends\n", programName(), err)
		s.rt.Stop()
		return nil
	}
	return err
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

// feedSpectators sends each spectator the next few catch-up messages
// its acknowledgement lets through. A full input log ends that
// spectator's feed, not the match.
func (r *netRun) feedSpectators() error {
	for peer, f := range r.feeds {
		if f == nil {
			continue
		}
		for range 4 {
			msg, more, err := f.Append(r.msg[:0])
			if err != nil {
				fmt.Fprintf(r.log, "%s: spectator (peer %d): %v: no more to send it\n", programName(), peer, err)
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
