//go:build !linux

package audio_test

import "time"

var wallStart = time.Now()

// threadCPU falls back to wall time where per-thread CPU time is not read.
func threadCPU() time.Duration { return time.Since(wallStart) }

func lockThread()   {}
func unlockThread() {}
