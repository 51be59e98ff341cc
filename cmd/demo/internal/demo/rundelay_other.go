//go:build !linux

package demo

import "time"

// platformRunDelay reports nothing: only Linux says how long a thread
// waited for a processor.
func platformRunDelay() (time.Duration, bool) { return 0, false }
