package rollback

import (
	"errors"
	"fmt"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// SpectatorOptions configure a [Spectator].
type SpectatorOptions struct {
	// Transport carries the host's feed (the host is peer 0) and the
	// acknowledgements; a [PeerWatcher] reports the host's connection.
	Transport Transport
	// Players, Actions and HashEvery are the match's, as its players'
	// [Options].
	Players, Actions, HashEvery int
	// Step is every tick's simulation delta ([App.SetDelta]).
	Step time.Duration
	// Delay is the host's spectator delay ([MatchOptions].SpectatorDelay):
	// a spectator more than about twice as far behind catches up faster.
	Delay int
	// Ticks, if positive, is where the match ends, as for
	// [PeerOptions].Ticks: the spectator is [Finished] on the last
	// hashed tick below it, the tick the players' outcome names.
	Ticks int64
	// Recorded says the caller records the confirmed timeline after each
	// update: the spectator starts from tick 0, not a snapshot, and runs
	// at most 32 hash intervals an update, so each hash is still held.
	Recorded bool
	// Clock measures the catch-up budget; nil is timing.SystemClock.
	Clock timing.Clock
}

// Spectator watches a match, as GGRS's SpectatorSession: it runs a
// [Follower] on the confirmed inputs the host's [Feed] streams it, from
// tick 0 or, arriving late, from a snapshot of the host's world, catching
// up within half a step of work an update and then following live, the
// host's delay behind. It never predicts, never rolls back and sends
// nothing but its acknowledgements, so the players never wait for it.
// A Spectator belongs to the simulation goroutine.
type Spectator struct {
	f       *follow
	watch   PeerWatcher
	target  int64 // the tick it stops on, -1 for none
	events  []Event
	outcome Outcome
	ended   bool
}

// NewSpectator validates opts and returns a spectator whose world is app.
func NewSpectator(app *App, opts SpectatorOptions) (*Spectator, error) {
	if app == nil || opts.Transport == nil {
		return nil, errors.New("rollback: NewSpectator needs an App and SpectatorOptions.Transport")
	}
	if err := spectatorDelay.check("SpectatorOptions.Delay", opts.Delay); err != nil {
		return nil, err
	}
	if opts.Ticks < 0 {
		return nil, fmt.Errorf("rollback: SpectatorOptions.Ticks %d is out of range; allowed: 0 (no end) or more", opts.Ticks)
	}
	f, err := newFollow(app, opts.Transport, followOptions{players: opts.Players, actions: opts.Actions, hashEvery: opts.HashEvery,
		step: opts.Step, delay: opts.Delay, clock: opts.Clock, recorded: opts.Recorded})
	if err != nil {
		return nil, err
	}
	s := &Spectator{f: f, target: -1}
	s.watch, _ = opts.Transport.(PeerWatcher)
	if opts.Ticks > 0 {
		s.target = opts.Ticks
		if every := int64(opts.HashEvery); every > 0 {
			s.target = (opts.Ticks - 1) / every * every
		}
	}
	return s, nil
}

// Update takes the host's connection events and feed, runs what the feed
// allows and acknowledges it. A host that leaves or goes silent ends the
// match ([HostGone], returned as an *[OutcomeError]) unless the
// spectator reached its end.
func (s *Spectator) Update(t *runtime.TickContext) error {
	s.events = s.events[:0]
	if s.ended {
		return nil
	}
	for s.watch != nil {
		ev, ok := s.watch.Event()
		if !ok {
			break
		}
		if ev.Peer == 0 && (ev.Kind == PeerLeft || ev.Kind == PeerDisconnected) {
			if s.reached() {
				s.finish()
				return nil
			}
			s.ended, s.outcome = true, Outcome{Kind: HostGone}
			return s.outcome.Err()
		}
		s.events = append(s.events, Event{Kind: EventConnection, Conn: ev})
	}
	if err := s.f.update(t, s.target, false, &s.events); err != nil {
		return err
	}
	if s.reached() {
		s.finish()
	}
	return nil
}

func (s *Spectator) reached() bool { return s.target >= 0 && s.f.fol.Tick() >= s.target }

func (s *Spectator) finish() {
	s.ended = true
	s.outcome = Outcome{Kind: Finished}
	s.outcome.Tick, s.outcome.Hash, s.outcome.HasHash = s.f.fol.LastHash()
}

// Events returns what the latest Update saw; the slice is reused.
func (s *Spectator) Events() []Event { return s.events }

// Outcome returns how the match ended, and false while it goes on.
func (s *Spectator) Outcome() (Outcome, bool) { return s.outcome, s.ended }

// Timeline returns the follower's confirmed timeline.
func (s *Spectator) Timeline() Timeline { return s.f.fol }

// LastHash returns the latest tick the spectator hashed and its world
// hash ([Follower.LastHash]).
func (s *Spectator) LastHash() (tick int64, hash uint64, ok bool) { return s.f.fol.LastHash() }

// Tick returns the next tick the spectator simulates.
func (s *Spectator) Tick() int64 { return s.f.fol.Tick() }

// Stats returns the spectator's figures: the ticks it ran, all
// confirmed, and its traffic and round trip to the host.
func (s *Spectator) Stats() PeerStats {
	st := s.f.fol.Stats()
	ps := PeerStats{Seconds: float64(st.Tick) * s.f.opts.step.Seconds()}
	ps.Tick, ps.Confirmed = st.Tick, st.Tick
	ps.Sent, ps.BytesSent, ps.Received, ps.BytesReceived = s.f.sent[0], s.f.sent[1], s.f.received[0], s.f.received[1]
	if s.watch != nil {
		ps.RTT = s.watch.RTT(0)
	}
	return ps
}

// followOptions are a follow's settings.
type followOptions struct {
	players, actions, hashEvery int
	step                        time.Duration
	delay                       int
	clock                       timing.Clock
	recorded                    bool
}

// follow is the I/O shell of a [Follower] on a transport: a spectator's,
// or a player's catching up.
type follow struct {
	opts      followOptions
	app       *App
	fol       *Follower
	tr        Transport
	msg, buf  []byte
	bad       error // the first catch-up message refused
	toldState bool  // the snapshot it started from was reported

	sent, received [2]uint64 // messages, bytes
}

func newFollow(app *App, tr Transport, o followOptions) (*follow, error) {
	if o.step <= 0 {
		return nil, fmt.Errorf("rollback: the step %v is out of range; allowed: more than 0 (the fixed step)", o.step)
	}
	fol, err := NewFollower(app, o.players, o.actions, o.hashEvery, 0, o.clock)
	if err != nil {
		return nil, err
	}
	app.SetDelta(o.step)
	if o.recorded {
		fol.FromStart() // its recording starts at tick 0, as a player's does
	}
	return &follow{opts: o, app: app, fol: fol, tr: tr, msg: make([]byte, 0, MaxMessage), buf: make([]byte, MaxMessage)}, nil
}

// update takes the catch-up messages that arrived, simulates what they
// allow (up to target, -1 for none) and acknowledges. A player catching
// up (catching) takes only catch-up messages: its peers' session
// messages are for its session to be, which asks again.
func (f *follow) update(t *runtime.TickContext, target int64, catching bool, events *[]Event) error {
	for {
		n, from, ok := f.tr.Receive(f.buf)
		if !ok {
			break
		}
		f.received[0]++
		f.received[1] += uint64(n)
		if from != 0 || (catching && !IsCatchUp(f.buf[:n])) {
			continue
		}
		if err := f.fol.Receive(f.buf[:n]); err != nil && f.bad == nil {
			f.bad = err // counted in the follower's stats; the feed sends again
		}
	}
	st := f.fol.Stats()
	if st.StateBytes > 0 && !f.toldState {
		f.toldState = true
		*events = append(*events, Event{Kind: EventSnapshot, Tick: st.StateTick, Bytes: st.StateBytes})
	}
	limit := int(st.Received - st.Tick)
	if target >= 0 {
		limit = min(limit, int(target-st.Tick))
	}
	if limit > 0 {
		// Behind by more than the host's delay (and a little): catching
		// up, as much as half a step allows; else one tick an update.
		budget, most := time.Duration(0), 1
		if limit > 2*f.opts.delay+2 {
			budget, most = f.opts.step/2, limit
			if f.opts.recorded && f.opts.hashEvery > 0 {
				// The App keeps its last 64 hashes: the recording reads
				// them after the update, so an update runs fewer.
				most = min(most, 32*f.opts.hashEvery)
			}
		}
		if _, err := f.app.Follow(f.fol, t, budget, most); err != nil {
			return err
		}
	}
	f.msg = f.fol.AppendAck(f.msg[:0])
	err := f.tr.Send(0, f.msg)
	if errors.Is(err, ErrClosed) {
		return fmt.Errorf("rollback: following the match: %w", err)
	}
	if err == nil {
		f.sent[0]++
		f.sent[1] += uint64(len(f.msg))
	}
	return nil
}
