package cputime_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/metronome-go/metronome/internal/cputime"
)

// spin burns CPU until the given reader reports at least d more than at
// the start, so the test passes on a slow machine and fails only when the
// figure never moves. It gives up after a generous bound of work.
func spin(read func() (time.Duration, error), d time.Duration) error {
	start, err := read()
	if err != nil {
		return fmt.Errorf("first read: %w", err)
	}
	x := uint64(1)
	for i := 0; i < 1<<34; i++ {
		x = x*6364136223846793005 + 1442695040888963407
		if i%(1<<16) != 0 {
			continue
		}
		now, err := read()
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		if now < start {
			return fmt.Errorf("CPU time went backwards: %v after %v", now, start)
		}
		if now-start >= d {
			return nil
		}
	}
	return fmt.Errorf("CPU time stayed within %v of %v after a long spin (x=%d)", d, start, x)
}

func TestProcessGrowsWithWork(t *testing.T) {
	if err := spin(cputime.Process, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

func TestThreadGrowsWithWork(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := spin(cputime.Thread, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

// TestThreadLeavesOutOtherThreads: where the figure is per thread, a
// thread that sleeps while others work has used almost nothing.
func TestThreadLeavesOutOtherThreads(t *testing.T) {
	if cputime.ThreadIsProcess {
		t.Skipf("%s has no per-thread CPU time", runtime.GOOS)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before, err := cputime.Thread()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- spin(cputime.Process, 50*time.Millisecond) }()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	after, err := cputime.Thread()
	if err != nil {
		t.Fatal(err)
	}
	if got := after - before; got >= 50*time.Millisecond {
		t.Errorf("thread CPU grew by %v while only another goroutine worked; want well under 50ms", got)
	}
}
