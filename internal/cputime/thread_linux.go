package cputime

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's figure.
const rusageThread = 1

// ThreadIsProcess reports whether [Thread] measures the whole process
// because the system has no per-thread figure. Linux has one.
const ThreadIsProcess = false
