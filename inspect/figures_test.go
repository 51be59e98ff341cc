package inspect_test

import (
	"bytes"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/timing"
)

// A replay's presents are those its recording kept, one span a chunk:
// they cover the recorded ticks from 0 without a gap, add up to the
// frames the game presented while it recorded, and the session and the
// timeline (the spans overlapping the range asked for) give them.
func TestReplayPresentsAreTheRecordings(t *testing.T) {
	path, _ := record(t)
	rep := open(t, path, 0)
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var last recording.Presents
	var before []int // each tick's Presented: the frames before it
	for {
		it, err := r.Next()
		if err != nil {
			break
		}
		switch v := it.(type) {
		case *recording.Presents:
			last = *v
		case *recording.Tick:
			before = append(before, v.Presented)
		}
	}
	if last.Frames == 0 {
		t.Fatal("the recording noted no presents")
	}
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var s struct{ Presents []inspect.PresentSpan }
	get(t, h, "/api/session", http.StatusOK, &s)
	if len(s.Presents) < 4 {
		t.Fatalf("presents %+v, want a span each half second of %d ticks", s.Presents, rep.Ticks())
	}
	var at, sum uint64
	for _, p := range s.Presents {
		if p.From != at || p.To <= p.From {
			t.Errorf("span %+v after tick %d: want the next ticks", p, at)
		}
		at, sum = p.To, sum+p.Presented
	}
	if at != last.Updates || sum != last.Frames || at < uint64(rep.Ticks())-1 {
		t.Errorf("the spans cover %d ticks and %d presents; the recording noted %+v over %d ticks", at, sum, last, rep.Ticks())
	}
	mid := s.Presents[1]
	var tl struct {
		Presents []inspect.PresentSpan
		Ticks    []inspect.Tick
	}
	get(t, h, "/api/timeline?from="+strconv.FormatUint(mid.From, 10)+"&to="+strconv.FormatUint(mid.To, 10), http.StatusOK, &tl)
	if len(tl.Presents) != 1 || tl.Presents[0] != mid {
		t.Errorf("the timeline of ticks %d to %d has presents %+v, want %+v", mid.From, mid.To, tl.Presents, mid)
	}

	// Per tick: the frames after tick i are tick i+1's Presented, after
	// the last tick what the last note adds; they add up to the span.
	var got uint64
	for _, tk := range tl.Ticks {
		if want := before[tk.Number+1]; tk.Presented != want {
			t.Errorf("tick %d: %d presents after it, want %d (the next tick's Presented)", tk.Number, tk.Presented, want)
		}
		got += uint64(max(tk.Presented, 0))
	}
	if len(tl.Ticks) != int(mid.To-mid.From) || got != mid.Presented {
		t.Errorf("ticks %d to %d: %d ticks presenting %d frames, want %d ticks and the span's %d",
			mid.From, mid.To, len(tl.Ticks), got, mid.To-mid.From, mid.Presented)
	}
	// Every tick, the last one's from the note at the end, and with the
	// frames before the first tick all that the recording noted.
	var all struct{ Ticks []inspect.Tick }
	get(t, h, "/api/timeline", http.StatusOK, &all)
	if len(all.Ticks) != len(before) {
		t.Fatalf("the timeline has %d ticks, the recording %d", len(all.Ticks), len(before))
	}
	sum = uint64(before[0])
	for i, tk := range all.Ticks {
		want := int(last.Frames) - sumInts(before)
		if i+1 < len(before) {
			want = before[i+1]
		}
		if tk.Presented != want {
			t.Errorf("tick %d: %d presents after it, want %d", i, tk.Presented, want)
		}
		sum += uint64(max(tk.Presented, 0))
	}
	if sum != last.Frames {
		t.Errorf("the ticks present %d frames with the %d before the first, want the %d the recording noted", sum, before[0], last.Frames)
	}
}

// recordedPresents returns the Presented of each tick of the recording
// at path: the frames presented before it.
func recordedPresents(t testing.TB, path string) []int {
	t.Helper()
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var before []int
	for {
		it, err := r.Next()
		if err != nil {
			return before
		}
		if tk, ok := it.(*recording.Tick); ok {
			before = append(before, tk.Presented)
		}
	}
}

func sumInts(s []int) int {
	n := 0
	for _, v := range s {
		n += v
	}
	return n
}

// ReadFigures turns a match's net figures into spans of the match's
// ticks, each with the figures counted by its end, and a recording's
// presents into spans of updates.
func TestReadFigures(t *testing.T) {
	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, "m.rec", recording.Header{Net: &recording.Net{Players: 2, Actions: 1}})
	if err != nil {
		t.Fatal(err)
	}
	var pres recording.Presents
	w.WatchPresents(func() recording.Presents { return pres })
	step := time.Second / 60
	var tick recording.Tick
	tick.Players = make([]input.Stats, 2)
	for k := range 180 {
		tick.Update.Number = uint64(k)
		tick.Update.End = timing.Instant(k+1) * timing.Instant(step)
		pres.Updates, pres.Frames = uint64(k+1), uint64(k/2+1)
		if err := w.Append(&tick); err != nil {
			t.Fatal(err)
		}
		if k%60 == 59 {
			if err := w.Net(&recording.NetFigures{Update: uint64(k + 1), Tick: int64(k + 3), BytesSent: uint64(100 * k), Rollbacks: uint64(k / 30)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	r, err := recording.NewReader(bytes.NewReader(buf.Bytes()), "m.rec")
	if err != nil {
		t.Fatal(err)
	}
	f, err := inspect.ReadFigures(r)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ from, to, sent uint64 }{{0, 62, 5900}, {62, 122, 11900}, {122, 182, 17900}}
	if len(f.Net) != len(want) {
		t.Fatalf("net spans %+v, want %d", f.Net, len(want))
	}
	for i, w := range want {
		if g := f.Net[i]; g.From != w.from || g.To != w.to || g.BytesSent != w.sent {
			t.Errorf("net span %d: %d to %d, %d bytes sent; want %d to %d, %d", i, g.From, g.To, g.BytesSent, w.from, w.to, w.sent)
		}
	}
	var at, sum uint64
	for _, p := range f.Presents {
		if p.From != at {
			t.Errorf("presents span %+v after %d", p, at)
		}
		at, sum = p.To, sum+p.Presented
	}
	if at != 180 || sum != 90 || len(f.Presents) < 5 {
		t.Errorf("presents %+v: want spans of half a second covering 180 updates and 90 frames", f.Presents)
	}
}
