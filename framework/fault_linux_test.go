package framework_test

import (
	"bufio"
	"errors"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
)

// child is a run of faultGame in a process of its own, headless on the
// private X server the framework starts for it.
type child struct {
	cmd   *exec.Cmd
	lines chan string
	xvfb  int    // the X server's pid
	last  uint64 // the highest tick number printed so far
	ticks bool   // some tick was printed
}

func startChild(t *testing.T, mode string, args ...string) *child {
	t.Helper()
	if _, err := exec.LookPath("Xvfb"); err != nil {
		t.Skip("no Xvfb to run a headless game on")
	}
	cmd := exec.Command(os.Args[0], append([]string{"--headless", "--set", "audio.enabled=false", "--set", "timing.mode=fixed", "--set", "window.vsync=false"}, args...)...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, faultChildEnv+"="+mode)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, lines: make(chan string, 1024)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return c
}

// until reads the child's lines until one starts with prefix (true) or
// the output ends (false). It gives up after a minute: a hung child.
func (c *child) until(t *testing.T, prefix string) bool {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return false
			}
			c.note(line)
			if strings.HasPrefix(line, prefix) {
				return true
			}
		case <-timeout:
			t.Fatalf("the game printed no %q within a minute", prefix)
		}
	}
}

func (c *child) note(line string) {
	f := strings.Fields(line)
	switch {
	case len(f) == 2 && f[0] == "xvfb":
		c.xvfb, _ = strconv.Atoi(f[1])
	case len(f) == 3 && f[0] == "tick":
		n, _ := strconv.ParseUint(f[1], 10, 64)
		c.last, c.ticks = max(c.last, n), true
	}
}

// drain reads the rest of the output: every tick the game ran.
func (c *child) drain() {
	for line := range c.lines {
		c.note(line)
	}
}

// gone waits (up to 10 s) for the process pid to end, through a pidfd:
// no polling.
func gone(t *testing.T, pid int) {
	t.Helper()
	if pid <= 0 {
		t.Fatal("the game did not report its X server")
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return // gone already
	}
	if err != nil {
		t.Skipf("pidfd_open: %v", err)
	}
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, 10_000)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatalf("the game's X server (pid %d) is still running 10 s after the game ended", pid)
		}
		return
	}
}

// recorded reads what a recording holds: ticks, checkpoints and the end
// marker (nil for a cut recording), and the error that ended the reading.
func recorded(t *testing.T, path string) (ticks, checks uint64, end *recording.End, err error) {
	t.Helper()
	r, err := recording.Open(path)
	if err != nil {
		return 0, 0, nil, err
	}
	defer r.Close()
	for {
		it, err := r.Next()
		if err != nil {
			return ticks, checks, end, err
		}
		switch v := it.(type) {
		case *recording.Tick:
			ticks++
		case *recording.Checkpoint:
			checks++
		case *recording.End:
			e := *v
			end = &e
		}
	}
}

// TestKilledRecordingLosesUnderASecond kills a headless recording game
// with SIGKILL at ten random moments, from its first tick to 2.5 s in:
// each recording replays, every checkpoint in it matching, and holds every
// tick the game ran but those of the last second; the game's X server dies
// with it.
func TestKilledRecordingLosesUnderASecond(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ten games")
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 23))
	t.Logf("seed %d", seed)
	step := time.Second / 60 // timing.mode = fixed at the default 60 Hz
	var worst time.Duration
	for i := range 10 {
		at := uint64(1 + rng.IntN(150))
		if i == 0 {
			at = uint64(1 + rng.IntN(20)) // within the first half second
		}
		path := filepath.Join(t.TempDir(), "killed.rec")
		c := startChild(t, "1", "--record", path)
		if !c.until(t, "tick "+strconv.FormatUint(at, 10)+" ") {
			t.Fatalf("kill %d: the game ended before tick %d", i, at)
		}
		if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		c.drain()
		_ = c.cmd.Wait()
		gone(t, c.xvfb)

		ticks, _, end, err := recorded(t, path)
		if end != nil || !errors.Is(err, recording.ErrIncomplete) {
			t.Fatalf("kill %d: reading the recording: end %v, error %v; want it cut short", i, end, err)
		}
		ran := c.last + 1
		lost := time.Duration(ran-ticks) * step
		worst = max(worst, lost)
		t.Logf("killed after tick %d: the game ran %d ticks, the recording holds %d (%v lost)", at, ran, ticks, lost)
		if ticks > ran || lost > time.Second {
			t.Errorf("kill %d: the game ran %d ticks, the recording holds %d: %v lost, want at most a second", i, ran, ticks, lost)
		}
		res, err := framework.Replay(faultGame(), path, framework.ReplayOptions{})
		var div *runtime.DivergenceError
		if errors.As(err, &div) || !errors.Is(err, recording.ErrIncomplete) || res.Ticks != ticks {
			t.Errorf("kill %d: replay: %d ticks, %v; want the %d recorded and the recording named incomplete", i, res.Ticks, err, ticks)
		}
	}
	t.Logf("at most %v lost", worst)
}

// TestSignalStopsInOrder: SIGINT to a headless recording game is an
// ordinary shutdown request: the game exits 0 after the whole shutdown,
// with the end marker saying so, the screenshot written and its X server
// gone; the recording replays in full.
func TestSignalStopsInOrder(t *testing.T) {
	dir := t.TempDir()
	path, shot := filepath.Join(dir, "signal.rec"), filepath.Join(dir, "shot.png")
	c := startChild(t, "1", "--record", path, "--screenshot", shot)
	if !c.until(t, "tick 30 ") {
		t.Fatal("the game ended before tick 30")
	}
	if err := c.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	c.drain()
	if err := c.cmd.Wait(); err != nil {
		t.Fatalf("the game after SIGINT: %v, want exit status 0", err)
	}
	gone(t, c.xvfb)
	ticks, checks, end, err := recorded(t, path)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("reading the recording: %v", err)
	}
	if end == nil || end.Outcome != recording.Signal || end.Error != "interrupt" {
		t.Fatalf("end marker %+v, want stopped by the interrupt signal", end)
	}
	if ticks != c.last+1 || checks == 0 {
		t.Errorf("the recording holds %d ticks and %d checkpoints; the game ran %d", ticks, checks, c.last+1)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("screenshot: %v", err)
	}
	if res, err := framework.Replay(faultGame(), path, framework.ReplayOptions{}); err != nil || res.Ticks != ticks {
		t.Errorf("replay: %d ticks, %v; want all %d", res.Ticks, err, ticks)
	}
}

// TestSecondSignalStops: a game whose policy defers every request keeps
// running after the first signal (its policy sees ReasonSignal) and stops
// in order at the second.
func TestSecondSignalStops(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deferred.rec")
	c := startChild(t, "defer", "--record", path)
	if !c.until(t, "tick 10 ") {
		t.Fatal("the game ended before tick 10")
	}
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if !c.until(t, "deferred signal") {
		t.Fatal("the game ended without its policy seeing the signal")
	}
	asked := c.last
	if !c.until(t, "tick "+strconv.FormatUint(asked+10, 10)+" ") {
		t.Fatal("the game ended after deferring the signal")
	}
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	c.drain()
	if err := c.cmd.Wait(); err != nil {
		t.Fatalf("the game after the second SIGTERM: %v, want exit status 0", err)
	}
	gone(t, c.xvfb)
	_, _, end, _ := recorded(t, path)
	if end == nil || end.Outcome != recording.Signal || end.Error != "terminated" {
		t.Fatalf("end marker %+v, want stopped by the termination signal", end)
	}
}

// TestSignalStopsAReplay: Ctrl+C during a replay in a window (at
// recorded speed) ends it in order: exit 0, the result line printed, the
// screenshot taken.
func TestSignalStopsAReplay(t *testing.T) {
	dir := t.TempDir()
	path, shot := filepath.Join(dir, "long.rec"), filepath.Join(dir, "shot.png")
	rec := startChild(t, "1", "--record", path, "--frames", "240")
	rec.drain()
	if err := rec.cmd.Wait(); err != nil {
		t.Fatalf("recording: %v", err)
	}
	ticks, _, end, _ := recorded(t, path)
	if end == nil || ticks < 100 {
		t.Fatalf("the recording holds %d ticks, end %v; want a complete one of 100 or more", ticks, end)
	}
	c := startChild(t, "1", "--replay", path, "--window", "--screenshot", shot)
	if !c.until(t, "tick 20 ") {
		t.Fatal("the replay ended before tick 20")
	}
	if err := c.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	var result string
	for line := range c.lines {
		c.note(line)
		if strings.HasPrefix(line, "replayed ") {
			result = line
		}
	}
	if err := c.cmd.Wait(); err != nil {
		t.Fatalf("the replay after SIGINT: %v, want exit status 0", err)
	}
	if result == "" || c.last+1 >= ticks {
		t.Errorf("result line %q after %d of %d ticks; want the replay stopped early and reported", result, c.last+1, ticks)
	}
	if _, err := os.Stat(shot); err != nil {
		t.Errorf("screenshot: %v", err)
	}
}
