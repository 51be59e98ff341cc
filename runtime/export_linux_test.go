package runtime

// ThreadNice returns the calling thread's nice value, for tests.
func ThreadNice() int { return threadNice() }
