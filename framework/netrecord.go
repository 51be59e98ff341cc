package framework

import (
	"errors"
	"fmt"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// A networked match records its confirmed timeline, not this machine's
// devices (recording.Header.Net): one tick per confirmed tick with every
// player's confirmed action states, the confirmed world hashes at the
// [net] hash interval, and what the match's pacing did. A tick is
// written once it is settled (rollback.Session.Settled): all its inputs
// confirmed and simulated with, so no rollback can change it. Every peer
// of a match in sync writes the same ticks and hashes, and so does a
// spectator fed the confirmed stream. A replay runs that timeline with
// no network: the players' inputs come from the recording through the
// same rollback.Players resource.

// matchRecording is a networked session's recording: opened once the
// game's Setup has declared its seats (startNet), closed with the
// session's outcome.
type matchRecording struct {
	path string
	stop int64 // --ticks: the match's agreed end (ticks below it are written), or -1
	rec  *sessionRecording

	next    int64 // the next confirmed tick to write
	every   int64 // the hash interval, 0 for none
	actions int   // each player's action count
	step    time.Duration
	tick    recording.Tick
	check   recording.Checkpoint
	pacing  recording.Pacing
}

// RecordMatch makes a session that plays a match ([Session.UseMatch])
// record the match's confirmed timeline to path, as --record does in a
// match: a tick per confirmed tick with every player's confirmed input,
// the confirmed world hashes at net.hash_every and the match's pacing
// (see recording.Net). The file is created once the game's Setup has
// declared its seats, before the first tick; a path that cannot be
// created fails the session there. Call it before the session runs, and
// [Session.FinishMatchRecording] after. Replay the file with [Replay].
func (s *Session) RecordMatch(path string) error {
	if s.match == nil {
		return errors.New("framework: RecordMatch needs a match: call UseMatch first")
	}
	s.matchRec = &matchRecording{path: path}
	return nil
}

// FinishMatchRecording ends the recording [Session.RecordMatch] began
// with the session's error (nil for a clean stop) and reports any
// problem keeping it; nil without one. Call it after the session ran.
func (s *Session) FinishMatchRecording(sessionErr error) error {
	if s.matchRec == nil {
		return nil
	}
	o, msg := outcome(nil, sessionErr, nil)
	return s.matchRec.close(o, msg)
}

// startMatchRecording opens the recording of the match once startNet has
// built it (a player's session, or a follower's), so that the header
// holds the seats Setup declared. Nothing to do without --record.
func (s *Session) startMatchRecording() error {
	m := s.matchRec
	if m == nil || s.side == nil {
		return nil
	}
	n := s.game.Net
	header := RecordingHeader(s.game, s.cfg, s.rt.Options().Mode)
	header.Net = &recording.Net{Players: n.Players, Actions: len(n.Seats[0]), Peer: s.match.Self}
	if s.match.Spectator {
		header.Net.Peer = -1
	}
	m.every = int64(s.cfg.Net.HashEvery)
	if m.every > 0 {
		header.CheckpointEvery = int(m.every)
	}
	m.step = matchStep(s.cfg.Timing)
	m.stop = -1
	if s.stopAfter > 0 && m.every > 0 {
		// Every peer stops on the same confirmed tick but runs on a
		// little (matchLinger); the recording ends where the match's
		// last line does, at the last hashed tick below the limit, so
		// both peers' recordings hold the same ticks.
		m.stop = (int64(s.stopAfter) - 1) / m.every * m.every
	}
	f, err := createRecording(m.path)
	if err != nil {
		return fmt.Errorf("framework: --record: %w", err)
	}
	w, err := recording.NewWriter(f, m.path, header)
	if err != nil {
		f.Close()
		return fmt.Errorf("framework: --record: %w", err)
	}
	w.SetClock(s.rt.Options().Clock)
	m.rec = &sessionRecording{path: m.path, w: w, f: f}
	m.actions = len(n.Seats[0])
	m.prepare(n.Players * m.actions)
	return nil
}

// prepare readies the tick written for each confirmed tick: states action
// states of every player, on the step's timeline.
func (m *matchRecording) prepare(states int) {
	m.tick.Players = make([]input.Stats, states)
	m.tick.Update = timing.Update{Kind: timing.FixedUpdate, Delta: m.step, Steps: 1, Final: true}
	m.tick.Timing.Step = m.step
}

// close ends the recording; nothing when the match never started.
func (m *matchRecording) close(o recording.Outcome, msg string) error {
	if m.rec == nil {
		return nil
	}
	return m.rec.close(o, msg)
}

// recordConfirmed writes the ticks the update settled, with the hashes
// that fall on them, and a player's pacing when the update did any. A
// player that must resynchronise from the host's snapshot ends a
// recording, which cannot hold the jump. It allocates nothing.
// Simulation owner, after the update ran the match.
func (s *Session) recordConfirmed(t *runtime.TickContext) error {
	m := s.matchRec
	if m == nil {
		return nil
	}
	for _, ev := range s.side.Events() {
		if ev.Kind == rollback.EventResyncing {
			return fmt.Errorf("framework: --record: %w; the recording keeps this machine's timeline up to where the match left it", ev.Err)
		}
	}
	if err := m.record(s.side.Timeline(), s.netApp); err != nil {
		return err
	}
	o := &t.Owed
	if s.side.Spectating() || (o.Resimulated == 0 && o.ResimulationTime == 0 && o.Held == 0 && o.Advantage == 0) {
		return nil
	}
	m.pacing = recording.Pacing{Update: t.Number, Tick: s.side.Tick(), Resimulated: o.Resimulated,
		ResimulationTime: o.ResimulationTime, Held: o.Held, Advantage: o.Advantage}
	if err := m.rec.w.Pacing(&m.pacing); err != nil {
		return fmt.Errorf("framework: --record: %w", err)
	}
	return nil
}

// record writes the ticks of tl that settled since the last call, each
// with every player's confirmed input, and the hashes app took of them;
// nothing without a recording. A player's session is one timeline; a
// follower's (a spectator, or a player catching up before its session
// takes over the same recording) is another. It allocates nothing.
func (m *matchRecording) record(tl rollback.Timeline, app *rollback.App) error {
	if m == nil || m.rec == nil {
		return nil
	}
	actions := m.actions
	settled := tl.Settled()
	if m.stop >= 0 {
		settled = min(settled, m.stop)
	}
	for ; m.next < settled; m.next++ {
		k := m.next
		tk := &m.tick
		tk.Update.Number = uint64(k)
		tk.Update.Start = timing.Instant(k) * timing.Instant(m.step)
		tk.Update.End = tk.Update.Start + timing.Instant(m.step)
		tk.InputStart, tk.InputEnd = tk.Update.Start, tk.Update.End
		for p := range len(tk.Players) / actions {
			in, ok := tl.ConfirmedInput(p, k)
			if !ok {
				return fmt.Errorf("framework: --record: player %d's confirmed input for tick %d is no longer held", p, k)
			}
			copy(tk.Players[p*actions:(p+1)*actions], in)
		}
		if err := m.rec.w.Append(tk); err != nil {
			return fmt.Errorf("framework: --record: %w", err)
		}
		if m.every == 0 || (k+1)%m.every != 0 {
			continue
		}
		// The hash of the state after tick k, which the session took as
		// the state before tick k+1.
		hash, types, ok := app.HashTypesAt(tl, k+1)
		if !ok {
			return fmt.Errorf("framework: --record: the confirmed world hash of tick %d is no longer held", k+1)
		}
		c := &m.check
		c.Tick, c.Hash, c.Types = uint64(k), hash, c.Types[:0]
		for _, th := range types {
			c.Types = append(c.Types, recording.TypeHash{Name: th.Name, Hash: th.Hash, Count: th.Count})
		}
		if err := m.rec.w.Checkpoint(c); err != nil {
			return fmt.Errorf("framework: --record: %w", err)
		}
	}
	return nil
}

// netReplay is the replay of a match's recording: the tick being
// replayed, whose players' confirmed input the seats take, and the last
// checkpoint checked, for the replay's confirmed line.
type netReplay struct {
	path      string
	net       recording.Net
	tick      *recording.Tick
	last      recording.Checkpoint
	hasLast   bool
	checkHash func(c *recording.Checkpoint) error
	// checked holds the hashes of the last checkpoints checked, by the
	// tick whose state they hashed (ConfirmedHashAt).
	checked [replayHashes]struct {
		tick int64
		hash uint64
	}
}

// replayHashes is how many checked hashes a match's replay holds, as a
// rollback.App holds its last 64.
const replayHashes = 64

// useNetReplay makes sess replay the match recorded in r: its players'
// input comes from the recording, and every checkpoint the runtime checks
// is kept for the confirmed line. The game must declare the recorded
// number of players.
func (s *Session) useNetReplay(path string, r *recording.Reader, rtOpts *runtime.Options) error {
	h := r.Header()
	n := s.game.Net
	if n == nil {
		return fmt.Errorf("framework: --replay %s: the recording is of a %d-player networked match, and this game declares no players (Game.Net)", path, h.Net.Players)
	}
	if n.Players != h.Net.Players {
		return fmt.Errorf("framework: --replay %s: the recording is of a %d-player match, this game has %d players", path, h.Net.Players, n.Players)
	}
	nr := &netReplay{path: path, net: *h.Net, tick: r.Current(), checkHash: rtOpts.Record.Hash}
	rtOpts.Record.Hash = nr.check
	s.replayNet = nr
	return nil
}

// check hashes the world for a recorded checkpoint and keeps it.
func (nr *netReplay) check(c *recording.Checkpoint) error {
	if err := nr.checkHash(c); err != nil {
		return err
	}
	nr.last.Tick, nr.last.Hash, nr.hasLast = c.Tick, c.Hash, true
	h := &nr.checked[(c.Tick+1)%replayHashes]
	h.tick, h.hash = int64(c.Tick)+1, c.Hash
	return nil
}

// hashAt returns the checked hash of tick's state (the state after tick
// tick-1, as a match's confirmed line names it), if the replay checked it
// among its last replayHashes checkpoints.
func (nr *netReplay) hashAt(tick int64) (uint64, bool) {
	if tick <= 0 {
		return 0, false
	}
	h := nr.checked[tick%replayHashes]
	return h.hash, h.tick == tick
}

// checkSeats checks the game's seats against the recording's, after the
// game's Setup declared them.
func (nr *netReplay) checkSeats(n *Net) error {
	if a := len(n.Seats[0]); a != nr.net.Actions {
		return fmt.Errorf("framework: --replay %s: the recording's players have %d actions each, this game's seats %d", nr.path, nr.net.Actions, a)
	}
	return nil
}

// fill gives the seats the replayed tick's confirmed input.
func (nr *netReplay) fill(in [][]input.Stats) {
	a := nr.net.Actions
	for p := range in {
		copy(in[p], nr.tick.Players[p*a:(p+1)*a])
	}
}

// stats are a match's replay's figures: the ticks replayed, no traffic.
// The game sees a match (its HUD may spawn what a match shows, which
// takes entities), as it did when the match was recorded.
func (nr *netReplay) stats() NetStats {
	var ns NetStats
	ns.Tick = int64(nr.tick.Update.Number) + 1
	ns.Confirmed = ns.Tick
	return ns
}

// confirmed returns the replay's confirmed line: the tick whose state the
// last checkpoint hashed, as a match's last line names it.
func (nr *netReplay) confirmed() (tick int64, hash uint64, ok bool) {
	if !nr.hasLast {
		return 0, 0, false
	}
	return int64(nr.last.Tick) + 1, nr.last.Hash, true
}
