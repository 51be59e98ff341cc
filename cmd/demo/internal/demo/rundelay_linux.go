package demo

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// platformRunDelay returns how long the process's main thread, the
// platform thread, has waited in the kernel's run queue: the second field
// of /proc/self/schedstat, which describes the thread whose id is the
// process's.
func platformRunDelay() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/self/schedstat")
	if err != nil {
		return 0, false
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0, false
	}
	ns, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		return 0, false
	}
	return time.Duration(ns), true
}
