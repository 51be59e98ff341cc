package timing

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// scriptedSleep is a system for waitLoop on made-up time: each sleep
// moves the clock to the end it was given, unless the script says
// otherwise for that sleep.
type scriptedSleep struct {
	clock    Instant
	woken    *uint32
	prepared int
	ends     []Instant // the end of every sleep asked for
	// script, by sleep index: "signal" returns errSignal without moving
	// the clock, "fail" returns errFail, "wake" moves the clock to the end
	// and sets the wake flag (a Wake landing mid-sleep).
	script map[int]string
}

var errFail = errors.New("timing: a system wait failed")

func (s *scriptedSleep) now() Instant { return s.clock }
func (s *scriptedSleep) prepare()     { s.prepared++ }

func (s *scriptedSleep) sleep(now, end Instant) error {
	i := len(s.ends)
	s.ends = append(s.ends, end)
	switch s.script[i] {
	case "signal":
		return errSignal
	case "fail":
		return errFail
	case "wake":
		atomic.StoreUint32(s.woken, 1)
	}
	s.clock = end
	return nil
}

// TestWaitLoop: the one loop every system's native wait runs, on a
// scripted system call: slices end at absolute instants, the last at the
// target; a Wake before or during the wait interrupts it; signals resume
// the sleep up to maxEarlyWakes times; a failing call's error comes back
// as it is; the system is prepared once, and only when a sleep is needed.
func TestWaitLoop(t *testing.T) {
	const ms = Instant(time.Millisecond)
	tests := []struct {
		name         string
		slice        time.Duration
		start        Instant
		target       Instant
		woken        bool
		script       map[int]string
		want         error
		wantEnds     []Instant
		wantPrepared int
	}{
		{name: "one piece", target: 10 * ms, wantEnds: []Instant{10 * ms}, wantPrepared: 1},
		{name: "slices", slice: 4 * time.Millisecond, target: 10 * ms, wantEnds: []Instant{4 * ms, 8 * ms, 10 * ms}, wantPrepared: 1},
		{name: "target passed", start: 11 * ms, target: 10 * ms},
		{name: "woken before", target: 10 * ms, woken: true, want: ErrWaitInterrupted},
		{name: "woken during", slice: 4 * time.Millisecond, target: 10 * ms, script: map[int]string{1: "wake"},
			want: ErrWaitInterrupted, wantEnds: []Instant{4 * ms, 8 * ms}, wantPrepared: 1},
		{name: "a signal resumes", target: 10 * ms, script: map[int]string{0: "signal"},
			wantEnds: []Instant{10 * ms, 10 * ms}, wantPrepared: 1},
		{name: "signals give up", target: 10 * ms,
			script:   map[int]string{0: "signal", 1: "signal", 2: "signal", 3: "signal", 4: "signal", 5: "signal", 6: "signal", 7: "signal"},
			wantEnds: slices.Repeat([]Instant{10 * ms}, maxEarlyWakes), wantPrepared: 1},
		{name: "failure", target: 10 * ms, script: map[int]string{0: "fail"}, want: errFail,
			wantEnds: []Instant{10 * ms}, wantPrepared: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var woken uint32
			if tt.woken {
				woken = 1
			}
			s := &scriptedSleep{clock: tt.start, woken: &woken, script: tt.script}
			if got := waitLoop(s, &woken, tt.slice, tt.target); got != tt.want {
				t.Errorf("waitLoop = %v, want %v", got, tt.want)
			}
			if !slices.Equal(s.ends, tt.wantEnds) {
				t.Errorf("sleeps ended at %v, want %v", s.ends, tt.wantEnds)
			}
			if s.prepared != tt.wantPrepared {
				t.Errorf("prepared %d times, want %d", s.prepared, tt.wantPrepared)
			}
			if woken != 0 {
				t.Errorf("the wake flag is still set after the wait")
			}
		})
	}
}
