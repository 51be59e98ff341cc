package soundserver

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill cmd if this process dies without
// calling Close (a test binary killed by a timeout), so no daemon is left
// behind.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
