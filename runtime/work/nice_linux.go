package work

import "golang.org/x/sys/unix"

// lowerThreadPriority puts the calling thread in the kernel's idle
// scheduling class (SCHED_IDLE; Linux schedules each thread on its own)
// and lowers its nice value to nice, which is the whole of the lowering
// where the kernel refuses the class. It never raises a priority: a
// thread already idle, or already nicer, keeps it.
//
// The idle class is what makes a background worker yield at once: the
// scheduler preempts an idle-class thread as soon as any ordinary thread
// wakes on its processor, while a merely niced one runs out its time slice
// first (about 3 ms on a current kernel), and a frame that hands work
// between the renderer's threads a few times waits that long at each
// hand-off. An idle-class thread still gets a small share of a processor
// that is busy all the time, so a load always finishes.
func lowerThreadPriority(nice int) {
	attr, err := unix.SchedGetAttr(0, 0)
	if err == nil && attr.Policy == unix.SCHED_IDLE {
		return
	}
	if err == nil && (attr.Policy == unix.SCHED_NORMAL || attr.Policy == unix.SCHED_BATCH) {
		idle := unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_IDLE}
		_ = unix.SchedSetAttr(0, &idle, 0)
	}
	// The idle class ignores the nice value, but the thread keeps it, and
	// takes it where the class was refused.
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
