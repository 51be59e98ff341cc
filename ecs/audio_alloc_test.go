//go:build !race

package ecs_test

import (
	"testing"
	"time"
)

// A tick that plays a sound from a system and pans 100 moving looping
// sources allocates nothing once warmed up, and neither does the mixer
// taking the requests.
func TestAudioTickAllocatesNothing(t *testing.T) {
	r := movingSources(t, 100)
	buf := make([]float32, 2*800)
	start := time.Duration(0)
	run := func() {
		r.m.Render(buf)
		r.tick(start, false)
		start += audioStep
	}
	for range 10 {
		run()
	}
	r.ticks = make([]runtimeTick, 0, 1000) // keep the rig's record from growing during the run
	if got := testing.AllocsPerRun(100, run); got != 0 {
		t.Errorf("allocations per tick: got %v, want 0", got)
	}
	st := r.au.Stats()
	if st.Sources != 100 || st.Errors != 0 || st.Played < 100 {
		t.Errorf("audio stats %+v, want 100 sources, a sound a tick, no error", st)
	}
	if ms := r.m.Stats(); ms.QueueFull != 0 || ms.Voices < 100 {
		t.Errorf("mixer stats %+v, want every request taken and 100 voices busy", ms)
	}
}
