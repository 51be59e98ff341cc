package cputime

import (
	"fmt"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// ThreadIsProcess reports whether [Thread] measures the whole process
// because the system has no per-thread figure. Windows has one.
const ThreadIsProcess = false

// getThreadTimes is not wrapped by golang.org/x/sys/windows.
var getThreadTimes = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetThreadTimes")

// Process returns the user and system CPU time the process has used.
func Process() (time.Duration, error) {
	var creation, exit, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &creation, &exit, &kernel, &user); err != nil {
		return 0, fmt.Errorf("cputime: GetProcessTimes: %w", err)
	}
	return filetimes(kernel, user), nil
}

// Thread returns the user and system CPU time the calling OS thread has
// used; lock the goroutine to its thread around the measurement.
func Thread() (time.Duration, error) {
	var creation, exit, kernel, user windows.Filetime
	r, _, err := getThreadTimes.Call(uintptr(windows.CurrentThread()),
		uintptr(unsafe.Pointer(&creation)), uintptr(unsafe.Pointer(&exit)),
		uintptr(unsafe.Pointer(&kernel)), uintptr(unsafe.Pointer(&user)))
	if r == 0 {
		return 0, fmt.Errorf("cputime: GetThreadTimes: %w", err)
	}
	return filetimes(kernel, user), nil
}

// filetimes adds two FILETIME durations, counted in 100 ns units.
func filetimes(kernel, user windows.Filetime) time.Duration {
	k := uint64(kernel.HighDateTime)<<32 | uint64(kernel.LowDateTime)
	u := uint64(user.HighDateTime)<<32 | uint64(user.LowDateTime)
	return time.Duration((k + u) * 100)
}
