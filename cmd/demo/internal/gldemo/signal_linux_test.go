package gldemo_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/metronome-go/metronome/recording"
)

// TestInterruptWritesEverything: Ctrl+C (SIGINT) to a headless recording
// demo is an ordinary shutdown request: the demo exits 0 after the whole
// shutdown, with the recording's end marker saying so and the screenshot
// and the timing report written (the process used to die at once, exit
// -2, losing the report and the end of the recording).
func TestInterruptWritesEverything(t *testing.T) {
	if _, err := exec.LookPath("Xvfb"); err != nil {
		t.Skip("no Xvfb to run the demo headless on")
	}
	dir := t.TempDir()
	rec, shot, report := filepath.Join(dir, "demo.rec"), filepath.Join(dir, "shot.png"), filepath.Join(dir, "timing.json")
	cmd := exec.Command(os.Args[0], "--headless", "--atlas=0", "--sprites=100", "--set", "audio.enabled=false",
		"--record="+rec, "--screenshot="+shot, "--timing-report="+report)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, childEnv+"=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitForTicks(t, dir, rec, 30)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the demo after SIGINT: %v, want exit status 0; stderr:\n%s", err, stderr.String())
	}
	if end := endOf(t, rec); end == nil || end.Outcome != recording.Signal || end.Error != "interrupt" {
		t.Errorf("end marker %+v, want stopped by the interrupt signal", end)
	}
	readPNG(t, shot)
	data, err := os.ReadFile(report)
	if err != nil || !json.Valid(data) {
		t.Errorf("timing report: %v (%d bytes), want a JSON file", err, len(data))
	}
}

// waitForTicks waits (up to a minute) until the recording at path holds n
// ticks, woken by inotify each time the directory's files change.
func waitForTicks(t *testing.T, dir, path string, n uint64) {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		t.Skipf("inotify: %v", err)
	}
	defer unix.Close(fd)
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_MODIFY|unix.IN_CREATE); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	for ticksIn(path) < n {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		k, err := unix.Poll(fds, 60_000)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			t.Fatalf("the recording has %d ticks after a minute, want %d", ticksIn(path), n)
		}
		_, _ = unix.Read(fd, buf)
	}
}

// ticksIn counts the ticks readable in a recording so far.
func ticksIn(path string) uint64 {
	r, err := recording.Open(path)
	if err != nil {
		return 0
	}
	defer r.Close()
	var n uint64
	for {
		it, err := r.Next()
		if err != nil {
			return n
		}
		if _, ok := it.(*recording.Tick); ok {
			n++
		}
	}
}

// endOf returns a recording's end marker, or nil.
func endOf(t *testing.T, path string) *recording.End {
	t.Helper()
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for {
		it, err := r.Next()
		if err != nil {
			return nil
		}
		if e, ok := it.(*recording.End); ok {
			c := *e
			return &c
		}
	}
}
