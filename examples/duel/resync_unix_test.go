//go:build unix

package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A joiner whose process stops (SIGSTOP) past the 2 s cutoff but within
// net.timeout holds the host at its window for 2 s; the host then plays
// on without it. When the joiner runs again it learns that the host
// played on, resynchronises from the host's snapshot and plays on, and
// both end on the same confirmed line, every tick's hash compared. The
// test waits on the processes, not the clock: it stops the joiner once
// the host has recorded 240 ticks of the match, and lets it run again
// once the host has said it plays on without it.
func TestAStalledJoinerResynchronises(t *testing.T) {
	bin := processTest(t, "starts two processes for 15 s of play")
	ctx := killAfter(t)
	common := []string{"--headless", "--ticks", "900", "--set", "audio.enabled=false", "--set", "net.join_timeout=30s", "--set", "net.timeout=30s", "--set", "net.hash_every=1"}
	rec := filepath.Join(t.TempDir(), "host.rec")
	hr := startHost(t, exec.CommandContext(ctx, bin, append([]string{"--host", "127.0.0.1:0", "--bot", "1", "--record", rec}, common...)...))
	j := exec.CommandContext(ctx, bin, append([]string{"--join", hr.addr, "--token", hr.token, "--bot", "2"}, common...)...)
	var jout strings.Builder
	var jerr lockedText
	j.Stdout, j.Stderr = &jout, &jerr
	if err := j.Start(); err != nil {
		t.Fatal(err)
	}
	hr.waitRecorded(t, rec, 240) // the match is under way
	if err := j.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	if !hr.errs.waitFor("playing on without it", hr.done) {
		j.Process.Signal(syscall.SIGCONT)
		t.Fatalf("the host ended without playing on without the stopped joiner:\n%s", hr.errs.String())
	}
	if err := j.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if err := j.Wait(); err != nil {
		t.Fatalf("joiner: %v\n%s", err, jerr.String())
	}
	host, join := hr.wait(t), confirmedLine.FindString(jout.String())
	if host == "" || host != join {
		t.Fatalf("the peers end apart:\nhost: %q\njoin: %q\nhost's errors: %s\njoiner's: %s", host, join, hr.errs.String(), jerr.String())
	}
	for _, want := range []string{"resynchronising from the host's snapshot", "starting from the host's snapshot", "caught up on the match at tick"} {
		if !strings.Contains(jerr.String(), want) {
			t.Errorf("the joiner did not say %q:\n%s", want, jerr.String())
		}
	}
	if !strings.Contains(hr.errs.String(), "playing on without it") {
		t.Errorf("the host did not say it played on without the joiner:\n%s", hr.errs.String())
	}
	t.Logf("both: %s\nhost: %s\njoiner: %s", host, strings.TrimSpace(hr.errs.String()), strings.TrimSpace(jerr.String()))
}
