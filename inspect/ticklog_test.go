package inspect_test

import (
	"slices"
	"testing"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
)

// The compact tick log gives back every tick as the replay handed it to
// the game: its update, statistics and window (Context), its input's
// interval, records and polls (Input), read in order and out of order,
// across the log's blocks; and it takes a small part of what the ticks
// took whole.
func TestTickLogKeepsEveryTickExactly(t *testing.T) {
	path, _ := record(t)
	type seen struct {
		ctx     runtime.TickContext
		start   int64
		polls   int
		records []input.Record
	}
	var want []seen
	err := framework.ReplayVisit(testGame(), path, testTicks, nil, func(_ *framework.Session, tc *runtime.TickContext) error {
		s := seen{ctx: *tc, start: int64(tc.Input.Start()), polls: tc.Input.Polls(), records: slices.Clone(tc.Input.Records())}
		s.ctx.Input, s.ctx.Stop, s.ctx.Owed = nil, nil, runtime.Owed{}
		want = append(want, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rep := open(t, path, 0)
	if rep.Ticks() != len(want) {
		t.Fatalf("%d ticks, the replay ran %d", rep.Ticks(), len(want))
	}
	order := []int{}
	for i := range want {
		order = append(order, i)
	}
	order = append(order, 500, 3, 64, 63, 127, 128, 599, 0, 300, 301, 65)
	records := 0
	for _, i := range order {
		got, ok := rep.Context(uint64(i))
		if !ok || got != want[i].ctx {
			t.Fatalf("tick %d: context %+v, want %+v", i, got, want[i].ctx)
		}
		in := rep.Input(uint64(i))
		if int64(in.Start()) != want[i].start || in.Polls() != want[i].polls || !slices.Equal(in.Records(), want[i].records) {
			t.Fatalf("tick %d: input from %d, %d polls, records %v; want from %d, %d polls, %v", i, in.Start(), in.Polls(), in.Records(), want[i].start, want[i].polls, want[i].records)
		}
		records += len(want[i].records)
	}
	if records == 0 {
		t.Fatal("the recording holds no input records: the test checks none")
	}
	tl := rep.Timeline(0, uint64(len(want)))
	for i, tk := range tl {
		if tk.Number != uint64(i) || tk.Delta != want[i].ctx.Delta || tk.Records != len(want[i].records) || tk.Debt != want[i].ctx.Timing.Debt {
			t.Fatalf("timeline %d: %+v", i, tk)
		}
	}
	m := rep.Memory()
	per := float64(m.TickBytes) / float64(len(want))
	t.Logf("the tick log: %d bytes for %d ticks (%.1f a tick); keyframes every %d ticks", m.TickBytes, len(want), per, rep.KeyframeEvery())
	if per > 100 {
		t.Errorf("the tick log takes %.1f bytes a tick, want under 100 (a TickContext alone is 400)", per)
	}
}
