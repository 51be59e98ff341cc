package framework_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework"
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
