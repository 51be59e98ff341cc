//go:build !linux

package timing

// prepare has nothing to do here: only Linux's wait lowers the thread's
// timer before it sleeps (wait_linux.go).
func (w *osWaiter) prepare() {}
