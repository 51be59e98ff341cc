//go:build !race

package assets_test

import (
	"testing"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// TestLoadPollAllocations holds a loading screen's per-update polls to zero
// allocations, during the load and after it.
func TestLoadPollAllocations(t *testing.T) {
	lib := newLib(t, small())
	e := newFakeExec()
	rec := rendertest.NewRecorder(8, 8, 4096)
	ld, err := lib.StartLoad(e, nil, assets.PatternFiles("p", 4, 8, 8), assets.LoadOptions{Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	poll := func() {
		d, n := ld.Progress()
		_ = d + n
		_ = ld.Bytes()
		_ = ld.Done()
		_ = ld.Err()
	}
	if a := testing.AllocsPerRun(100, poll); a != 0 {
		t.Errorf("polling a running load: %v allocations, want 0", a)
	}
	runLoad(t, e, ld, rec)
	if a := testing.AllocsPerRun(100, func() {
		poll()
		if _, err := ld.Image(2); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("polling a finished load: %v allocations, want 0", a)
	}
}
