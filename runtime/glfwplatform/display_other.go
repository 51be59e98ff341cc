//go:build !linux

package glfwplatform

// checkDisplay returns nil: Windows and macOS open windows on the desktop
// the program runs in, and GLFW reports its own failures there.
func checkDisplay() error { return nil }
