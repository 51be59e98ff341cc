package rollback

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// A match's recording is its confirmed timeline, not one machine's
// devices (recording.Header.Net): a tick per confirmed tick with every
// player's confirmed action states, the confirmed world hashes at the
// hash interval, and what the match's pacing did. A tick is written once
// it is settled ([Timeline.Settled]): all its inputs confirmed and
// simulated with, so no rollback can change it. Every peer of a match in
// sync writes the same ticks and hashes, and so does a spectator fed the
// confirmed stream. A [Playback] runs that timeline again with no
// network, through the same [Players] resource.
//
// The recording keeps the match's figures too ([recording.NetFigures]:
// the round trip, traffic, rollbacks, held updates, resynchronisations
// of this machine's [PeerStats]), about once a second of its updates, so
// an inspector of the recording shows what the net: line said, over
// time. A replay needs none of them.

// recordedMatch is what a recording needs of a [Side]'s match.
type recordedMatch struct {
	players, actions, peer, every int
	step                          time.Duration
	ticks                         int64
}

// RecordingHeader returns h with the match's part filled in: h.Net (the
// players, their actions, this machine's peer or -1 for a spectator) and
// h.CheckpointEvery (the hash interval, when there is one). A recording
// of s is written with this header ([NewRecorder]).
func (s *Side) RecordingHeader(h recording.Header) recording.Header {
	m := s.rec
	h.Net = &recording.Net{Players: m.players, Actions: m.actions, Peer: m.peer}
	if m.every > 0 {
		h.CheckpointEvery = m.every
	}
	return h
}

// Recorder writes a match's confirmed timeline into a recording as it
// settles ([Recorder.Update]). Simulation goroutine.
type Recorder struct {
	side *Side
	w    *recording.Writer
	next int64 // the next settled tick to write
	// stop is where the match's recording ends (ticks below it are
	// written), or -1: the last hashed tick below PeerOptions.Ticks,
	// where the match's last line is, so every peer's recording holds
	// the same ticks though each runs on a little after it.
	stop   int64
	tick   recording.Tick
	check  recording.Checkpoint
	pacing recording.Pacing
	// figures are the match's figures, written every perSecond updates
	// of this machine.
	figures   recording.NetFigures
	perSecond uint64
}

// NewRecorder returns the recorder of side's match into w, a writer made
// with side's [Side.RecordingHeader].
func NewRecorder(side *Side, w *recording.Writer) *Recorder {
	m := side.rec
	r := &Recorder{side: side, w: w, stop: -1, perSecond: uint64(max(1, time.Second/max(m.step, time.Millisecond)))}
	if m.ticks > 0 && m.every > 0 {
		r.stop = (m.ticks - 1) / int64(m.every) * int64(m.every)
	}
	r.tick.Players = make([]input.Stats, m.players*m.actions)
	r.tick.Update = timing.Update{Kind: timing.FixedUpdate, Delta: m.step, Steps: 1, Final: true}
	r.tick.Timing.Step = m.step
	return r
}

// Update writes the ticks the side's latest update settled, with the
// hashes that fall on them, and a player's pacing when t owed any (t is
// the update's tick, after [Side.Update]). A player that must
// resynchronise from the host's snapshot ends the recording with an
// error, since a recording cannot hold the jump. It allocates nothing.
func (r *Recorder) Update(t *runtime.TickContext) error {
	s := r.side
	for _, ev := range s.Events() {
		if ev.Kind == EventResyncing {
			return fmt.Errorf("%w; the recording keeps this machine's timeline up to where the match left it", ev.Err)
		}
	}
	if err := r.record(s.Timeline(), s.app); err != nil {
		return err
	}
	if t.Number%r.perSecond == 0 {
		if err := r.writeFigures(t.Number); err != nil {
			return err
		}
	}
	o := &t.Owed
	if s.Spectating() || (o.Resimulated == 0 && o.ResimulationTime == 0 && o.Held == 0 && o.Advantage == 0) {
		return nil
	}
	r.pacing = recording.Pacing{Update: t.Number, Tick: s.Tick(), Resimulated: o.Resimulated,
		ResimulationTime: o.ResimulationTime, Held: o.Held, Advantage: o.Advantage}
	return r.w.Pacing(&r.pacing)
}

// writeFigures writes the match's figures after this machine's update
// number update.
func (r *Recorder) writeFigures(update uint64) error {
	ns := r.side.Stats()
	r.figures = recording.NetFigures{Update: update, Tick: ns.Tick, Confirmed: ns.Confirmed, RTT: ns.RTT,
		BytesSent: ns.BytesSent, BytesReceived: ns.BytesReceived, Sent: ns.Sent, Received: ns.Received,
		Rollbacks: ns.Rollbacks, Resimulated: ns.Resimulated, MaxDepth: ns.MaxDepth, Held: ns.Held,
		Resyncs: ns.Resyncs, PlayedOn: ns.PlayedOn, SlowedDown: ns.SlowedDown, Mispredicted: ns.Mispredicted, Malformed: ns.Malformed}
	return r.w.Net(&r.figures)
}

// record writes the ticks of tl that settled since the last call, each
// with every player's confirmed input, and the hashes app took of them.
// A player's session is one timeline; a follower's (a spectator, or a
// player catching up before its session takes over the same recording)
// is another.
func (r *Recorder) record(tl Timeline, app *App) error {
	m := &r.side.rec
	actions := m.actions
	settled := tl.Settled()
	if r.stop >= 0 {
		settled = min(settled, r.stop)
	}
	for ; r.next < settled; r.next++ {
		k := r.next
		tk := &r.tick
		tk.Update.Number = uint64(k)
		tk.Update.Start = timing.Instant(k) * timing.Instant(m.step)
		tk.Update.End = tk.Update.Start + timing.Instant(m.step)
		tk.InputStart, tk.InputEnd = tk.Update.Start, tk.Update.End
		for p := range m.players {
			in, ok := tl.ConfirmedInput(p, k)
			if !ok {
				return fmt.Errorf("rollback: player %d's confirmed input for tick %d is no longer held", p, k)
			}
			copy(tk.Players[p*actions:(p+1)*actions], in)
		}
		if err := r.w.Append(tk); err != nil {
			return err
		}
		if m.every == 0 || (k+1)%int64(m.every) != 0 {
			continue
		}
		// The hash of the state after tick k, which the session took as
		// the state before tick k+1.
		hash, types, ok := app.HashTypesAt(tl, k+1)
		if !ok {
			return fmt.Errorf("rollback: the confirmed world hash of tick %d is no longer held", k+1)
		}
		c := &r.check
		c.Tick, c.Hash, c.Types = uint64(k), hash, c.Types[:0]
		for _, th := range types {
			c.Types = append(c.Types, recording.TypeHash{Name: th.Name, Hash: th.Hash, Count: th.Count})
		}
		if err := r.w.Checkpoint(c); err != nil {
			return err
		}
	}
	return nil
}

// Playback is the replay of a match's recording, with no network: the
// recorded confirmed input of every player for the tick being replayed
// ([Playback.Fill]), and the checkpoints the replay has checked, for the
// same figures and hashes a [Side] gives. Simulation goroutine.
type Playback struct {
	net  recording.Net
	tick *recording.Tick
	in   [][]input.Stats
	last recording.Checkpoint
	has  bool
	// checked holds the hashes of the last playbackHashes checkpoints
	// checked, by the tick whose state they hashed.
	checked [playbackHashes]struct {
		tick int64
		hash uint64
	}
}

// playbackHashes is how many checked hashes a Playback holds, as an App
// holds its last 64.
const playbackHashes = 64

// NewPlayback returns the playback of the match recorded in r, for a
// game of players players with actions actions each; a recording of
// another number of either is refused, naming both.
func NewPlayback(r *recording.Reader, players, actions int) (*Playback, error) {
	h := r.Header()
	if h.Net == nil {
		return nil, fmt.Errorf("rollback: the recording is of no networked match; allowed: a recording whose header has Net")
	}
	if h.Net.Players != players {
		return nil, fmt.Errorf("rollback: the recording is of a %d-player match, this game has %d players", h.Net.Players, players)
	}
	if h.Net.Actions != actions {
		return nil, fmt.Errorf("rollback: the recording's players have %d actions each, this game's seats %d", h.Net.Actions, actions)
	}
	p := &Playback{net: *h.Net, tick: r.Current(), in: make([][]input.Stats, players)}
	for i := range p.in {
		p.in[i] = make([]input.Stats, actions)
	}
	return p, nil
}

// Checked keeps c, a recorded checkpoint the replay's world matched.
func (p *Playback) Checked(c *recording.Checkpoint) {
	p.last.Tick, p.last.Hash, p.has = c.Tick, c.Hash, true
	h := &p.checked[(c.Tick+1)%playbackHashes]
	h.tick, h.hash = int64(c.Tick)+1, c.Hash
}

// Fill gives players the replayed tick's confirmed input. It allocates
// nothing.
func (p *Playback) Fill(players *Players) {
	a := p.net.Actions
	for i := range p.in {
		copy(p.in[i], p.tick.Players[i*a:(i+1)*a])
	}
	players.SetLocal(p.in)
}

// Stats are the replay's figures: the ticks replayed, no traffic. A game
// sees a match (its HUD may spawn what a match shows), as it did when
// the match was recorded.
func (p *Playback) Stats() PeerStats {
	var ns PeerStats
	ns.Tick = int64(p.tick.Update.Number) + 1
	ns.Confirmed = ns.Tick
	return ns
}

// ConfirmedHash returns the tick whose state the last checked checkpoint
// hashed, with its hash, as the match's last line named it.
func (p *Playback) ConfirmedHash() (tick int64, hash uint64, ok bool) {
	if !p.has {
		return 0, 0, false
	}
	return int64(p.last.Tick) + 1, p.last.Hash, true
}

// HashAt returns the checked hash of tick's state (the state after tick
// tick-1), if the replay checked it among its last 64 checkpoints.
func (p *Playback) HashAt(tick int64) (uint64, bool) {
	if tick <= 0 {
		return 0, false
	}
	h := p.checked[tick%playbackHashes]
	return h.hash, h.tick == tick
}
