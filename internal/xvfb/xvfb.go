//go:build linux

package xvfb

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Display is an X display a program may use.
type Display struct {
	// Name is the value of DISPLAY, such as ":99".
	Name string
	cmd  *exec.Cmd
}

// Started reports whether the display is a private Xvfb server.
func (d *Display) Started() bool { return d != nil && d.cmd != nil }

// Close stops a private server and waits for it; for an existing display
// it does nothing. The server gets SIGTERM, so that it removes its lock
// file and socket, and SIGKILL if it has not gone within a second.
func (d *Display) Close() error {
	if d == nil || d.cmd == nil {
		return nil
	}
	done := make(chan struct{})
	go func() {
		_ = d.cmd.Wait()
		close(done)
	}()
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(time.Second):
		_ = d.cmd.Process.Kill()
		<-done
	}
	d.cmd = nil
	return nil
}

// Pid returns the process id of a private server, or 0.
func (d *Display) Pid() int {
	if d == nil || d.cmd == nil {
		return 0
	}
	return d.cmd.Process.Pid
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
		return nil, fmt.Errorf("xvfb: no DISPLAY and no Xvfb in PATH (install the xvfb package; make test does): %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("xvfb: %w", err)
	}
	defer r.Close()
	cmd := exec.Command(path, "-displayfd", "3", "-screen", "0", "1920x1080x24", "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = procAttr()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, fmt.Errorf("xvfb: starting Xvfb: %w", err)
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
			return nil, fmt.Errorf("xvfb: Xvfb did not report a display number (%v): %s", errors.Join(res.err, convErr), stderr.String())
		}
		name := ":" + strconv.Itoa(n)
		os.Setenv("DISPLAY", name)
		return &Display{Name: name, cmd: cmd}, nil
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("xvfb: Xvfb did not start within 20s: %s", stderr.String())
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
