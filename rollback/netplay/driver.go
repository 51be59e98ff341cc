package netplay

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/internal/srcid"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
)

// Driver plays a program's matches: it meets one by address
// ([Driver.Connect]), names this build's simulation code for the match's
// identity ([Driver.Version]), builds this machine's side of a match
// ([Driver.Play]) and replays a match's recording ([Driver.Replay]). It
// speaks in package rollback's words (rollback.Meeting,
// rollback.Connected, rollback.Play), so a program can call it without
// naming this package.
//
// A [Network] embeds it, as [UDPNetwork]'s and quicnet's do, so that a
// program reaches it only through the networks it lists: package
// framework finds it on the values of Game.Net.Networks by their method
// set, never by name, and a game that lists no network links no socket,
// no cryptography, no rollback session, no match and no log/slog. A
// network of another package embeds it the same way
// (struct{ netplay.Driver; ... }).
type Driver struct{}

// Connect reaches the match m describes by address ([Connect]: a host
// listens on m.Addr, a joiner or spectator reaches the host there with
// m.Token) and seats m.Net.Players players on it. Each step is written
// on out: the host's join command, and that the match started. An error
// names the [net] key it comes from: net.join_timeout when the players
// did not come in time, net.transport when the host's is another. Any
// goroutine.
func (d Driver) Connect(ctx context.Context, m rollback.Meeting, out io.Writer) (rollback.Connected, error) {
	n := m.Net
	o := ConnectOptions{Role: m.Role, Addr: m.Addr, Token: m.Token, Identity: m.Identity, Patience: n.JoinTimeout,
		Options: Options{Players: n.Players, Transport: n.Transport.String(), Timeout: n.Timeout, Start: n.StartWith, ICE: n.ICE}}
	for i, nw := range m.Networks {
		w, ok := nw.(Network)
		if !ok {
			return rollback.Connected{}, fmt.Errorf("netplay: Meeting.Networks[%d] (%T) opens no socket; allowed: a netplay.Network, such as netplay.UDPNetwork()", i, nw)
		}
		o.Options.Networks = append(o.Options.Networks, w)
	}
	players, start := cmp.Or(n.Players, DefaultPlayers), n.StartWith
	o.Notify = func(nt Notice) { io.WriteString(out, nt.Text(players, start)) }
	match, err := Connect(ctx, o)
	var short *ShortError
	switch {
	case err == nil:
		return match.Seated(players), nil
	case errors.As(err, &short) && errors.Is(err, context.DeadlineExceeded):
		return rollback.Connected{}, fmt.Errorf("within %v (net.join_timeout), %w", n.JoinTimeout, err)
	case errors.Is(err, ErrTransport):
		return rollback.Connected{}, fmt.Errorf("net.transport is %q, the host's is another: %w", o.Options.Transport, err)
	}
	return rollback.Connected{}, err
}

// Seated is m as a program seats a match of players players on its
// peers (a lobby's, say): the match is the transport.
func (m *Match) Seated(players int) rollback.Connected {
	return rollback.Connected{Transport: m, Self: m.Self(), Seating: m.Seating(players), Rejoining: m.Rejoining(), JoinedLate: m.Late()}
}

// Version is the identity of this build's simulation code, for
// rollback.Identity.Version (package internal/srcid): the Go version,
// the framework's simulation source, the modules linked on every
// platform and the game's own source, when the game gives it (nil:
// none). Without that source the game's code is known by its build
// stamps only, which two builds of different code can share: warnings
// say so, as they do for a module whose code it cannot vouch for.
func (Driver) Version(source fs.FS) (version string, warnings []string, err error) {
	id, err := srcid.Of(source)
	if err != nil {
		return "", nil, err
	}
	return id.Version(), id.Warnings(), nil
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
		if nt.Role == rollback.Dedicated {
			what = fmt.Sprintf("a %d-player match as a dedicated host (no seat here: every player joins)", players)
		}
		return fmt.Sprintf("hosting %s on %s over %s; join with:\n  --join %s --token %s\n", what, nt.Addr, nt.Transport, nt.JoinAddr, nt.Token)
	case Started:
		if nt.Role == rollback.Spectating {
			return fmt.Sprintf("watching: %d players, this machine is spectator peer %d\n", players, nt.Self)
		}
		return fmt.Sprintf("match started: %d players, this machine is peer %d\n", players, nt.Self)
	}
	return ""
}

// Play builds this machine's side of the match o describes over app,
// once the game's Setup has registered its actions and state types.
func (Driver) Play(app *ecs.App, o rollback.PlayOptions) (rollback.Play, error) {
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

// play is the rollback.Play of a rollback.Side.
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

// Replay replays the match r recorded for a game of players players of
// actions actions each.
func (Driver) Replay(r *recording.Reader, players, actions int) (rollback.Replay, error) {
	p, err := rollback.NewPlayback(r, players, actions)
	if err != nil {
		return nil, err // not a nil *Playback in a non-nil Replay
	}
	return p, nil
}
