package framework

import (
	"errors"
	"flag"
	"fmt"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/runtime"
)

// The sync-test hook (--synctest K): the game's ticks run through an
// ecs.SyncTest, which goes back K ticks after each and runs them again,
// stopping the session at the first tick whose hash differs.

// UseSyncTest makes the session run its game in sync-test mode
// ([ecs.SyncTest]) going back depth ticks, 1 to [ecs.MaxSyncTestDepth];
// 0 turns it off. The sync-test starts after the game's Setup, so a state
// type a snapshot cannot copy fails the session there, naming the type
// and field. Call it before the session runs.
func (s *Session) UseSyncTest(depth int) error {
	if err := checkSyncTest(depth); err != nil {
		return err
	}
	s.syncDepth = depth
	return nil
}

// SyncTestStats returns the sync-test's counters, and false when the
// session does not run one. Simulation owner (or after the session).
func (s *Session) SyncTestStats() (ecs.SyncTestStats, bool) {
	if s.syncTest == nil {
		return ecs.SyncTestStats{}, false
	}
	return s.syncTest.Stats(), true
}

// syncTestLine is the line a sync-test that found no difference ends
// with: "synctest: 600 ticks, each run again 2 ticks back: 1196 world
// hashes compared, all equal".
func syncTestLine(st ecs.SyncTestStats, depth int) string {
	return fmt.Sprintf("synctest: %d ticks, each run again %d ticks back: %d world hashes compared, all equal", st.Ticks, depth, st.Checked)
}

func checkSyncTest(depth int) error {
	if depth < 0 || depth > ecs.MaxSyncTestDepth {
		return fmt.Errorf("framework: --synctest %d: want 0 (off) or 1..%d ticks to go back", depth, ecs.MaxSyncTestDepth)
	}
	return nil
}

// startSyncTest builds the sync-test after the game's Setup.
func (s *Session) startSyncTest() error {
	if s.syncDepth == 0 {
		return nil
	}
	st, err := ecs.NewSyncTest(s.App, s.syncDepth)
	if err != nil {
		return fmt.Errorf("framework: --synctest: %w", err)
	}
	s.syncTest = st
	return nil
}

// updateApp runs one tick of the game, through the sync-test when there is
// one.
func (s *Session) updateApp(t *runtime.TickContext) error {
	if s.syncTest != nil {
		return s.syncTest.Update(t)
	}
	return s.App.Update(t)
}

func (f *Flags) registerSyncTest(fs *flag.FlagSet) {
	fs.IntVar(&f.SyncTest, "synctest", 0, fmt.Sprintf("sync-test: after every tick go back `K` ticks (1..%d; %d is usual), run them again and stop at the first whose world hash differs, naming the tick, types and fields (0 = off)", ecs.MaxSyncTestDepth, ecs.DefaultSyncTestDepth))
}

func (f *Flags) validateSyncTest() error {
	if f.SyncTest != 0 && f.Replay != "" {
		return errors.New("framework: --synctest and --replay: a sync-test runs the game, not a replay")
	}
	return checkSyncTest(f.SyncTest)
}
