//go:build unix

package main

import (
	"fmt"
	"syscall"
)

// ensureFiles raises the process's open-file limit to n if it is below:
// the lobby holds a socket per client, and so does each client.
func ensureFiles(n uint64) error {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return nil // unknown: let the run say
	}
	if l.Cur >= n {
		return nil
	}
	want := l
	want.Cur = n
	if want.Max < n {
		want.Max = n
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err != nil {
		return fmt.Errorf("lobbyload: the run needs %d open files (a socket per client, two without --workers) and the limit is %d, hard %d: raise it (ulimit -n %d), use --workers or lower --clients", n, l.Cur, l.Max, n)
	}
	return nil
}
