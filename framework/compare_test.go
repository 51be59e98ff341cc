package framework_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/timing"
)

// writeSide writes a recording of 10 ticks with a checkpoint after each;
// from tick part on, the paddle's hash differs, and tick input (a press
// record) differs at tick inputAt when inputAt >= 0.
func writeSide(t *testing.T, path string, part uint64, salt uint64, inputAt int) {
	t.Helper()
	w, err := recording.Create(path, recording.Header{Framework: "(devel)", Game: "example.com/pong", Seed: 9, Mode: "sequential", CheckpointEvery: 1, Config: []byte("")})
	if err != nil {
		t.Fatal(err)
	}
	step := 16 * time.Millisecond
	for n := range uint64(10) {
		start := timing.Instant(time.Duration(n) * step)
		tk := recording.Tick{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: step, Number: n, Start: start, End: start + timing.Instant(step), Final: true},
			InputStart: start, InputEnd: start + timing.Instant(step)}
		if int(n) == inputAt {
			tk.Records = append(tk.Records, recordingPress(start))
		}
		if err := w.Append(&tk); err != nil {
			t.Fatal(err)
		}
		paddle := n
		if n >= part {
			paddle += salt
		}
		c := recording.Checkpoint{Tick: n, Hash: 1000 + paddle, Types: []recording.TypeHash{{Name: "ball", Hash: n, Count: 1}, {Name: "paddle", Hash: paddle, Count: 2}}}
		if err := w.Checkpoint(&c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
}

func TestCompareFindsTheFirstDifferingTickAndType(t *testing.T) {
	dir := t.TempDir()
	a, b, same := filepath.Join(dir, "a.rec"), filepath.Join(dir, "b.rec"), filepath.Join(dir, "same.rec")
	writeSide(t, a, 100, 0, -1)
	writeSide(t, same, 100, 0, -1)
	writeSide(t, b, 6, 7, 5)

	res, err := framework.Compare(a, same)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Same() || res.Ticks != 10 || res.Checkpoints != 10 {
		t.Errorf("identical recordings: %v", res)
	}
	res, err = framework.Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if !res.InputDiffers || res.InputTick != 5 || !res.HashDiffers || res.HashTick != 6 || res.LastSame != 5 {
		t.Fatalf("got %v; want input differing at tick 5, hash at tick 6 (same at 5)", res)
	}
	if len(res.Types) != 1 || res.Types[0].Name != "paddle" || res.Types[0].HashA != 6 || res.Types[0].HashB != 13 {
		t.Errorf("types %+v, want paddle alone (6 vs 13)", res.Types)
	}

	var out, errOut bytes.Buffer
	if got := framework.MainStatus(framework.Game{}, []string{"--replay", a, "--compare", b}, &out, &errOut); got != 1 {
		t.Errorf("exit status %d, want 1 for differing recordings (stderr %q)", got, errOut.String())
	}
	if s := out.String(); !strings.Contains(s, "world hash differs first at tick 6") || !strings.Contains(s, "paddle") {
		t.Errorf("output %q does not name tick 6 and paddle", s)
	}
	if got := framework.MainStatus(framework.Game{}, []string{"--compare", b}, &out, &errOut); got != 2 {
		t.Errorf("--compare without --replay: status %d, want 2", got)
	}
}

func recordingPress(at timing.Instant) input.Record {
	return input.Record{Time: at, Kind: input.RecordPress, Button: input.KeySpace}
}

type charge struct{ Ticks, Shots int }

// chargingGame counts every tick, and every tenth tick with the fire key
// down, in a charge: its state parts from a run without the key only at
// the first such tick, after the input does.
func chargingGame() framework.Game {
	return framework.Game{Title: "charging", Setup: func(s *framework.Setup) error {
		fire, err := s.Actions.RegisterNames("fire", "Space")
		if err != nil {
			return err
		}
		s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
			ecs.With(ctx.Commands.Spawn(), charge{})
		}})
		f := ecs.NewFilter1[charge](s.App.World())
		s.App.AddSystem(ecs.Update, ecs.System{Name: "charge", Run: func(ctx *ecs.Sys) {
			for q := f.Query(); q.Next(); {
				c := q.Get()
				c.Ticks++
				if ctx.Time.Number%10 == 0 && ctx.Input.Down(fire) {
					c.Shots++
				}
			}
		}})
		return nil
	}}
}

// recordCharging records 150 ticks of chargingGame (checkpoints after
// ticks 59, 119 and 149), holding the fire key from holdAt on when
// holdAt > 0.
func recordCharging(t *testing.T, path string, holdAt time.Duration) {
	t.Helper()
	sim, err := frameworktest.New(chargingGame(), frameworktest.Options{Record: path, Sets: []string{"timing.mode=fixed", "timing.rate=60"}})
	if err != nil {
		t.Fatal(err)
	}
	if holdAt > 0 {
		sim.Input.Press(sim.At(holdAt), input.KeySpace)
	}
	if err := sim.RunTicks(150); err != nil {
		t.Fatal(err)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
}

// Two recordings whose input parts at about tick 64 and whose state parts
// at tick 70, between the checkpoints of ticks 59 and 119: Bisect
// replays both and names tick 70 and the field that differs.
func TestBisectFindsTheTickAndFields(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.rec"), filepath.Join(dir, "b.rec")
	recordCharging(t, a, 0)
	recordCharging(t, b, 64*time.Second/60+time.Millisecond)

	res, err := framework.Bisect(chargingGame(), a, b)
	if err != nil {
		t.Fatal(err)
	}
	if !res.InputDiffers || res.InputTick <= 60 || res.InputTick >= 70 {
		t.Fatalf("got %v; want input differing between ticks 60 and 70", res)
	}
	if !res.HashDiffers || res.HashTick != 119 || res.LastSame != 59 {
		t.Fatalf("got %v; want hashes differing at the checkpoint of tick 119, same at 59", res)
	}
	if !res.Replayed || !res.HasTick || res.Tick != 70 {
		t.Fatalf("got %v; want the replays to part after tick 70", res)
	}
	if len(res.Fields) != 1 || res.Fields[0].Field != "framework_test.charge.Shots" {
		t.Fatalf("fields %+v, want charge.Shots alone", res.Fields)
	}
	if !res.HasSystem || res.System != "charge" || res.Stage != ecs.Update {
		t.Fatalf("got %v; want system charge (Update) named", res)
	}
	if len(res.SystemFields) != 1 || res.SystemFields[0].Field != "framework_test.charge.Shots" {
		t.Fatalf("system fields %+v, want charge.Shots alone", res.SystemFields)
	}
	var out, errOut bytes.Buffer
	if got := framework.MainStatus(chargingGame(), []string{"--replay", a, "--compare", b}, &out, &errOut); got != 1 {
		t.Errorf("exit status %d, want 1 for differing recordings (stderr %q)", got, errOut.String())
	}
	t.Logf("--replay a --compare b:\n%s", out.String())
	if s := out.String(); !strings.Contains(s, "the state differs first after tick 70") || !strings.Contains(s, "framework_test.charge.Shots of ") ||
		!strings.Contains(s, `system "charge" (Update) is the first whose output differs on tick 70`) {
		t.Errorf("output %q does not name tick 70, the field and the system", s)
	}

	// Replayed by another game, a recording does not reach its own
	// hashes: an error naming the file, not a bisection.
	if _, err := framework.Bisect(countingGame(1), a, b); err == nil || !strings.Contains(err.Error(), "b.rec") {
		t.Errorf("Bisect with another game: %v, want an error naming b.rec", err)
	}
}

type ship struct{ X, Y, VX, VY float32 }

type score struct{ Laps int }

// skirmishGame flies two ships around a torus: thrust, move, wrap and
// count laps. With drift, its move system is a copy that computes a
// little differently from tick driftAt on, as another machine might.
func skirmishGame(drift bool, driftAt uint64) framework.Game {
	return framework.Game{Title: "skirmish", Setup: func(s *framework.Setup) error {
		s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
			ecs.With(ctx.Commands.Spawn(), ship{X: 10, Y: 10, VX: 30, VY: 20})
			ecs.With(ctx.Commands.Spawn(), ship{X: 200, Y: 100, VX: -25, VY: 15})
			ecs.With(ctx.Commands.Spawn(), score{})
		}})
		ships := ecs.NewFilter1[ship](s.App.World())
		scores := ecs.NewFilter1[score](s.App.World())
		s.App.AddSystem(ecs.Update, ecs.System{Name: "thrust", Run: func(ctx *ecs.Sys) {
			for q := ships.Query(); q.Next(); {
				q.Get().VX += 0.5
			}
		}})
		s.App.AddSystem(ecs.Update, ecs.System{Name: "move", Run: func(ctx *ecs.Sys) {
			dt := float32(ctx.RunDeltaSeconds())
			for q := ships.Query(); q.Next(); {
				sh := q.Get()
				sh.X += sh.VX * dt
				sh.Y += sh.VY * dt
				if drift && ctx.Time.Number >= driftAt {
					sh.Y += 1e-4
				}
			}
		}})
		s.App.AddSystem(ecs.Update, ecs.System{Name: "wrap", Run: func(ctx *ecs.Sys) {
			laps := 0
			for q := ships.Query(); q.Next(); {
				sh := q.Get()
				if sh.X > 320 {
					sh.X -= 320
					laps++
				}
				if sh.Y > 240 {
					sh.Y -= 240
				}
			}
			for q := scores.Query(); q.Next(); {
				q.Get().Laps += laps
			}
		}})
		return nil
	}}
}

func recordSkirmish(t *testing.T, g framework.Game, path string, ticks int) {
	t.Helper()
	sim, err := frameworktest.New(g, frameworktest.Options{Record: path, Sets: []string{"timing.mode=fixed", "timing.rate=60"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.RunTicks(ticks); err != nil {
		t.Fatal(err)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
}

// Two peers of a 600-tick session, one whose move system is a copy that
// computes differently from tick 437 on: BisectBuilds replays each with
// its build and names the move system and the field it wrote.
func TestBisectNamesTheSystem(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.rec"), filepath.Join(dir, "b.rec")
	recordSkirmish(t, skirmishGame(false, 0), a, 600)
	recordSkirmish(t, skirmishGame(true, 437), b, 600)

	start := time.Now()
	res, err := framework.BisectBuilds(skirmishGame(false, 0), skirmishGame(true, 437), a, b)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("desync to system in %v:\n%v", time.Since(start), res)
	if !res.HasTick || res.Tick != 437 {
		t.Fatalf("got %v; want the replays to part after tick 437", res)
	}
	if !res.HasSystem || res.System != "move" {
		t.Fatalf("got %v; want system move named", res)
	}
	for _, f := range res.SystemFields {
		if f.Field != "framework_test.ship.Y" {
			t.Errorf("system field %+v, want ship.Y", f)
		}
	}
	if len(res.SystemFields) != 2 {
		t.Errorf("system fields %+v, want ship.Y of both ships", res.SystemFields)
	}
}
