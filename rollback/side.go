package rollback

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Side is this machine's side of a match, whichever part it takes: a
// player's [Peer], with the seats whose actions make its local players'
// input, or a [Spectator]. It is the one thing a game loop drives: one
// [Side.Update] per tick reads the seats from the tick's input, runs the
// match and stops the loop when the match finished; the caller reads
// [Side.Events], [Side.Stats] and [Side.Outcome] and only says them.
//
//	side, err := rollback.NewPlayerSide(app, opts, seats)
//	// every tick:
//	err = side.Update(ctx)
//	for _, ev := range side.Events() { log(ev) }
//
// A Side belongs to the simulation goroutine.
type Side struct {
	app   *App
	peer  *Peer      // a player's side, or nil
	spec  *Spectator // a spectator's side, or nil
	seats [][]input.Action
	pace  *Pacing // a player's, or nil
	rec   recordedMatch
	// clock and start time the match in real time from its first update
	// ([Side.Real]).
	clock timing.Clock
	start timing.Instant
}

// NewPlayerSide returns a player's side of a match: [NewPeer] with app
// and opts, whose k-th local player (in seat order) reads the actions of
// seats[k] from each tick's input, unless a bot plays it
// ([PeerOptions].Bot). seats needs one entry per local player, each with
// opts.Actions actions.
func NewPlayerSide(app *App, opts PeerOptions, seats [][]input.Action) (*Side, error) {
	p, err := NewPeer(app, opts)
	if err != nil {
		return nil, err
	}
	if len(seats) < p.Locals() {
		return nil, fmt.Errorf("rollback: NewPlayerSide has %d seats for the %d players at peer %d: want one per local player", len(seats), p.Locals(), opts.Self)
	}
	var errs []error
	for k, s := range seats[:p.Locals()] {
		if len(s) != opts.Actions {
			errs = append(errs, fmt.Errorf("rollback: NewPlayerSide seat %d has %d actions; allowed: the match's %d (Options.Actions)", k, len(s), opts.Actions))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &Side{app: app, peer: p, seats: seats[:p.Locals()], pace: NewPacing(opts.Clock, opts.Step, opts.Ticks),
		rec:   recordedMatch{players: len(opts.Players), actions: opts.Actions, peer: opts.Self, every: opts.HashEvery, step: opts.Step, ticks: opts.Ticks},
		clock: clockOr(opts.Clock)}, nil
}

// NewSpectatorSide returns a spectator's side of a match: [NewSpectator]
// with app and opts.
func NewSpectatorSide(app *App, opts SpectatorOptions) (*Side, error) {
	s, err := NewSpectator(app, opts)
	if err != nil {
		return nil, err
	}
	return &Side{app: app, spec: s,
		rec:   recordedMatch{players: opts.Players, actions: opts.Actions, peer: -1, every: opts.HashEvery, step: opts.Step, ticks: opts.Ticks},
		clock: clockOr(opts.Clock)}, nil
}

// Update runs one update of the match with the runtime's tick t: a
// player's local seats take their actions' states from t.Input (neutral
// without one), then [Peer.Update] or [Spectator.Update] runs. The update
// of a player that plays (not catching up) goes into its [Side.Pacing].
// The update on which the match finishes requests the loop's stop
// (t.RequestStop); one that ends it otherwise returns the outcome as an
// *[OutcomeError]. It allocates nothing.
func (s *Side) Update(t *runtime.TickContext) error {
	if s.start == 0 {
		s.start = s.clock.Now()
	}
	var err error
	if s.spec != nil {
		err = s.spec.Update(t)
	} else {
		for k, seat := range s.seats {
			dst := s.peer.Input(k)
			for i, a := range seat {
				if t.Input != nil {
					dst[i] = t.Input.Action(a)
				} else {
					dst[i] = input.Stats{}
				}
			}
		}
		err = s.peer.Update(t)
		if err == nil && !s.peer.CatchingUp() {
			s.pace.Record(t, s.peer.advantage)
		}
	}
	if err != nil {
		return err
	}
	if o, ok := s.Outcome(); ok && o.Kind == Finished && !t.StopRequested() {
		return t.RequestStop()
	}
	return nil
}

// clockOr is c, or the system clock when c is nil.
func clockOr(c timing.Clock) timing.Clock {
	if c == nil {
		return timing.SystemClock{}
	}
	return c
}

// Real returns the real time since the side's first update, for the
// match's figures per real second ([PeerStats.NetLine]); 0 before it.
func (s *Side) Real() time.Duration {
	if s.start == 0 {
		return 0
	}
	return time.Duration(s.clock.Now() - s.start)
}

// Ready waits until every peer is ready to start, up to the patience
// ([Peer.Ready]); a spectator does not wait. Before the first Update.
func (s *Side) Ready(ctx context.Context) error {
	if s.peer == nil {
		return nil
	}
	return s.peer.Ready(ctx)
}

// Pacing returns what a player's updates did to its pacing so far; nil
// for a spectator, which paces nothing.
func (s *Side) Pacing() *Pacing { return s.pace }

// Spectating reports whether this side watches the match.
func (s *Side) Spectating() bool { return s.spec != nil }

// Playing reports whether this side runs its own session now: a player
// that is not catching up on the host's inputs. Only then do its updates
// have the pacing and advantage a player's report follows.
func (s *Side) Playing() bool { return s.peer != nil && !s.peer.CatchingUp() }

// Events returns what the latest Update (or the constructor, before the
// first) did or saw, for the caller to show; the slice is reused.
func (s *Side) Events() []Event {
	if s.spec != nil {
		return s.spec.Events()
	}
	return s.peer.Events()
}

// Outcome returns how the match ended, and false while it goes on.
func (s *Side) Outcome() (Outcome, bool) {
	if s.spec != nil {
		return s.spec.Outcome()
	}
	return s.peer.Outcome()
}

// Stats returns the match's figures ([Peer.Stats], [Spectator.Stats]).
func (s *Side) Stats() PeerStats {
	if s.spec != nil {
		return s.spec.Stats()
	}
	return s.peer.Stats()
}

// Timeline returns the confirmed timeline this side plays or follows,
// from which a recording reads the settled ticks.
func (s *Side) Timeline() Timeline {
	if s.spec != nil {
		return s.spec.Timeline()
	}
	return s.peer.Timeline()
}

// Tick returns the next tick this side simulates.
func (s *Side) Tick() int64 {
	if s.spec != nil {
		return s.spec.Tick()
	}
	return s.peer.Tick()
}

// ConfirmedHash returns the latest confirmed tick this side hashed, with
// its world hash: the same on every peer of a match in sync.
func (s *Side) ConfirmedHash() (tick int64, hash uint64, ok bool) {
	if s.spec != nil {
		return s.spec.LastHash()
	}
	return s.peer.ConfirmedHash()
}

// HashAt returns the world hash of the confirmed timeline at tick, if
// this side hashed it, it is settled and still held ([App.HashAt]).
func (s *Side) HashAt(tick int64) (uint64, bool) { return s.app.HashAt(s.Timeline(), tick) }
