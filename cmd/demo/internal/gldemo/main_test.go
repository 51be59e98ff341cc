package gldemo_test

import (
	"flag"
	"os"
	"testing"

	"github.com/metronome-go/metronome/internal/testdisplay"
)

// The framework's init locks the main goroutine to the main thread; the
// demo's window runs there through onMain while TestMain serves requests.
var (
	displayErr error
	mainCalls  = make(chan func())
	update     = flag.Bool("update", false, "rewrite the golden screenshot in testdata")
)

func TestMain(m *testing.M) {
	flag.Parse()
	d, err := testdisplay.Start()
	displayErr = err
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

// onMain runs f on the main thread and waits for it.
func onMain(f func()) {
	done := make(chan struct{})
	mainCalls <- func() {
		defer close(done)
		f()
	}
	<-done
}
