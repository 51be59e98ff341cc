package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	joinLine      = regexp.MustCompile(`--join (\S+) --token (\S+)`)
	confirmedLine = regexp.MustCompile(`confirmed tick (\d+) hash ([0-9a-f]{16})`)
)

// Two real processes of the duel play 20 s against each other over the
// loopback, each with seeded random input (--bot), over UDP and over QUIC,
// and end on the same confirmed tick with the same world hash.
func TestTwoProcesses(t *testing.T) {
	bin := processTest(t, "starts two processes for 20 s of play each transport")
	for _, tr := range []string{"udp", "quic"} {
		t.Run(tr, func(t *testing.T) {
			host, join := playProcesses(t, bin, tr, 1230, nil, nil)
			if host != join {
				t.Fatalf("the peers end apart:\nhost: %s\njoin: %s", host, join)
			}
			t.Logf("both peers: %s", host)
		})
	}
}

// processTest skips the test in -short mode (why says what it starts)
// and builds the duel for it.
func processTest(t *testing.T, why string) string {
	t.Helper()
	if testing.Short() {
		t.Skip(why)
	}
	return buildDuel(t)
}

// killAfter returns a context that kills the test's processes after two
// minutes, whatever happens, and is cancelled when the test ends.
func killAfter(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// buildDuel builds the duel with env added to the go command's
// environment (CGO_ENABLED=0 for a build with no window or sound).
func buildDuel(t *testing.T, env ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "duel")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), env...)
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("go build: %v", err)
	}
	return bin
}

// hostRun is a started host process: the address and token of the join
// line it printed, then what it writes after it.
type hostRun struct {
	cmd         *exec.Cmd
	addr, token string
	out         strings.Builder
	errs        lockedText // read while the host runs
	done        chan struct{}
}

// lockedText is a process's output that the test may read while the
// process still writes it, and wait on as it grows.
type lockedText struct {
	mu   sync.Mutex
	b    strings.Builder
	grew chan struct{} // closed by the next write
}

func (l *lockedText) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.grew != nil {
		close(l.grew)
		l.grew = nil
	}
	return l.b.Write(p)
}

// waitFor waits until the text says want, and reports whether it did
// before done was closed (the process writing it ended): a test waits on
// what a process says, not on the clock, so a loaded machine only makes
// it slower. The test's kill deadline (killAfter) bounds it.
func (l *lockedText) waitFor(want string, done <-chan struct{}) bool {
	for {
		l.mu.Lock()
		if strings.Contains(l.b.String(), want) {
			l.mu.Unlock()
			return true
		}
		if l.grew == nil {
			l.grew = make(chan struct{})
		}
		grew := l.grew
		l.mu.Unlock()
		select {
		case <-grew:
		case <-done:
			return strings.Contains(l.String(), want)
		}
	}
}

func (l *lockedText) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startHost starts the host command h and reads its standard output up to
// the join line (failing the test when it prints none); the rest of the
// output is kept for wait.
func startHost(t *testing.T, h *exec.Cmd) *hostRun {
	t.Helper()
	r := &hostRun{cmd: h, done: make(chan struct{})}
	out, err := h.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h.Stderr = &r.errs
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if m := joinLine.FindStringSubmatch(lines.Text()); m != nil {
			r.addr, r.token = m[1], m[2]
			break
		}
	}
	if r.addr == "" {
		h.Wait()
		t.Fatalf("the host printed no join line; its errors: %s", r.errs.String())
	}
	go func() { io.Copy(&r.out, out); close(r.done) }()
	return r
}

// waitRecorded waits until the host's recording at rec holds n ticks
// (the match is under way that far), reading it again every time the
// recording flushes, about once a second; it fails the test when the host
// ends first. The test's kill deadline (killAfter) bounds it.
func (r *hostRun) waitRecorded(t *testing.T, rec string, n int64) {
	t.Helper()
	poll := time.NewTicker(100 * time.Millisecond)
	defer poll.Stop()
	for recordedTicks(rec) < n {
		select {
		case <-poll.C:
		case <-r.done:
			t.Fatalf("the host ended having recorded %d ticks, before %d:\n%s", recordedTicks(rec), n, r.errs.String())
		}
	}
}

// wait waits for the host to end, failing the test when it fails, and
// returns its confirmed line ("" when it printed none).
func (r *hostRun) wait(t *testing.T) string {
	t.Helper()
	<-r.done
	if err := r.cmd.Wait(); err != nil {
		t.Fatalf("host: %v\n%s", err, r.errs.String())
	}
	return confirmedLine.FindString(r.out.String())
}

// A dedicated host (--dedicated) serves a match it plays no seat in, with
// no display, no X server to start (no Xvfb on its PATH), no sound device
// tried, and built without cgo (so without GLFW, OpenGL or ALSA): two
// headless joiners of the ordinary build play 10 s of seeded random input
// through it, and all three end on the same confirmed tick and hash, as
// does the replay of the host's recording (--record).
func TestDedicatedHost(t *testing.T) {
	bin := processTest(t, "starts three processes for 10 s of play")
	server := buildDuel(t, "CGO_ENABLED=0")
	ctx := killAfter(t)
	common := []string{"--ticks", "630", "--set", "net.join_timeout=30s"}
	rec := filepath.Join(t.TempDir(), "server.rec")
	h := exec.CommandContext(ctx, server, append([]string{"--dedicated", "--host", "127.0.0.1:0", "--record", rec}, common...)...)
	h.Env = append(os.Environ(), "DISPLAY=", "WAYLAND_DISPLAY=", "PATH="+t.TempDir())
	hr := startHost(t, h)
	addr, token := hr.addr, hr.token
	type result struct {
		out, err string
		fail     error
	}
	results := make(chan result, 2)
	for bot := range 2 {
		j := exec.CommandContext(ctx, bin, append([]string{"--headless", "--set", "audio.enabled=false", "--join", addr, "--token", token, "--bot", fmt.Sprint(bot + 1)}, common...)...)
		go func() {
			var jerr strings.Builder
			j.Stderr = &jerr
			jout, err := j.Output()
			results <- result{string(jout), jerr.String(), err}
		}()
	}
	var joined []string
	for range 2 {
		r := <-results
		if r.fail != nil {
			t.Fatalf("joiner: %v\n%s", r.fail, r.err)
		}
		joined = append(joined, confirmedLine.FindString(r.out))
	}
	host := hr.wait(t)
	if strings.Contains(hr.errs.String(), "sound") {
		t.Errorf("the host tried a sound device: %s", hr.errs.String())
	}
	if host == "" || host != joined[0] || host != joined[1] {
		t.Fatalf("the peers end apart:\nhost:    %q %s\njoiners: %q", host, hr.errs.String(), joined)
	}
	wantReplay(t, ctx, bin, rec, host, "the dedicated host's")
	t.Logf("all three peers and the replay of the host's recording: %s", host)
}

// wantReplay replays the recording rec of whose with bin and fails the
// test unless the replay ends on the match's confirmed line.
func wantReplay(t *testing.T, ctx context.Context, bin, rec, line, whose string) {
	t.Helper()
	out, err := exec.CommandContext(ctx, bin, "--replay", rec).CombinedOutput()
	if got := confirmedLine.FindString(string(out)); err != nil || got != line {
		t.Errorf("--replay of %s recording: %v, ends with %q, the match with %q\n%s", whose, err, got, line, out)
	}
}

// playProcesses runs a host and a joiner of bin for ticks headless ticks over
// transport tr on 127.0.0.1, with hostArgs and joinArgs added to each
// one's flags, and returns each one's confirmed line. Both processes are
// killed after two minutes whatever happens.
func playProcesses(t *testing.T, bin, tr string, ticks int, hostArgs, joinArgs []string) (host, join string) {
	t.Helper()
	ctx := killAfter(t)
	args := func(extra ...string) []string {
		return append([]string{"--headless", "--ticks", fmt.Sprint(ticks), "--set", "net.transport=" + tr,
			"--set", "audio.enabled=false", "--set", "net.join_timeout=30s"}, extra...)
	}
	hr := startHost(t, exec.CommandContext(ctx, bin, args(append([]string{"--host", "127.0.0.1:0", "--bot", "1"}, hostArgs...)...)...))
	j := exec.CommandContext(ctx, bin, args(append([]string{"--join", hr.addr, "--token", hr.token, "--bot", "2"}, joinArgs...)...)...)
	var jerr strings.Builder
	j.Stderr = &jerr
	jout, err := j.Output()
	if err != nil {
		t.Fatalf("joiner: %v\n%s", err, jerr.String())
	}
	host = hr.wait(t)
	join = confirmedLine.FindString(string(jout))
	if host == "" || join == "" {
		t.Fatalf("a peer printed no confirmed line:\nhost: %q %s\njoin: %q %s", hr.out.String(), hr.errs.String(), jout, jerr.String())
	}
	return host, join
}

// Two real processes play 10 s over loopback UDP, each recording with
// --record; each recording then replays with --replay, no network, to
// the confirmed line its live run ended with, and --replay A --compare B
// finds no difference.
func TestTwoProcessesRecord(t *testing.T) {
	dir, bin := t.TempDir(), processTest(t, "starts two processes for 10 s of play")
	hostRec, joinRec := filepath.Join(dir, "host.rec"), filepath.Join(dir, "join.rec")
	host, join := playProcesses(t, bin, "udp", 600, []string{"--record", hostRec}, []string{"--record", joinRec})
	if host != join {
		t.Fatalf("the peers end apart:\nhost: %s\njoin: %s", host, join)
	}
	run := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
		return string(out), err
	}
	for _, c := range []struct{ rec, live string }{{hostRec, host}, {joinRec, join}} {
		out, err := run("--replay", c.rec)
		if err != nil {
			t.Fatalf("--replay %s: %v\n%s", c.rec, err, out)
		}
		if got := confirmedLine.FindString(out); got != c.live {
			t.Errorf("--replay %s ends with %q, the live run with %q\n%s", filepath.Base(c.rec), got, c.live, out)
		}
		t.Logf("%s", strings.TrimSpace(out))
	}
	out, err := run("--replay", hostRec, "--compare", joinRec)
	if err != nil || !strings.Contains(out, "no difference") {
		t.Errorf("--replay host --compare joiner: %v\n%s", err, out)
	}
	t.Logf("compare: %s", strings.TrimSpace(out))
}
