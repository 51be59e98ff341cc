//go:build linux

package timing_test

import (
	goruntime "runtime"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/metronome-go/metronome/timing"
)

// The native wait hands Instants to clock_nanosleep unchanged: check they
// are CLOCK_MONOTONIC readings.
func TestInstantIsClockMonotonic(t *testing.T) {
	a := timing.Now()
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		t.Fatal(err)
	}
	c := timing.Now()
	b := timing.Instant(ts.Nano())
	if b < a || b > c {
		t.Fatalf("CLOCK_MONOTONIC %v is not between Now readings %v and %v", b, a, c)
	}
}

func TestTimerSlackLowered(t *testing.T) {
	// Prctl changes the calling thread; lock so the read sees the same one.
	lockThread(t)
	if err := timing.LowerTimerSlack(); err != nil {
		t.Fatal(err)
	}
	r, _, errno := unix.Syscall(unix.SYS_PRCTL, unix.PR_GET_TIMERSLACK, 0, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	if r != 1 {
		t.Fatalf("timer slack = %d ns, want 1", r)
	}
}

func lockThread(t *testing.T) {
	goruntime.LockOSThread()
	t.Cleanup(goruntime.UnlockOSThread)
}
