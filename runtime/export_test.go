package runtime

import "time"

// SetStallTimeout shortens how long a replay waits for work that does not
// come, for tests that expect a stall; it returns the function that puts
// the old value back.
func SetStallTimeout(d time.Duration) (restore func()) {
	old := stallTimeout
	stallTimeout = d
	return func() { stallTimeout = old }
}
