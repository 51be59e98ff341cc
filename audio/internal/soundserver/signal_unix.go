//go:build unix

package soundserver

import (
	"os"
	"syscall"
)

// stopProcess stops p without ending it (SIGSTOP).
func stopProcess(p *os.Process) error { return p.Signal(syscall.SIGSTOP) }

// continueProcess resumes a p that stopProcess stopped (SIGCONT).
func continueProcess(p *os.Process) error { return p.Signal(syscall.SIGCONT) }
