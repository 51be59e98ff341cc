package glfwinput_test

import (
	"os"
	"runtime"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/timing"
)

func init() { runtime.LockOSThread() }

var (
	calls      = make(chan func())
	displayErr error
)

// onMain runs f on the main OS thread, where GLFW lives, and waits for it.
func onMain(f func()) {
	done := make(chan struct{})
	calls <- func() {
		defer close(done)
		f()
	}
	<-done
}

// TestMain starts a display and GLFW, then serves onMain calls on the main
// thread while the tests run on their own goroutines.
func TestMain(m *testing.M) {
	d, err := testdisplay.Start()
	glfwUp := false
	if err == nil {
		if err = glfw.Init(); err == nil {
			glfwUp = true
		}
	}
	displayErr = err
	code := make(chan int, 1)
	go func() { code <- m.Run() }()
	for {
		select {
		case f := <-calls:
			f()
		case c := <-code:
			if glfwUp {
				glfw.Terminate()
			}
			_ = d.Close()
			os.Exit(c)
		}
	}
}

// poll is the platform's poll: src's snapshot, taken now into snap, handed
// to q. Main thread only.
func poll(q *input.Queue, src input.Source, snap *input.Snapshot) {
	now := timing.Now()
	src.Poll(now, snap)
	q.PushPoll(now, snap)
}
