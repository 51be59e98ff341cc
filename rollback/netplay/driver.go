package netplay

import (
	"context"
	"fmt"
	"io"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Driver plays a program's matches: it connects this machine to one
// ([Driver.Connect], [Driver.Seat]), builds its side of it
// ([Driver.Play]) and replays a match's recording ([Driver.Replay]).
//
// A [Network] embeds it, as [UDPNetwork]'s and quicnet's do, so that a
// program reaches it only through the networks it lists: package
// framework finds it on the values of Game.Net.Networks by their method
// set, never by name, and a game that lists no network links no
// rollback session, no match and no log/slog. A network of another
// package embeds it the same way (struct{ netplay.Driver; ... }).
type Driver struct{}

// Connected is a match [Driver.Connect] reached, as a program's session
// seats it.
type Connected struct {
	// Transport carries the match's messages: the *[Match].
	Transport rollback.Transport
	// Self is this machine's peer number.
	Self int
	// Seating says where the players sit ([Match.Seating]).
	Seating
	// Rejoining and JoinedLate are [Match.Rejoining] and [Match.Late].
	Rejoining, JoinedLate bool
}

// Connect reaches the match o describes ([Connect]) and seats o's
// players on it. Without o.Notify it writes each step on out: the host's
// join command, and that the match started. Any goroutine.
func (d Driver) Connect(ctx context.Context, o ConnectOptions, out io.Writer) (Connected, error) {
	if o.Notify == nil {
		players, start := o.Options.Players, o.Options.Start
		o.Notify = func(nt Notice) { io.WriteString(out, nt.Text(players, start)) }
	}
	m, err := Connect(ctx, o)
	if err != nil {
		return Connected{}, err
	}
	players := o.Options.Players
	if players == 0 {
		players = DefaultPlayers
	}
	return d.Seat(m, players), nil
}

// Seat seats the players of a match of players players that m reached
// (a lobby's, say) on its peers.
func (Driver) Seat(m *Match, players int) Connected {
	return Connected{Transport: m, Self: m.Self(), Seating: m.Seating(players), Rejoining: m.Rejoining(), JoinedLate: m.Late()}
}

// Text is what a program shows of nt for a match of players players
// that starts with start of them (0: all): the host's join command, or
// that the match started.
func (nt Notice) Text(players, start int) string {
	switch nt.Kind {
	case Listening:
		what := fmt.Sprintf("a %d-player match", players)
		if start > 0 && start < players {
			what += fmt.Sprintf(" (it starts with %d; the others join during it)", start)
		}
		if nt.Role == Dedicated {
			what = fmt.Sprintf("a %d-player match as a dedicated host (no seat here: every player joins)", players)
		}
		return fmt.Sprintf("hosting %s on %s over %s; join with:\n  --join %s --token %s\n", what, nt.Addr, nt.Transport, nt.JoinAddr, nt.Token)
	case Started:
		if nt.Role == Spectating {
			return fmt.Sprintf("watching: %d players, this machine is spectator peer %d\n", players, nt.Self)
		}
		return fmt.Sprintf("match started: %d players, this machine is peer %d\n", players, nt.Self)
	}
	return ""
}

// PlayOptions is this machine's side of a match as [Driver.Play] builds
// it.
type PlayOptions struct {
	// Connected is the match: its transport, this machine's peer and the
	// seating. Its Transport need not be a *[Match] (a simulated
	// network's, in tests); the net: line gives wire figures only for one.
	Connected
	// Spectator makes this machine follow the match instead of playing.
	Spectator bool
	// Bot plays this machine's players with input from this seed (0: off).
	Bot uint64
	// Net is the match's configuration, which every peer shares.
	Net rollback.MatchOptions
	// Timing is the session's: its step and its debt cutoff.
	Timing timing.Options
	// Seats are the game's actions per seat (rollback.NewPlayerSide).
	Seats [][]input.Action
	// Ticks is where the match stops (0: it does not).
	Ticks int64
	// Recorded keeps what a recording of the match needs ([Play.Record]).
	Recorded bool
	// Clock is the session's clock; nil is the system's.
	Clock timing.Clock
}

// A Play is this machine's side of a match as its program drives it: a
// player's or a spectator's rollback.Side, with its recording and its
// end lines. Simulation owner.
type Play interface {
	// Update runs one tick of the match (rollback.Side.Update).
	Update(t *runtime.TickContext) error
	// Events returns what happened to the peers since the last call.
	Events() []rollback.Event
	// Ready waits until every peer is ready to start.
	Ready(ctx context.Context) error
	// Stats are the match's figures.
	Stats() rollback.PeerStats
	// ConfirmedHash and HashAt are the confirmed timeline's hashes.
	ConfirmedHash() (tick int64, hash uint64, ok bool)
	HashAt(tick int64) (uint64, bool)
	// RecordingHeader adds the match to h; Record starts writing the
	// match's confirmed timeline to w, and RecordTick writes what a tick
	// settled.
	RecordingHeader(h recording.Header) recording.Header
	Record(w *recording.Writer)
	RecordTick(t *runtime.TickContext) error
	// FinalLine is a headless match's last line: the outcome in words
	// when it ended other than finished, else the confirmed line
	// ([rollback.ConfirmedLine]); false when there is none.
	FinalLine() (string, bool)
	// NetLine is the "net:" line of the match's traffic per real second.
	NetLine() string
	// Pacing is what the match kept of its pacing; nil for a spectator.
	Pacing() *rollback.Pacing
}

// Play builds this machine's side of the match o describes over app,
// once the game's Setup has registered its actions and state types.
func (Driver) Play(app *ecs.App, o PlayOptions) (Play, error) {
	a, err := rollback.NewApp(app, o.Net.Window)
	if err != nil {
		return nil, err
	}
	step := o.Timing.FixedStep
	if !o.Timing.Rate.IsZero() {
		step = o.Timing.Rate.Step() // as the scheduler rounds it (timing.Scheduler.Step)
	}
	p := &play{}
	p.wire, _ = o.Transport.(*Match)
	if o.Spectator {
		if p.side, err = rollback.NewSpectatorSide(a, rollback.SpectatorOptions{Transport: o.Transport, Players: len(o.Peers), Actions: len(o.Seats[0]),
			HashEvery: o.Net.HashEvery, Step: step, Delay: o.Net.SpectatorDelay, Ticks: o.Ticks, Recorded: o.Recorded, Clock: o.Clock}); err != nil {
			return nil, err
		}
		return p, nil
	}
	opts := rollback.PeerOptions{
		Options:   rollback.Options{Self: o.Self, Actions: len(o.Seats[0]), Window: o.Net.Window, HashEvery: o.Net.HashEvery, Clock: o.Clock},
		Transport: o.Transport, Step: step, Seatless: o.Seatless, Late: o.Late, Rejoining: o.Rejoining, JoinedLate: o.JoinedLate,
		Patience: o.Net.JoinTimeout, Cutoff: o.Timing.Debt.Cutoff, SpectatorDelay: o.Net.SpectatorDelay,
		Ticks: o.Ticks, Recorded: o.Recorded, Bot: o.Bot,
	}
	for _, peer := range o.Peers {
		opts.Players = append(opts.Players, rollback.Player{Peer: peer, Delay: o.Net.Delay})
	}
	if p.side, err = rollback.NewPlayerSide(a, opts, o.Seats); err != nil {
		return nil, err
	}
	return p, nil
}

// play is the [Play] of a rollback.Side.
type play struct {
	side *rollback.Side
	rec  *rollback.Recorder
	// wire is the match whose wire counters the net: line reads; nil
	// for a transport of another kind.
	wire *Match
}

func (p *play) Update(t *runtime.TickContext) error               { return p.side.Update(t) }
func (p *play) Events() []rollback.Event                          { return p.side.Events() }
func (p *play) Ready(ctx context.Context) error                   { return p.side.Ready(ctx) }
func (p *play) Stats() rollback.PeerStats                         { return p.side.Stats() }
func (p *play) HashAt(tick int64) (uint64, bool)                  { return p.side.HashAt(tick) }
func (p *play) Pacing() *rollback.Pacing                          { return p.side.Pacing() }
func (p *play) Record(w *recording.Writer)                        { p.rec = rollback.NewRecorder(p.side, w) }
func (p *play) ConfirmedHash() (tick int64, hash uint64, ok bool) { return p.side.ConfirmedHash() }

func (p *play) RecordingHeader(h recording.Header) recording.Header {
	return p.side.RecordingHeader(h)
}

func (p *play) RecordTick(t *runtime.TickContext) error {
	if p.rec == nil {
		return nil
	}
	return p.rec.Update(t)
}

func (p *play) FinalLine() (string, bool) {
	if o, ok := p.side.Outcome(); ok && o.Kind != rollback.Finished {
		return o.String(), true
	} else if ok {
		return rollback.ConfirmedLine(o.Tick, o.Hash), o.HasHash
	}
	if tick, hash, ok := p.side.ConfirmedHash(); ok {
		return rollback.ConfirmedLine(tick, hash), true
	}
	return "", false
}

func (p *play) NetLine() string {
	ns, real := p.side.Stats(), p.side.Real()
	wire := ""
	if p.wire != nil {
		secs := real.Seconds()
		if real <= 0 {
			secs = ns.Seconds
		}
		wire = p.wire.Stats().WireText(secs)
	}
	return ns.NetLine(real, wire)
}

// A Replay is the replay of a match's recording (rollback.Playback):
// the match with no network. Simulation owner.
type Replay interface {
	// Fill gives the players the tick's recorded inputs.
	Fill(players *rollback.Players)
	// Checked keeps a checkpoint the replay has checked.
	Checked(c *recording.Checkpoint)
	Stats() rollback.PeerStats
	ConfirmedHash() (tick int64, hash uint64, ok bool)
	HashAt(tick int64) (uint64, bool)
}

// Replay replays the match r recorded for a game of players players of
// actions actions each.
func (Driver) Replay(r *recording.Reader, players, actions int) (Replay, error) {
	p, err := rollback.NewPlayback(r, players, actions)
	if err != nil {
		return nil, err // not a nil *Playback in a non-nil Replay
	}
	return p, nil
}
