package rollback

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
)

// Players is the world resource through which an [App]'s systems read
// every player's input for the tick being simulated. It is valid during
// a tick only and is not game state (nothing in it is hashed or saved).
//
// A game whose players all sit at one machine needs no session: its
// runtime fills the resource with [Players.SetLocal] before each tick, so
// that systems read every player's input the same way in every mode.
//
// A framework game takes the resource in its Setup, where the framework
// has added it (local seats, a match, a sync-test and a replay all fill
// that one):
//
//	players := ecs.GetResource[rollback.Players](s.App.World())
type Players struct {
	in    *Inputs
	local [][]input.Stats
}

// Len returns the number of players, 0 outside a tick.
func (p *Players) Len() int {
	if p.in == nil {
		return len(p.local)
	}
	return p.in.Players()
}

// Input returns player n's action states for the tick, indexed as the
// session's actions (a framework game: the n-th seat's actions in order).
func (p *Players) Input(n int) []input.Stats {
	if p.in == nil {
		return p.local[n]
	}
	return p.in.Player(n)
}

// Predicted reports whether player n's input for the tick is predicted;
// never for a local tick.
func (p *Players) Predicted(n int) bool { return p.in != nil && p.in.Predicted(n) }

// SetLocal makes in the input of a tick run without a session: in[n] is
// player n's action states, all of them confirmed. The resource keeps in
// until the next SetLocal; SetLocal(nil) ends the tick. It must not be
// called on the resource of an [App], whose session sets it.
func (p *Players) SetLocal(in [][]input.Stats) { p.local = in }

// App drives an ecs.App as a [Simulation]: the App owns the whole state,
// so a game writes no save or load code. Snapshots are kept in an
// ecs.Snapshots ring of Window+2; every tick the session runs, the
// present one and those run again after a rollback, is one App.Update
// with the present update's context, numbered with the session's tick and
// without device input (systems read [Players]). Frames are prepared by
// the runtime after the update, from the present tick only. The sound
// requests of ticks run again are matched to the voices already playing
// ([ecs.Audio.BeginRollback]).
//
// An App belongs to the simulation goroutine.
type App struct {
	app     *ecs.App
	ring    *ecs.Snapshots
	players *Players
	present *runtime.TickContext
	tick    runtime.TickContext
	hash    ecs.Hash
	err     error
	rolling bool
	// saved is the tick whose state the App holds (set by Save, Restore,
	// LoadState and each Step: a follower steps without saving). hashes
	// holds the hash of each tick the session hashed (every HashEvery),
	// by the tick's slot: the latest hash of a tick is that of its
	// confirmed timeline once its inputs are confirmed, since a rollback
	// before it saves and hashes it again.
	saved  int64
	hashes [hashRing]tickHash
	// delta, when set, is every tick's simulation delta (SetDelta).
	delta time.Duration
}

// hashRing is how many of the session's hashes an App keeps for
// [App.ConfirmedHash]: a minute at 60 Hz and the default interval.
const hashRing = 64

type tickHash struct {
	tick  int64
	hash  uint64
	ok    bool
	types []ecs.TypeHash // the hash's breakdown, reused (HashTypesAt)
}

// NewApp prepares app for a session with the given prediction window:
// it enables snapshots (failing with their refusals, see
// ecs.App.EnableSnapshots) and fills the world's [Players] resource,
// adding one when the world holds none, so that a game that took the
// resource before (a framework game's Setup) reads the session's inputs.
func NewApp(app *ecs.App, window int) (*App, error) {
	if err := windowRange.check("NewApp window", window); err != nil {
		return nil, err
	}
	ring, err := ecs.NewSnapshots(app, window+2)
	if err != nil {
		return nil, err
	}
	a := &App{app: app, ring: ring, players: ecs.GetResource[Players](app.World())}
	if a.players == nil {
		a.players = &Players{}
		ecs.AddResource(app.World(), a.players)
	}
	a.players.local = nil
	return a, nil
}

// SetDelta makes every tick the session runs, first run or run again,
// advance game time by d, whatever the update it runs in. Without it a
// tick takes the delta of the present update, which under an exact rate
// (timing.Hz(60): 16,666,666 ns and 16,666,667 ns in turn) differs
// between a tick's first run and its run again after a rollback, and
// between peers, so that their game time and the world hash drift apart.
// A framework match sets the configured step. d must be positive; call it
// before the session's first tick.
func (a *App) SetDelta(d time.Duration) {
	if d <= 0 {
		panic(fmt.Sprintf("rollback: App.SetDelta(%v): want a positive step", d))
	}
	a.delta = d
}

// Update runs one update of s, whose Simulation must be a, with the
// runtime's tick ctx: the resimulation a late input calls for, then the
// present tick (unless s holds it at the window).
func (a *App) Update(s *Session, ctx *runtime.TickContext) (Step, error) {
	a.present = ctx
	st, err := s.Advance()
	if a.rolling {
		a.rolling = false
		if au := ecs.GetResource[ecs.Audio](a.app.World()); au != nil {
			au.EndRollback(audio.InUpdate(ctx.Update), 0)
		}
	}
	if err == nil {
		err, a.err = a.err, nil
	}
	return st, err
}

// Follow runs what f may simulate this update ([Follower.Advance] with
// budget and limit) with the runtime's tick ctx, as [App.Update] runs a
// session's: every tick in the present update's timing, with the App's
// delta ([App.SetDelta]) and the players' inputs from f's confirmed
// stream. A spectator, or a player catching up before it plays on
// ([NewSessionAfter]), drives its world through it; a's Simulation is f's.
func (a *App) Follow(f *Follower, ctx *runtime.TickContext, budget time.Duration, limit int) (int, error) {
	a.present = ctx
	n, err := f.Advance(budget, limit)
	if err == nil {
		err, a.err = a.err, nil
	}
	return n, err
}

// Save implements [Simulation].
func (a *App) Save(tick int64) error {
	a.saved = tick
	return a.ring.Save(uint64(tick))
}

// Restore implements [Simulation].
func (a *App) Restore(tick int64) error {
	a.saved = tick
	return a.ring.Restore(uint64(tick))
}

// Step implements [Simulation].
func (a *App) Step(in *Inputs, resim bool) error {
	if resim && !a.rolling {
		a.rolling = true
		if au := ecs.GetResource[ecs.Audio](a.app.World()); au != nil {
			au.BeginRollback(uint64(in.Tick()))
		}
	}
	if a.present != nil {
		a.tick = *a.present
	}
	a.tick.Number = uint64(in.Tick())
	if a.delta > 0 {
		a.tick.Delta = a.delta
	}
	a.tick.Input = nil
	a.players.in = in
	err := a.app.Update(&a.tick)
	a.players.in = nil
	a.saved = in.Tick() + 1 // the state before the next tick
	return err
}

// Hash implements [Simulation]: the App's world hash.
func (a *App) Hash() uint64 {
	if err := a.app.HashInto(&a.hash); err != nil && a.err == nil {
		a.err = err
	}
	h := &a.hashes[a.slot(a.saved)]
	h.tick, h.hash, h.ok = a.saved, a.hash.Total, true
	h.types = append(h.types[:0], a.hash.Types...)
	return a.hash.Total
}

func (a *App) slot(tick int64) int { return int(uint64(tick) % hashRing) }

// ConfirmedHash returns the latest tick s has hashed whose inputs are all
// confirmed, with its world hash: the same on every peer of a match that
// has not desynced, so two processes can be compared by their last line.
// It takes the hashes the session asked for (every [Options.HashEvery]
// ticks; none when that is 0) and looks back over the last 64 of them; ok
// is false when none is confirmed yet. Simulation goroutine.
func (a *App) ConfirmedHash(s *Session) (tick int64, hash uint64, ok bool) {
	conf := s.Stats().Confirmed
	for _, h := range a.hashes {
		if h.ok && h.tick <= conf && (!ok || h.tick > tick) {
			tick, hash, ok = h.tick, h.hash, true
		}
	}
	return tick, hash, ok
}

// HashAt returns the world hash of the confirmed timeline s at tick (a
// session's or a follower's), if s hashed that tick
// ([Options.HashEvery]), it is settled and the App still holds it: for
// comparing peers at one tick.
func (a *App) HashAt(s Timeline, tick int64) (uint64, bool) {
	h := a.hashes[a.slot(tick)]
	if !h.ok || h.tick != tick || tick > s.Settled() {
		return 0, false
	}
	return h.hash, true
}
