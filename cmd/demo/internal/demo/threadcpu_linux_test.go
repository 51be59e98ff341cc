package demo_test

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns the CPU time the calling thread has used (the caller
// locks its goroutine to the thread): a seek's own work, without the time
// it waited for a core on a busy machine.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// threadWait is the time this thread has spent runnable but waiting for
// a core (the second field of /proc/thread-self/schedstat), 0 when that
// is not readable.
func threadWait() time.Duration {
	b, err := os.ReadFile("/proc/thread-self/schedstat")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	ns, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return time.Duration(ns)
}
