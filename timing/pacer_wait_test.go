package timing_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

func newWaiter(t *testing.T, slice time.Duration) *timing.OSWaiter {
	t.Helper()
	w, err := timing.NewOSWaiter(slice)
	if err != nil {
		t.Fatalf("NewWaiter(%v): %v", slice, err)
	}
	return w.(*timing.OSWaiter)
}

func TestNewWaiterValidates(t *testing.T) {
	for _, slice := range []time.Duration{-1, time.Second + 1} {
		_, err := timing.NewOSWaiter(slice)
		if err == nil || !strings.Contains(err.Error(), "timing: wait slice") || !strings.Contains(err.Error(), "[0s, 1s]") {
			t.Errorf("NewWaiter(%v) = %v, want a range error", slice, err)
		}
	}
}

func TestWaiterPastTargetReturnsAtOnce(t *testing.T) {
	w := newWaiter(t, timing.DefaultWaitSlice)
	if err := w.WaitUntil(timing.Now() - 1); err != nil {
		t.Fatalf("WaitUntil(past) = %v, want nil", err)
	}
}

// waiters returns one Waiter of each kind, by name.
func waiters(t *testing.T) map[string]timing.Waiter {
	return map[string]timing.Waiter{
		"timer":    timing.NewTimerWaiter(nil),
		"unsliced": newWaiter(t, 0),
		"sliced":   newWaiter(t, 200*time.Microsecond),
		"default":  newWaiter(t, timing.DefaultWaitSlice),
		"futex":    timing.NewFutexWaiter(),
	}
}

func TestWaiterReachesTarget(t *testing.T) {
	for name, w := range waiters(t) {
		target := timing.Now() + timing.Instant(time.Millisecond)
		if err := w.WaitUntil(target); err != nil {
			t.Fatalf("%s: WaitUntil = %v", name, err)
		}
		// An absolute sleep on the same clock cannot wake before its target
		// unless signals cut it short MaxEarlyWakes times in a row.
		if now := timing.Now(); now < target {
			t.Logf("%s: woke %v early (interrupted by signals)", name, time.Duration(target-now))
		}
	}
}

func TestWakeBeforeWaitInterruptsOnce(t *testing.T) {
	for name, w := range waiters(t) {
		w.Wake()
		w.Wake()
		far := timing.Now() + timing.Instant(time.Hour)
		if err := w.WaitUntil(far); !errors.Is(err, timing.ErrWaitInterrupted) {
			t.Fatalf("%s: WaitUntil after Wake = %v, want ErrWaitInterrupted", name, err)
		}
		if err := w.WaitUntil(timing.Now() - 1); err != nil {
			t.Fatalf("%s: second WaitUntil = %v, want nil: repeated wakes count once", name, err)
		}
	}
}

// The hour-long target ends only through Wake: a lost wake hangs the test
// (and fails it at the test timeout), whatever the machine's speed.
func TestWakeFromAnotherGoroutine(t *testing.T) {
	for name, w := range waiters(t) {
		if name == "unsliced" {
			continue // sees a Wake only at its next call on Linux
		}
		for range 20 {
			done := make(chan error, 1)
			go func() { done <- w.WaitUntil(timing.Now() + timing.Instant(time.Hour)) }()
			w.Wake()
			if err := <-done; !errors.Is(err, timing.ErrWaitInterrupted) {
				t.Fatalf("%s: got %v, want ErrWaitInterrupted", name, err)
			}
		}
	}
}

func TestPacerOnWaiter(t *testing.T) {
	w := newWaiter(t, timing.DefaultWaitSlice)
	p, err := timing.NewFramePacer(timing.PacingForRate(1000), timing.SystemClock{}, w)
	if err != nil {
		t.Fatal(err)
	}
	if r := p.Pace(); r.Outcome != timing.PaceBaseline {
		t.Fatalf("first frame: %v, want baseline", r.Outcome)
	}
	prev := timing.Instant(0)
	for i := range 3 {
		r := p.Pace()
		if !r.Outcome.Started() || r.Target <= prev {
			t.Fatalf("frame %d: %+v", i, r)
		}
		prev = r.Target
	}
}

// The fallback wait of Windows and macOS (used when the native timer could
// not be made) reaches its target, and a Wake ends it.
func TestSleepFallback(t *testing.T) {
	w := newWaiter(t, timing.DefaultWaitSlice)
	target := timing.Now() + timing.Instant(time.Millisecond)
	if err := w.SleepUntil(target); err != nil {
		t.Fatalf("SleepUntil = %v, want nil", err)
	}
	if now := timing.Now(); now < target {
		t.Fatalf("SleepUntil returned %v before its target", time.Duration(target-now))
	}
	w.Wake()
	if err := w.SleepUntil(timing.Now() + timing.Instant(time.Hour)); !errors.Is(err, timing.ErrWaitInterrupted) {
		t.Fatalf("SleepUntil after Wake = %v, want ErrWaitInterrupted", err)
	}
}
