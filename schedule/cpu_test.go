package schedule_test

import (
	"time"

	"github.com/metronome-go/metronome/internal/cputime"
)

// processCPU returns the CPU time the process has used. Benchmarks report it
// per op beside wall time because the machines they run on are shared: wall
// time counts the time other processes held the CPU, CPU time does not.
func processCPU() (time.Duration, bool) {
	d, err := cputime.Process()
	return d, err == nil
}
