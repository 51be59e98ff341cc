//go:build linux

package xvfb

import "syscall"

// procAttr makes the server die with the process that starts it (even on
// SIGKILL, which runs no cleanup: the kernel sends the parent-death
// signal) and puts it in a process group of its own, so a terminal's
// Ctrl+C reaches the game, which then closes the server in order. The
// death signal is SIGTERM so the server removes its lock file and socket.
//
// The kernel sends the signal when the thread that started the server
// ends, not the process: Start must run on a thread that lives as long
// as the program, such as the main thread a framework program locks.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM, Setpgid: true}
}
