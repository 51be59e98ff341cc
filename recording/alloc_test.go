//go:build !race

package recording_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/metronome-go/metronome/recording"
)

// TestAppendAllocatesNothing: in steady state a tick costs no allocation,
// with or without input, and neither does a checkpoint of known types;
// the chunk buffers circulate between the owner and the background
// goroutine.
func TestAppendAllocatesNothing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input bool
	}{{"idle", false}, {"input", true}} {
		t.Run(tc.name, func(t *testing.T) {
			evs := makeSession(t, sessionOptions{seed: 51, ticks: 12000, input: tc.input, every: 60})
			w, err := recording.NewWriter(io.Discard, "a.rec", testHeader)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close(nil)
			i := 0
			next := func() {
				e := evs[i%len(evs)]
				i++
				var err error
				if e.tick != nil {
					err = w.Append(e.tick)
				} else {
					err = w.Checkpoint(e.cp)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			for range 2000 {
				next()
			}
			if allocs := testing.AllocsPerRun(10000, next); allocs != 0 {
				t.Errorf("%v allocations per event, want 0", allocs)
			}
		})
	}
}

// TestNextAllocatesNothing: a replay decodes into reused storage.
func TestNextAllocatesNothing(t *testing.T) {
	evs := makeSession(t, sessionOptions{seed: 52, ticks: 15000, input: true, every: 60})
	data := write(t, testHeader, evs, nil)
	r, err := recording.NewReader(bytes.NewReader(data), "a.rec")
	if err != nil {
		t.Fatal(err)
	}
	next := func() {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
	}
	for range 3000 {
		next()
	}
	if allocs := testing.AllocsPerRun(10000, next); allocs != 0 {
		t.Errorf("%v allocations per item, want 0", allocs)
	}
}

// TestMatchAppendAllocatesNothing: a networked match's confirmed tick,
// with every player's action states, its checkpoints, its pacing items,
// its net figures and the presents the writer notes cost no allocation
// in steady state, written or read.
func TestMatchAppendAllocatesNothing(t *testing.T) {
	evs := makeMatch(53, 12000, 60, *matchHeader.Net)
	w, err := recording.NewWriter(io.Discard, "m.rec", matchHeader)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(nil)
	i := 0
	w.WatchPresents(func() recording.Presents { return recording.Presents{Updates: uint64(i), Frames: uint64(i / 2)} })
	next := func() {
		e := evs[i%len(evs)]
		i++
		var err error
		switch {
		case e.tick != nil:
			err = w.Append(e.tick)
		case e.pacing != nil:
			err = w.Pacing(e.pacing)
		case e.net != nil:
			err = w.Net(e.net)
		default:
			err = w.Checkpoint(e.cp)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	for range 2000 {
		next()
	}
	if allocs := testing.AllocsPerRun(10000, next); allocs != 0 {
		t.Errorf("%v allocations per event, want 0", allocs)
	}
	r, err := recording.NewReader(bytes.NewReader(write(t, matchHeader, evs, nil)), "m.rec")
	if err != nil {
		t.Fatal(err)
	}
	read := func() {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
	}
	for range 2000 {
		read()
	}
	if allocs := testing.AllocsPerRun(8000, read); allocs != 0 {
		t.Errorf("%v allocations per item read, want 0", allocs)
	}
}
