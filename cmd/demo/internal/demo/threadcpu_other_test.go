//go:build !linux && !js

package demo_test

import "time"

// threadCPU is 0 where the thread's CPU clock is not read: the seek
// benchmark then reports no CPU figure.
func threadCPU() time.Duration { return 0 }

// threadWait is 0 where the thread's run-queue wait is not read.
func threadWait() time.Duration { return 0 }
