package recording_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/timing"
)

// TestPresentsNotedPerChunk: a writer watching the session's presents
// notes them as each chunk is handed over (half a second of ticks) and
// at the end, only when they moved; the items read back in order, cover
// every update, and end at the counters' last values. A writer that
// watches nothing records none.
func TestPresentsNotedPerChunk(t *testing.T) {
	evs := makeSession(t, sessionOptions{seed: 91, ticks: 600, every: 60})
	for _, watch := range []bool{true, false} {
		var buf bytes.Buffer
		w, err := recording.NewWriter(&buf, "p.rec", testHeader)
		if err != nil {
			t.Fatal(err)
		}
		w.SetClock(new(timing.ManualClock)) // chunks cut by recorded time alone
		var updates, frames uint64
		if watch {
			w.WatchPresents(func() recording.Presents { return recording.Presents{Updates: updates, Frames: frames} })
		}
		for i, e := range evs {
			var err error
			if e.tick != nil {
				updates++
				if i%3 != 0 { // a frame for two updates in three
					frames++
				}
				err = w.Append(e.tick)
			} else {
				err = w.Checkpoint(e.cp)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(nil); err != nil {
			t.Fatal(err)
		}
		r, err := recording.NewReader(bytes.NewReader(buf.Bytes()), "p.rec")
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := readAll(r)
		if err != io.EOF {
			t.Fatal(err)
		}
		var pres []recording.Presents
		ticks := 0
		for _, e := range got {
			switch {
			case e.tick != nil:
				ticks++
			case e.pres != nil:
				pres = append(pres, *e.pres)
				if e.pres.Updates != uint64(ticks) {
					t.Errorf("presents %+v after %d ticks: want them noted as the chunk ends", *e.pres, ticks)
				}
			}
		}
		if !watch {
			if len(pres) != 0 {
				t.Errorf("a writer watching nothing noted %+v", pres)
			}
			continue
		}
		// The session's ticks span more than ten seconds of recorded time.
		if len(pres) < 10 {
			t.Fatalf("%d presents items, want one each half second of ticks: %+v", len(pres), pres)
		}
		for i := 1; i < len(pres); i++ {
			if pres[i] == pres[i-1] || pres[i].Updates < pres[i-1].Updates || pres[i].Frames < pres[i-1].Frames {
				t.Errorf("presents %d: %+v after %+v, want counters that moved forward", i, pres[i], pres[i-1])
			}
		}
		if last := pres[len(pres)-1]; last.Updates != updates || last.Frames != frames {
			t.Errorf("last presents %+v, want the session's %d updates and %d frames", last, updates, frames)
		}
	}
}

// TestNetFiguresOnlyInAMatch: a writer refuses net figures outside a
// match, and a reader refuses them in a version 7 match recording, which
// had none.
func TestNetFiguresOnlyInAMatch(t *testing.T) {
	w, err := recording.NewWriter(io.Discard, "n.rec", testHeader)
	if err != nil {
		t.Fatal(err)
	}
	err = w.Net(&recording.NetFigures{})
	if !errors.Is(err, recording.ErrInvalid) || !bytes.Contains([]byte(err.Error()), []byte("net figures in a recording that is not of a networked match")) {
		t.Errorf("net figures outside a match: got %v, want ErrInvalid saying so", err)
	}
	w.Close(nil)

	head := append([]byte("MTRC\x07"), framed([]byte("MTRC\x07"), uv(0, 0, 0, 0, 0, 0, 0), make([]byte, 8), uv(60), uv(2, 5, 0))...)
	for _, tc := range []struct {
		item uint64
		want string
	}{
		{9, "item type 9 is not defined in format version 7"},
		{11, "item type 11 is not defined in format version 7"},
	} {
		data := join(head, frame(uv(1, tc.item, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
		r, err := recording.NewReader(bytes.NewReader(data), "v7.rec")
		if err == nil {
			_, _, err = readAll(r)
		}
		errorIs(t, err, recording.ErrCorrupt, "recording: v7.rec: byte ", tc.want)
	}
}

// TestReadsVersion7Match: a match's recording as version 7 wrote it
// (testdata/v7match.rec: two players, pacing items, no net figures or
// presents) reads to its end with every tick's players' input.
func TestReadsVersion7Match(t *testing.T) {
	r, err := recording.Open("testdata/v7match.rec")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Version() != 7 || r.Header().Net == nil || *r.Header().Net != *matchHeader.Net {
		t.Fatalf("version %d, Net %+v: want 7 and %+v", r.Version(), r.Header().Net, *matchHeader.Net)
	}
	got, end, err := readAll(r)
	if err != io.EOF {
		t.Fatalf("after the end marker: got %v, want io.EOF", err)
	}
	// The file was written from makeMatch(75, 120, 30, ...) without the
	// net figures version 8 adds.
	var want []event
	for _, e := range makeMatch(75, 120, 30, *matchHeader.Net) {
		if e.net == nil {
			want = append(want, e)
		}
	}
	if d := diffEvents(got, want); d != "" {
		t.Fatal(d)
	}
	if end.Ticks != 120 {
		t.Errorf("end counts %d ticks, want 120", end.Ticks)
	}
}
