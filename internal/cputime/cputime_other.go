//go:build !unix && !windows

package cputime

import (
	"fmt"
	"runtime"
	"time"
)

// ThreadIsProcess reports whether [Thread] measures the whole process
// because the system has no per-thread figure; here there is no figure at
// all.
const ThreadIsProcess = true

var errUnsupported = fmt.Errorf("cputime: CPU time is not measured on %s (only on Unix systems and Windows)", runtime.GOOS)

// Process returns an error: this system reports no CPU time.
func Process() (time.Duration, error) { return 0, errUnsupported }

// Thread returns an error: this system reports no CPU time.
func Thread() (time.Duration, error) { return 0, errUnsupported }
