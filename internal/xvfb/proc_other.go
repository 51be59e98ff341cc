//go:build !linux

package xvfb

import "syscall"

// procAttr gives the server no special attributes: the parent-death
// signal is Linux's.
func procAttr() *syscall.SysProcAttr { return nil }
