package work

import "golang.org/x/sys/unix"

// setThreadNice lowers the calling thread's priority to nice (Linux keeps
// a priority per thread), never raising it: a process already started at a
// lower priority keeps it. Failures leave the thread as it was.
func setThreadNice(nice int) {
	if nice > threadNice() {
		_ = unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), nice)
	}
}

// threadNice returns the calling thread's nice value.
func threadNice() int {
	v, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
	if err != nil {
		return 0
	}
	return 20 - v // the system call returns 20 - nice
}
