//go:build unix

package cputime

import (
	"fmt"
	"syscall"
	"time"
)

// Process returns the user and system CPU time the process has used.
func Process() (time.Duration, error) { return rusage(syscall.RUSAGE_SELF) }

// Thread returns the user and system CPU time the calling OS thread has
// used; lock the goroutine to its thread around the measurement. Where the
// system keeps no per-thread figure ([ThreadIsProcess]), it is the
// process's time.
func Thread() (time.Duration, error) { return rusage(rusageThread) }

func rusage(who int) (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0, fmt.Errorf("cputime: getrusage: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
