package testdisplay

import (
	"os"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/internal/xvfb"
)

// Display is an X display a test binary may use.
type Display = xvfb.Display

// Start returns a usable display and sets DISPLAY to it: the existing one
// when its socket answers, otherwise a private Xvfb (see [xvfb.Start]).
func Start() (*Display, error) { return xvfb.Start() }

// InCI reports whether the CI environment variable is set to anything but
// "" or "false".
func InCI() bool {
	v := strings.ToLower(os.Getenv("CI"))
	return v != "" && v != "false" && v != "0"
}

// Unavailable ends a test that needs a display or GL context it could not
// get: it skips outside CI and fails in CI.
func Unavailable(tb testing.TB, err error) {
	tb.Helper()
	if InCI() {
		tb.Fatalf("display or GL context required in CI: %v", err)
	}
	tb.Skipf("no display or GL context: %v", err)
}

// The main-thread harness: GLFW must run on the process's main thread, but
// tests run on other goroutines. A test package locks the main thread in
// its init and calls ServeMain from TestMain; tests then run window work
// there with OnMain.
var (
	mainCalls = make(chan func())
	mainErr   error
	mainName  string
)

// ServeMain starts a display (see [Start]), runs the tests on another
// goroutine and serves [OnMain] requests on the calling goroutine until they
// finish, then stops the display and returns the exit code for os.Exit.
// Call it from TestMain, in a package whose init locks the OS thread.
func ServeMain(m *testing.M) int {
	d, err := Start()
	mainErr = err
	if d != nil {
		mainName = d.Name
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
	return code
}

// OnMain runs f on the goroutine serving [ServeMain] (the main thread) and
// returns when it has finished.
func OnMain(f func()) {
	done := make(chan struct{})
	mainCalls <- func() {
		defer close(done)
		f()
	}
	<-done
}

// Require ends tb through [Unavailable] when [ServeMain] found no display.
func Require(tb testing.TB) {
	tb.Helper()
	if mainErr != nil {
		Unavailable(tb, mainErr)
	}
}

// Name returns the display [ServeMain] uses, such as ":99".
func Name() string { return mainName }
