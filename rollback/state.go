package rollback

import (
	"fmt"
)

// AppendState appends the state the App saved for tick (the moment
// before tick runs) to b in ecs's binary form ([ecs.Snapshot.AppendBinary]:
// versioned, checksummed, the same bytes on every platform) and returns
// the extended slice: for a peer that fell past the cutoff, a player
// rejoining or a spectator arriving late, who load it with [App.LoadState]
// and run on from tick with the confirmed inputs since. It fails when the
// App no longer holds tick (its ring keeps the last Window+2 ticks) and
// as AppendBinary does (an event with a Run function pending). It
// allocates nothing when b has room. Simulation goroutine.
func (a *App) AppendState(b []byte, tick int64) ([]byte, error) {
	if tick < 0 {
		return b, fmt.Errorf("rollback: AppendState of tick %d; allowed: 0 and above", tick)
	}
	s := a.ring.Get(uint64(tick))
	if s == nil {
		return b, fmt.Errorf("rollback: AppendState of tick %d, which the App does not hold (it keeps the last %d saved ticks)", tick, a.ring.Len())
	}
	return s.AppendBinary(b)
}

// LoadState puts the App in the state b holds, as encoded by
// [App.AppendState] on a peer's App of the same game for tick: it decodes
// it into the ring's slot for tick ([ecs.Snapshots.Load]) and restores it,
// so the next tick the App runs is tick, with the world hash the sender
// had. It fails for a snapshot of another game or build, or one cut
// short or corrupt (see [ecs.App.DecodeSnapshot]), leaving the App's
// state as it was, though its ring drops the tick whose slot tick takes,
// as a save does. Call it between updates. Simulation
// goroutine.
func (a *App) LoadState(tick int64, b []byte) error {
	if tick < 0 {
		return fmt.Errorf("rollback: LoadState of tick %d; allowed: 0 and above", tick)
	}
	if err := a.ring.Load(uint64(tick), b); err != nil {
		return err
	}
	if err := a.ring.Restore(uint64(tick)); err != nil {
		return err
	}
	a.saved = tick
	return nil
}
