package glfwplatform_test

import (
	"flag"
	"os"
	goruntime "runtime"
	"testing"

	"github.com/metronome-go/metronome/internal/testdisplay"
)

// GLFW must run on the main thread: lock it here and run window work from
// TestMain's goroutine, which serves onMain requests while the tests run.
func init() { goruntime.LockOSThread() }

var (
	displayErr  error
	displayName string
	mainCalls   = make(chan func())
)

func TestMain(m *testing.M) {
	flag.Parse()
	d, err := testdisplay.Start()
	displayErr = err
	if err == nil {
		displayName = d.Name
	}
	done := make(chan int)
	go func() { done <- m.Run() }()
	var code int
	for running := true; running; {
		select {
		case f := <-mainCalls:
			f()
		case code = <-done:
			running = false
		}
	}
	if d != nil {
		d.Close()
	}
	os.Exit(code)
}

// onMain runs f on the main thread and returns when it has finished.
func onMain(f func()) {
	done := make(chan struct{})
	mainCalls <- func() {
		defer close(done)
		f()
	}
	<-done
}
