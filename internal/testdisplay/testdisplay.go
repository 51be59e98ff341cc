package testdisplay

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Display is an X display a test binary may use.
type Display struct {
	// Name is the value of DISPLAY, such as ":99".
	Name string
	cmd  *exec.Cmd
}

// Started reports whether the display is a private Xvfb server.
func (d *Display) Started() bool { return d != nil && d.cmd != nil }

// Close stops a private server; for an existing display it does nothing.
func (d *Display) Close() error {
	if d == nil || d.cmd == nil {
		return nil
	}
	_ = d.cmd.Process.Kill()
	_ = d.cmd.Wait()
	d.cmd = nil
	return nil
}

// Start returns a usable display and sets DISPLAY to it. An existing DISPLAY
// is used when its local socket exists; otherwise Xvfb is started with a free
// display number at 1920x1080x24. It must be called before any window library
// initialises.
func Start() (*Display, error) {
	if name := os.Getenv("DISPLAY"); name != "" && reachable(name) {
		return &Display{Name: name}, nil
	}
	path, err := exec.LookPath("Xvfb")
	if err != nil {
		return nil, fmt.Errorf("testdisplay: no DISPLAY and no Xvfb in PATH (install the xvfb package; make test does): %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("testdisplay: %w", err)
	}
	defer r.Close()
	cmd := exec.Command(path, "-displayfd", "3", "-screen", "0", "1920x1080x24", "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, fmt.Errorf("testdisplay: starting Xvfb: %w", err)
	}
	w.Close()

	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		line, err := bufio.NewReader(r).ReadString('\n')
		ch <- result{line, err}
	}()
	select {
	case res := <-ch:
		n, convErr := strconv.Atoi(strings.TrimSpace(res.line))
		if res.err != nil || convErr != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return nil, fmt.Errorf("testdisplay: Xvfb did not report a display number (%v): %s", errors.Join(res.err, convErr), stderr.String())
		}
		name := ":" + strconv.Itoa(n)
		os.Setenv("DISPLAY", name)
		return &Display{Name: name, cmd: cmd}, nil
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("testdisplay: Xvfb did not start within 20s: %s", stderr.String())
	}
}

// reachable reports whether a local display's socket exists. Remote displays
// (host:n) are trusted as given.
func reachable(name string) bool {
	if !strings.HasPrefix(name, ":") {
		return true
	}
	num := strings.TrimPrefix(name, ":")
	if i := strings.IndexByte(num, '.'); i >= 0 {
		num = num[:i]
	}
	_, err := os.Stat(filepath.Join("/tmp/.X11-unix", "X"+num))
	return err == nil
}

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
