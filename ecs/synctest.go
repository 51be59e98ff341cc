package ecs

import (
	"fmt"
	"strings"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
)

// DefaultSyncTestDepth is the number of ticks a [SyncTest] goes back when
// none is given: two, as GGRS's sync-test sessions default to.
const DefaultSyncTestDepth = 2

// MaxSyncTestDepth is the deepest a [SyncTest] goes back.
const MaxSyncTestDepth = 64

// SyncTest runs an App in sync-test mode, the check a rollback game needs
// before it goes on a network: after every tick it restores the snapshot
// of Depth ticks back and runs those ticks again with the same input,
// comparing the world hash after each with the one the first run had.
// Anything a tick reads that the snapshot does not restore (a variable
// outside the world, a map's iteration order, the wall clock) makes the
// hashes differ, and the first mismatch stops the game with a
// [SyncTestError] naming the tick, the component types and the fields
// that differ. It needs no network and works for every game, since the
// App owns the state.
//
// Each tick then costs Depth+1 updates and a save and restore, with no
// allocation once warm (see [Snapshot] for structural changes). Frames
// are prepared from the present tick only. Sounds a resimulated tick
// requests are requested again.
//
// The framework runs a game under it with --synctest K. A SyncTest
// belongs to the simulation goroutine, like its App.
type SyncTest struct {
	app   *App
	depth int
	ring  *Snapshots
	ticks []syncTick // by tick index modulo len
	first []Hash     // each tick's hash after its first run, likewise
	hash  Hash       // scratch
	n     uint64     // index of the next tick
	stats SyncTestStats
}

type syncTick struct {
	ctx runtime.TickContext
	in  input.Tick
}

// SyncTestStats counts what a [SyncTest] did.
type SyncTestStats struct {
	// Ticks counts the ticks run for the first time, Resimulated the
	// updates run again, Checked the hashes compared.
	Ticks, Resimulated, Checked uint64
}

// NewSyncTest returns a sync-test of a going back depth ticks, 1 <=
// depth <= [MaxSyncTestDepth]. It enables snapshots on a and fails with
// their refusals ([App.EnableSnapshots]).
func NewSyncTest(a *App, depth int) (*SyncTest, error) {
	if depth < 1 || depth > MaxSyncTestDepth {
		return nil, fmt.Errorf("ecs: sync-test depth %d, allowed 1..%d", depth, MaxSyncTestDepth)
	}
	ring, err := NewSnapshots(a, depth+2)
	if err != nil {
		return nil, err
	}
	return &SyncTest{app: a, depth: depth, ring: ring, ticks: make([]syncTick, depth+1), first: make([]Hash, depth+1)}, nil
}

// Depth returns the number of ticks the sync-test goes back.
func (s *SyncTest) Depth() int { return s.depth }

// Stats returns the counters.
func (s *SyncTest) Stats() SyncTestStats { return s.stats }

// Update runs tick as [App.Update] does, then goes back Depth ticks (once
// that many have run) and runs them again, comparing hashes. It returns
// the tick's own failure, a snapshot's, or a [SyncTestError] at the first
// mismatch.
func (s *SyncTest) Update(tick *runtime.TickContext) error {
	a := s.app
	n := s.n
	if !s.ring.Holds(n) {
		if err := s.ring.Save(n); err != nil {
			return fmt.Errorf("ecs: sync-test: %w", err)
		}
	}
	rec := &s.ticks[n%uint64(len(s.ticks))]
	rec.ctx = *tick
	if tick.Input != nil {
		rec.in.CopyFrom(tick.Input)
		rec.ctx.Input = &rec.in
	}
	if err := a.Update(tick); err != nil {
		return err
	}
	s.n++
	s.stats.Ticks++
	if err := a.HashInto(&s.first[n%uint64(len(s.first))]); err != nil {
		return fmt.Errorf("ecs: sync-test: %w", err)
	}
	if err := s.ring.Save(n + 1); err != nil {
		return fmt.Errorf("ecs: sync-test: %w", err)
	}
	if n+1 < uint64(s.depth) {
		return nil
	}
	from := n + 1 - uint64(s.depth)
	if err := s.ring.Restore(from); err != nil {
		return fmt.Errorf("ecs: sync-test: %w", err)
	}
	for m := from; m <= n; m++ {
		r := &s.ticks[m%uint64(len(s.ticks))]
		if err := a.Update(&r.ctx); err != nil {
			return fmt.Errorf("ecs: sync-test: tick %d run again: %w", r.ctx.Number, err)
		}
		s.stats.Resimulated++
		if err := a.HashInto(&s.hash); err != nil {
			return fmt.Errorf("ecs: sync-test: %w", err)
		}
		s.stats.Checked++
		if want := &s.first[m%uint64(len(s.first))]; s.hash.Total != want.Total {
			return s.mismatch(r.ctx.Number, from, *want, s.ring.Get(m+1))
		}
	}
	return nil
}

// mismatch builds the report of a tick whose hash after running it again
// differs from its first run's, whose state is in first.
func (s *SyncTest) mismatch(tick, from uint64, want Hash, first *Snapshot) error {
	e := &SyncTestError{Depth: s.depth, From: s.ticks[from%uint64(len(s.ticks))].ctx.Number}
	e.Divergence.Tick = tick
	e.Divergence.Want = checkpoint(tick, want)
	e.Divergence.Got = checkpoint(tick, s.hash)
	if first != nil {
		e.Fields = s.app.world.diffFields(&first.world, DiffHashes(want, s.hash))
	}
	return e
}

func checkpoint(tick uint64, h Hash) recording.Checkpoint {
	c := recording.Checkpoint{Tick: tick, Hash: h.Total}
	for _, t := range h.Types {
		c.Types = append(c.Types, recording.TypeHash{Name: t.Name, Hash: t.Hash, Count: t.Count})
	}
	return c
}

// SyncTestError reports the first tick a [SyncTest] found to differ when
// run again: the replay divergence report (tick, the hashes and the
// component types that differ, with their entity counts) and the fields
// of the components that differ.
type SyncTestError struct {
	// Divergence is the report a replay gives: Want is the tick's first
	// run, Got its run again.
	Divergence runtime.DivergenceError
	// Depth is the sync-test's depth and From the tick it went back to.
	Depth int
	From  uint64
	// Fields names, entity by entity, the first field of each component
	// value that differs, in type then entity order.
	Fields []FieldDiff
}

// FieldDiff is one component value that differs between two runs of a
// tick.
type FieldDiff struct {
	Type   string // the component type, as in [TypeHash.Name]
	Entity Entity
	// Field is the path of the first field that differs, such as
	// "main.Ball.Velocity.X", or "(missing)" when the entity or its
	// component is gone in the second run.
	Field string
}

// MaxReportedFields is the most fields a [SyncTestError] names; the rest
// are counted in its message.
const MaxReportedFields = 16

func (e *SyncTestError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ecs: sync-test: tick %d differs when run again from tick %d (depth %d): world hash %016x, first run %016x",
		e.Divergence.Tick, e.From, e.Depth, e.Divergence.Got.Hash, e.Divergence.Want.Hash)
	if d := e.Divergence.DifferingTypes(); len(d) > 0 {
		fmt.Fprintf(&b, "; types that differ: %s", strings.Join(d, ", "))
	}
	if len(e.Fields) > 0 {
		b.WriteString("; fields that differ: ")
		for i, f := range e.Fields {
			if i == MaxReportedFields {
				fmt.Fprintf(&b, " and %d more", len(e.Fields)-i)
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s of %v", f.Field, f.Entity)
		}
	}
	return b.String()
}

// Unwrap returns the divergence report, so that errors.As finds a
// *runtime.DivergenceError.
func (e *SyncTestError) Unwrap() error { return &e.Divergence }

var _ error = (*SyncTestError)(nil)

// FieldDiffs compares a's components of the types named in types (as
// [DiffHashes] names them) with those saved in s, which may be a
// snapshot of another App of the same game (two replays of one match, to
// explain a desync), and names, entity by entity, the first field of each
// value that differs, or "(missing)" for an entity or component s has and
// a lacks. A [SyncTestError] carries the same report. Call it between
// ticks.
func (a *App) FieldDiffs(s *Snapshot, types []string) []FieldDiff {
	if !s.valid {
		return nil
	}
	return a.world.diffFields(&s.world, types)
}

// storeOf returns the world's store of component type t, or nil.
func (w *World) storeOf(t ComponentType) store {
	for _, s := range w.stores {
		if s.typ() == t {
			return s
		}
	}
	return nil
}

// diffFields compares the world's components of the named types with
// those saved in s.
func (w *World) diffFields(s *worldSnapshot, names []string) []FieldDiff {
	var out []FieldDiff
	for _, name := range names {
		for _, c := range s.comps {
			if c.typ().String() != name {
				continue
			}
			c.diff(w, func(e Entity, field string) {
				out = append(out, FieldDiff{Type: name, Entity: e, Field: field})
			})
		}
	}
	return out
}
