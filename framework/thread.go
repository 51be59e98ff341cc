package framework

import goruntime "runtime"

// GLFW and the OpenGL context must stay on the process's main thread. Every
// package init runs on the main goroutine before main, so locking it here
// keeps main on the main thread for any program that imports the framework.
func init() { goruntime.LockOSThread() }
