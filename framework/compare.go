package framework

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
)

// The desync bisection (--replay A --compare B): two peers of a match
// each keep the recording of their session; after a desync, comparing
// the two finds where they part: first without running either (Compare),
// then by replaying both from the last checkpoint they agree on, tick by
// tick (Bisect).

// CompareResult says where two recordings of one match part.
type CompareResult struct {
	// Ticks and Checkpoints count the ticks and world hashes both
	// recordings hold and that were compared.
	Ticks, Checkpoints uint64
	// InputDiffers reports that the recorded input of some tick differs
	// (a peer simulated with other confirmed input), InputTick the first
	// such tick's Update.Number.
	InputDiffers bool
	InputTick    uint64
	// HashDiffers reports that a world hash differs: HashTick is the
	// first checkpoint's tick that differs and LastSame the tick of the
	// last checkpoint before it that matched (the state parted in
	// between: record with a hash every tick to bisect to the tick).
	// Types lists the component types whose hash or count differ there.
	HashDiffers    bool
	HashTick       uint64
	LastSame       uint64
	HasLastSame    bool
	Types          []TypeDifference
	LengthsDiffer  bool // one recording holds ticks the other does not
	TicksA, TicksB uint64

	// Replayed reports that [Bisect] replayed both recordings up to
	// HashTick. Tick, when HasTick, is then the first update after which
	// the replayed states differ, and Fields names the fields that differ
	// after it, entity by entity (A's values against B's). Replayed
	// without HasTick: the replays agree, so the recordings' difference
	// does not come from what they recorded (the input) but from the
	// machines that ran them.
	Replayed bool
	Tick     uint64
	HasTick  bool
	Fields   []ecs.FieldDiff

	// System, when HasSystem, names the first system of tick Tick whose
	// output differs: both sides ran that tick again system by system,
	// hashing the state after each (see [ecs.App.ObserveSystems]). Stage
	// is its stage and SystemFields the fields that differ right after
	// it, the ones it wrote differently (A's values against B's).
	System       string
	Stage        ecs.Stage
	HasSystem    bool
	SystemFields []ecs.FieldDiff
}

// TypeDifference is one component type that differs at a checkpoint:
// its hash and entity count in each recording (a count of -1: the type
// is missing from that side).
type TypeDifference struct {
	Name           string
	HashA, HashB   uint64
	CountA, CountB int
}

// Same reports whether the recordings agree on everything both hold.
func (r CompareResult) Same() bool { return !r.InputDiffers && !r.HashDiffers }

// String is the result in a few lines: where the input and the state part,
// and which component types differ.
func (r CompareResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "compared %d ticks and %d checkpoints", r.Ticks, r.Checkpoints)
	if r.Same() {
		b.WriteString(": no difference")
	}
	if r.LengthsDiffer {
		fmt.Fprintf(&b, " (the recordings hold %d and %d ticks)", r.TicksA, r.TicksB)
	}
	if r.InputDiffers {
		fmt.Fprintf(&b, "\ninput differs first at tick %d", r.InputTick)
	}
	if r.HashDiffers {
		fmt.Fprintf(&b, "\nworld hash differs first at tick %d", r.HashTick)
		if r.HasLastSame {
			fmt.Fprintf(&b, " (same at tick %d)", r.LastSame)
		}
		for _, t := range r.Types {
			fmt.Fprintf(&b, "\n  %s: hash %#016x vs %#016x, %d vs %d entities", t.Name, t.HashA, t.HashB, t.CountA, t.CountB)
		}
	}
	switch {
	case r.HasTick:
		fmt.Fprintf(&b, "\nreplayed: the state differs first after tick %d", r.Tick)
		for i, f := range r.Fields {
			if i == ecs.MaxReportedFields {
				fmt.Fprintf(&b, "\n  and %d more", len(r.Fields)-i)
				break
			}
			fmt.Fprintf(&b, "\n  %s of %v", f.Field, f.Entity)
		}
		if r.HasSystem {
			fmt.Fprintf(&b, "\nsystem %q (%v) is the first whose output differs on tick %d", r.System, r.Stage, r.Tick)
			for i, f := range r.SystemFields {
				if i == ecs.MaxReportedFields {
					fmt.Fprintf(&b, "\n  and %d more", len(r.SystemFields)-i)
					break
				}
				fmt.Fprintf(&b, "\n  it wrote %s of %v differently", f.Field, f.Entity)
			}
		}
	case r.Replayed:
		fmt.Fprintf(&b, "\nreplayed: both recordings replay to the same state up to tick %d; the recorded hashes differ because the machines ran the same input differently", r.HashTick)
	}
	return b.String()
}

// Compare reads the recordings at a and b side by side: the ticks (their
// updates and input) and the world-hash checkpoints, and returns where
// they first differ. It refuses recordings of different games or seeds,
// naming both. It runs no game: it is the first step after a desync (see
// rollback's doc); [Bisect] replays both recordings to find the tick and
// the fields.
func Compare(a, b string) (CompareResult, error) {
	ra, err := recording.Open(a)
	if err != nil {
		return CompareResult{}, fmt.Errorf("framework: --compare: %w", err)
	}
	defer ra.Close()
	rb, err := recording.Open(b)
	if err != nil {
		return CompareResult{}, fmt.Errorf("framework: --compare: %w", err)
	}
	defer rb.Close()
	ha, hb := ra.Header(), rb.Header()
	if ha.Game != hb.Game || ha.Seed != hb.Seed {
		return CompareResult{}, fmt.Errorf("framework: --compare: %s is of %s with seed %d, %s of %s with seed %d: not two sides of one session", a, ha.Game, ha.Seed, b, hb.Game, hb.Seed)
	}
	var res CompareResult
	var sa, sb side
	for {
		errA := sa.next(ra)
		errB := sb.next(rb)
		if errA != nil || errB != nil {
			if err := errors.Join(endErr(a, errA), endErr(b, errB)); err != nil {
				return res, err
			}
			if (errA == nil) != (errB == nil) {
				res.LengthsDiffer = true
				res.TicksA, res.TicksB = sa.ticks, sb.ticks
				for errA == nil {
					errA = sa.next(ra)
				}
				for errB == nil {
					errB = sb.next(rb)
				}
				res.TicksA, res.TicksB = sa.ticks, sb.ticks
			}
			return res, nil
		}
		res.Ticks++
		if !res.InputDiffers && !sameTick(&sa.tick, &sb.tick) {
			res.InputDiffers, res.InputTick = true, sa.tick.Update.Number
		}
		if sa.hasCheck && sb.hasCheck && sa.check.Tick == sb.check.Tick {
			res.Checkpoints++
			if !res.HashDiffers {
				if sa.check.Hash == sb.check.Hash {
					res.LastSame, res.HasLastSame = sa.check.Tick, true
				} else {
					res.HashDiffers, res.HashTick = true, sa.check.Tick
					res.Types = typeDifferences(sa.check.Types, sb.check.Types)
				}
			}
		}
		if res.HashDiffers && res.InputDiffers {
			return res, nil
		}
	}
}

// side is one recording's position: its latest tick, and the checkpoint
// that followed it, if any.
type side struct {
	tick     recording.Tick
	check    recording.Checkpoint
	hasCheck bool
	ticks    uint64
	pending  recording.Item
}

// next moves to the next tick and the checkpoint after it; io.EOF at the
// end marker.
func (s *side) next(r *recording.Reader) error {
	s.hasCheck = false
	got := false
	for {
		it := s.pending
		s.pending = nil
		if it == nil {
			var err error
			if it, err = r.Next(); err != nil {
				if err == io.EOF && got {
					return nil
				}
				return err
			}
		}
		switch v := it.(type) {
		case *recording.Tick:
			if got {
				s.pending = it // kept for the next call
				s.keep()
				return nil
			}
			s.tick = *v
			s.tick.Records = slices.Clone(v.Records)
			s.tick.Players = slices.Clone(v.Players)
			s.ticks++
			got = true
		case *recording.Checkpoint:
			if got {
				s.check = *v
				s.check.Types = slices.Clone(v.Types)
				s.hasCheck = true
			}
		case *recording.End:
			if got {
				return nil
			}
			return io.EOF
		}
	}
}

// keep copies the pending tick out of the reader's reused storage.
func (s *side) keep() {
	if t, ok := s.pending.(*recording.Tick); ok {
		c := *t
		c.Records = slices.Clone(t.Records)
		c.Shutdown = slices.Clone(t.Shutdown)
		c.Players = slices.Clone(t.Players)
		s.pending = &c
	}
}

func endErr(path string, err error) error {
	if err == nil || err == io.EOF {
		return nil
	}
	return fmt.Errorf("framework: --compare %s: %w", path, err)
}

// sameTick compares what the simulation consumed: the update's number and
// delta, the input records and, for a networked match, every player's
// confirmed input.
func sameTick(a, b *recording.Tick) bool {
	return a.Update.Number == b.Update.Number && a.Update.Delta == b.Update.Delta && a.Update.Kind == b.Update.Kind &&
		slices.Equal(a.Records, b.Records) && slices.Equal(a.Players, b.Players)
}

func typeDifferences(a, b []recording.TypeHash) []TypeDifference {
	var out []TypeDifference
	find := func(ts []recording.TypeHash, name string) (recording.TypeHash, bool) {
		for _, t := range ts {
			if t.Name == name {
				return t, true
			}
		}
		return recording.TypeHash{}, false
	}
	for _, ta := range a {
		tb, ok := find(b, ta.Name)
		switch {
		case !ok:
			out = append(out, TypeDifference{Name: ta.Name, HashA: ta.Hash, CountA: ta.Count, CountB: -1})
		case ta.Hash != tb.Hash || ta.Count != tb.Count:
			out = append(out, TypeDifference{Name: ta.Name, HashA: ta.Hash, HashB: tb.Hash, CountA: ta.Count, CountB: tb.Count})
		}
	}
	for _, tb := range b {
		if _, ok := find(a, tb.Name); !ok {
			out = append(out, TypeDifference{Name: tb.Name, HashB: tb.Hash, CountA: -1, CountB: tb.Count})
		}
	}
	return out
}

// Bisect is [Compare], followed, when a world hash differs, by replays of
// both recordings with g (headless, as [Replay] runs them) up to that
// checkpoint, hashing the world after every tick from the last checkpoint
// they agree on: it finds the first tick after which the states differ
// and the fields that differ there (see [CompareResult.Replayed]). A
// recording that does not replay to its own hashes is an error naming
// it. On the tick found, both sides run again system by system to name
// the first system whose output differs ([CompareResult.System]).
// --replay A --compare B runs it.
func Bisect(g Game, a, b string) (CompareResult, error) { return BisectBuilds(g, g, a, b) }

// BisectBuilds is [Bisect] with each recording replayed by its own build
// of the game: ga replays a and gb replays b, as the two peers ran them
// (a build with a debugging tag, or a copy of the game with one system
// changed, to see where it makes the runs part).
func BisectBuilds(ga, gb Game, a, b string) (CompareResult, error) {
	res, err := Compare(a, b)
	if err != nil || !res.HashDiffers {
		return res, err
	}
	from, to := uint64(0), res.HashTick
	if res.HasLastSame {
		from = res.LastSame + 1
	}
	hashes := make([]uint64, to-from+1)
	var h ecs.Hash
	err = replayTicks(gb, b, to, func(s *Session, t *runtime.TickContext) error {
		if t.Number < from || t.Number > to {
			return nil
		}
		if err := s.App.HashInto(&h); err != nil {
			return err
		}
		hashes[t.Number-from] = h.Total
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("framework: --compare: replaying %s: %w", b, err)
	}
	var first ecs.Snapshot
	var hashA ecs.Hash
	err = replayTicks(ga, a, to, func(s *Session, t *runtime.TickContext) error {
		if t.Number < from || t.Number > to || res.HasTick {
			return nil
		}
		if err := s.App.HashInto(&hashA); err != nil {
			return err
		}
		if hashA.Total == hashes[t.Number-from] {
			return nil
		}
		res.Tick, res.HasTick = t.Number, true
		if err := s.App.Save(&first); err != nil {
			return err
		}
		return t.RequestStop()
	})
	if err != nil {
		return res, fmt.Errorf("framework: --compare: replaying %s: %w", a, err)
	}
	res.Replayed = true
	if !res.HasTick {
		return res, nil
	}
	err = replayTicks(gb, b, res.Tick, func(s *Session, t *runtime.TickContext) error {
		if t.Number != res.Tick {
			return nil
		}
		if err := s.App.HashInto(&h); err != nil {
			return err
		}
		res.Fields = s.App.FieldDiffs(&first, ecs.DiffHashes(hashA, h))
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("framework: --compare: replaying %s: %w", b, err)
	}
	return res, systemsApart(ga, gb, a, b, &res)
}

// systemsApart runs tick res.Tick of both recordings system by system
// and names the first system after which the states differ.
func systemsApart(ga, gb Game, a, b string, res *CompareResult) error {
	type step struct {
		stage ecs.Stage
		name  string
		hash  ecs.Hash
		snap  *ecs.Snapshot
	}
	var steps []step
	var failed error
	observe := func(s *Session) error {
		s.App.ObserveSystems(func(st *ecs.SystemStep) {
			if st.Tick != res.Tick || failed != nil {
				return
			}
			var h ecs.Hash
			snap := new(ecs.Snapshot)
			if failed = st.HashInto(&h); failed == nil {
				failed = st.Save(snap)
			}
			steps = append(steps, step{st.Stage, st.Name, h, snap})
		})
		return nil
	}
	if err := ReplayVisit(ga, a, res.Tick, observe, nil); err != nil || failed != nil {
		return fmt.Errorf("framework: --compare: replaying %s system by system: %w", a, errors.Join(err, failed))
	}
	found := false
	err := ReplayVisit(gb, b, res.Tick, func(s *Session) error {
		s.App.ObserveSystems(func(st *ecs.SystemStep) {
			if st.Tick != res.Tick || found || failed != nil {
				return
			}
			var h ecs.Hash
			if failed = st.HashInto(&h); failed != nil {
				return
			}
			i := st.Index
			if i < len(steps) && steps[i].name == st.Name && steps[i].hash.Total == h.Total {
				return
			}
			found = true
			res.System, res.Stage, res.HasSystem = st.Name, st.Stage, true
			if i < len(steps) {
				res.SystemFields = s.App.FieldDiffs(steps[i].snap, ecs.DiffHashes(steps[i].hash, h))
			}
		})
		return nil
	}, nil)
	if err != nil || failed != nil {
		return fmt.Errorf("framework: --compare: replaying %s system by system: %w", b, errors.Join(err, failed))
	}
	return nil
}

// replayTicks replays the recording at path with g, headless, up to and
// including update number last, checking its checkpoints, and calls after
// with the session after every update.
func replayTicks(g Game, path string, last uint64, after func(*Session, *runtime.TickContext) error) error {
	return ReplayVisit(g, path, last, nil, after)
}

// ReplayVisit replays the recording at path with g, headless and as fast
// as the CPU allows (as [Replay] does without a window), up to and
// including update number last, checking its checkpoints: a debugger's
// way into a replay. start, if set, runs once the Startup systems have
// run, before the first update (to observe the systems: see
// [ecs.App.ObserveSystems]); after, if set, runs after every update. Both
// run on the simulation goroutine, and an error from either ends the
// replay with it. A recording shorter than last ends the replay cleanly
// at its end.
func ReplayVisit(g Game, path string, last uint64, start func(*Session) error, after func(*Session, *runtime.TickContext) error) error {
	sess, rtOpts, r, err := newReplaySession(g, path, ReplayOptions{})
	if err != nil {
		return err
	}
	defer r.Close()
	sess.stopAfter = last + 1
	ctx := sess.headless(&rtOpts)
	if rtOpts.Actions == nil {
		rtOpts.Actions = input.NewActions()
	}
	rt, err := runtime.New(&tickHook{Session: sess, start: start, after: after}, ctx, rtOpts)
	if err != nil {
		return errors.Join(err, ctx.Close())
	}
	sess.Bind(rt)
	return rt.Run()
}

// tickHook is a session that calls start before the first update,
// before ahead of each update and after once each update is done.
type tickHook struct {
	*Session
	start  func(*Session) error
	before func() error
	after  func(*Session, *runtime.TickContext) error
}

func (h *tickHook) InitSimulation(sim *runtime.Simulation) error {
	if err := h.Session.InitSimulation(sim); err != nil {
		return err
	}
	if h.start == nil {
		return nil
	}
	return h.start(h.Session)
}

func (h *tickHook) Update(t *runtime.TickContext) error {
	if h.before != nil {
		if err := h.before(); err != nil {
			return err
		}
	}
	if err := h.Session.Update(t); err != nil || h.after == nil {
		return err
	}
	return h.after(h.Session, t)
}

func (f *Flags) registerCompare(fs *flag.FlagSet) {
	fs.StringVar(&f.Compare, "compare", "", "with --replay A: compare recording A with the recording in this `file` (the other peer's, after a desync), print the first tick whose input or world hash differs, with the component types that differ, then replay both to name the first tick and the fields whose state differs, and the first system whose output differs on that tick")
}
