//go:build unix

package schedule_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used. Benchmarks report it
// per op beside wall time because the machines they run on are shared: wall
// time counts the time other processes held the CPU, CPU time does not.
func processCPU() (time.Duration, bool) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
