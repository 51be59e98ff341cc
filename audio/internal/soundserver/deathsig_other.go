//go:build !linux

package soundserver

import "os/exec"

// dieWithParent does nothing where the kernel offers no parent-death
// signal; Close still stops the daemon.
func dieWithParent(cmd *exec.Cmd) {}
