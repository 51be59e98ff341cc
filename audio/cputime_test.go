package audio_test

import (
	"runtime"
	"time"

	"github.com/metronome-go/metronome/internal/cputime"
)

var wallStart = time.Now()

// threadCPU returns the CPU time the calling OS thread has used. The
// benchmark locks its goroutine to the thread, so other processes on a
// shared machine do not inflate the figure the way wall time would. Where
// no CPU time is reported it falls back to wall time.
func threadCPU() time.Duration {
	d, err := cputime.Thread()
	if err != nil {
		return time.Since(wallStart)
	}
	return d
}

func lockThread()   { runtime.LockOSThread() }
func unlockThread() { runtime.UnlockOSThread() }
