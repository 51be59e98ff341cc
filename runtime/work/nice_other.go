//go:build !linux

package work

// lowerThreadPriority does nothing where a priority belongs to the
// process, not to a thread.
func lowerThreadPriority(int) {}

// threadNice reports 0: threads have no priority of their own here.
func threadNice() int { return 0 }
