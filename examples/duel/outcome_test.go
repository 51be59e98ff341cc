package main

import (
	"bufio"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/recording"
)

// endMarker reads the recording at path to its end marker.
func endMarker(t *testing.T, path string) *recording.End {
	t.Helper()
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for {
		it, err := r.Next()
		if err == io.EOF {
			t.Fatalf("%s has no end marker", path)
		}
		if err != nil {
			t.Fatal(err)
		}
		if e, ok := it.(*recording.End); ok {
			end := *e
			return &end
		}
	}
}

// exitStatus is a finished command's exit status.
func exitStatus(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// A host killed mid-match is gone for its joiner within net.timeout, not
// net.join_timeout: the joiner exits with StatusHostGone, says so in
// words instead of a confirmed line, and its recording's end marker says
// the host is gone.
func TestAKilledHostIsGoneForItsJoiner(t *testing.T) {
	bin := processTest(t, "starts two processes for a few seconds of play")
	ctx := killAfter(t)
	common := []string{"--headless", "--ticks", "6000", "--set", "audio.enabled=false", "--set", "net.timeout=1s", "--set", "net.join_timeout=60s"}
	hr := startHost(t, exec.CommandContext(ctx, bin, append([]string{"--host", "127.0.0.1:0", "--bot", "1"}, common...)...))
	rec := filepath.Join(t.TempDir(), "join.rec")
	j := exec.CommandContext(ctx, bin, append([]string{"--join", hr.addr, "--token", hr.token, "--bot", "2", "--record", rec}, common...)...)
	jout, err := j.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var jerr lockedText
	j.Stderr = &jerr
	if err := j.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(jout)
	for lines.Scan() && !strings.HasPrefix(lines.Text(), "match started") {
	}
	var rest strings.Builder
	done := make(chan struct{})
	go func() { io.Copy(&rest, jout); close(done) }()
	// The match is under way once the joiner's recording holds confirmed
	// ticks (it is handed to the disk every half second). Its size says
	// nothing: the header alone (the whole configuration) can pass any
	// fixed count of bytes before the first tick.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if recordedTicks(rec) >= 30 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the joiner's recording never grew: the match did not get under way:\n%s", jerr.String())
		}
	}
	if err := hr.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	hr.cmd.Wait()
	killed := time.Now()
	<-done
	err = j.Wait()
	took := time.Since(killed)
	if st := exitStatus(err); st != framework.StatusHostGone {
		t.Errorf("joiner: exit status %d, want %d (host gone):\n%s\n%s", st, framework.StatusHostGone, rest.String(), jerr.String())
	}
	if took > 20*time.Second {
		t.Errorf("the joiner took %v to end after the host died: want about net.timeout (1s), far from net.join_timeout (60s)", took)
	}
	if out := rest.String(); !strings.Contains(out, "the host is gone") || confirmedLine.MatchString(out) {
		t.Errorf("joiner's last lines %q: want the host gone in words, no confirmed line", out)
	}
	if end := endMarker(t, rec); end.Outcome != recording.HostGone {
		t.Errorf("the joiner's recording ends %v (%q), want %v", end.Outcome, end.Error, recording.HostGone)
	}
	t.Logf("the joiner ended %v after the host died: %s", took.Round(time.Millisecond), strings.TrimSpace(jerr.String()))
}

// Two processes whose simulations differ (a build with the duel_drift
// tag, one of them run with DUEL_DRIFT=1) end desynced: both exit with
// StatusDesynced, neither prints a confirmed line, and both recordings'
// end markers say the match desynced.
func TestADesyncEndsBothProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two processes for a few seconds of play")
	}
	bin := buildDuel(t, "GOFLAGS=-tags=duel_drift")
	ctx := killAfter(t)
	dir := t.TempDir()
	common := []string{"--headless", "--ticks", "1200", "--set", "audio.enabled=false", "--set", "net.hash_every=10"}
	h := exec.CommandContext(ctx, bin, append([]string{"--host", "127.0.0.1:0", "--bot", "1", "--record", filepath.Join(dir, "host.rec")}, common...)...)
	hr := startHost(t, h)
	j := exec.CommandContext(ctx, bin, append([]string{"--join", hr.addr, "--token", hr.token, "--bot", "2", "--record", filepath.Join(dir, "join.rec")}, common...)...)
	j.Env = append(j.Environ(), "DUEL_DRIFT=1")
	var jerr strings.Builder
	j.Stderr = &jerr
	jout, jrun := j.Output()
	herr := hr.cmd.Wait()
	<-hr.done
	for _, p := range []struct {
		who      string
		err      error
		out, msg string
		rec      string
	}{{"host", herr, hr.out.String(), hr.errs.String(), "host.rec"}, {"joiner", jrun, string(jout), jerr.String(), "join.rec"}} {
		if st := exitStatus(p.err); st != framework.StatusDesynced {
			t.Errorf("%s: exit status %d, want %d (desynced):\n%s%s", p.who, st, framework.StatusDesynced, p.out, p.msg)
		}
		if !strings.Contains(p.out, "desynced at tick") || confirmedLine.MatchString(p.out) {
			t.Errorf("%s's output %q: want the desync in words, no confirmed line", p.who, p.out)
		}
		if end := endMarker(t, filepath.Join(dir, p.rec)); end.Outcome != recording.Desynced || !strings.Contains(end.Error, "desynced at tick") {
			t.Errorf("%s's recording ends %v (%q), want %v naming the tick", p.who, end.Outcome, end.Error, recording.Desynced)
		}
	}
}
