//go:build unix && !linux

package cputime

import "syscall"

// rusageThread is RUSAGE_SELF: getrusage on macOS and the BSDs has no
// per-thread figure.
const rusageThread = syscall.RUSAGE_SELF

// ThreadIsProcess reports whether [Thread] measures the whole process
// because the system has no per-thread figure: here it does.
const ThreadIsProcess = true
