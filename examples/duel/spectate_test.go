package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A host and a joiner play 15 s of seeded random input over loopback
// UDP; a spectator (--spectate, with no window, recording with --record)
// joins about 7 s into the match, catches up on every input from tick 0
// (a recording starts there, so not from a snapshot) and follows live;
// all three end on the same confirmed line, and so does the replay of the
// spectator's recording. (TestARestartedJoinerRejoins starts a follower
// from the host's snapshot.)
func TestSpectatorWatchesTwoProcesses(t *testing.T) {
	bin := processTest(t, "starts three processes for 15 s of play")
	ctx := killAfter(t)
	common := []string{"--ticks", "900", "--set", "audio.enabled=false", "--set", "net.join_timeout=30s"}
	hr := startHost(t, exec.CommandContext(ctx, bin, append([]string{"--headless", "--host", "127.0.0.1:0", "--bot", "1"}, common...)...))
	addr, token := hr.addr, hr.token
	j := exec.CommandContext(ctx, bin, append([]string{"--headless", "--join", addr, "--token", token, "--bot", "2"}, common...)...)
	var jout, jerr strings.Builder
	j.Stdout, j.Stderr = &jout, &jerr
	if err := j.Start(); err != nil {
		t.Fatal(err)
	}
	<-time.After(7 * time.Second) // the match is well under way: more than 300 ticks in
	rec := filepath.Join(t.TempDir(), "spectator.rec")
	s := exec.CommandContext(ctx, bin, append([]string{"--no-window", "--spectate", addr, "--token", token, "--record", rec}, common...)...)
	var serr strings.Builder
	s.Stderr = &serr
	sout, err := s.Output()
	if err != nil {
		t.Fatalf("spectator: %v\n%s", err, serr.String())
	}
	if err := j.Wait(); err != nil {
		t.Fatalf("joiner: %v\n%s", err, jerr.String())
	}
	host, join, spec := hr.wait(t), confirmedLine.FindString(jout.String()), confirmedLine.FindString(string(sout))
	if host == "" || host != join || host != spec {
		t.Fatalf("the three end apart:\nhost: %q\njoin: %q\nspectator: %q\nhost's errors: %s\nspectator's output: %s %s", host, join, spec, hr.errs.String(), sout, serr.String())
	}
	if strings.Contains(serr.String(), "starting from the host's snapshot of tick") {
		t.Errorf("the spectator records, so it should run every input from tick 0, not start from a snapshot:\n%s", serr.String())
	}
	wantReplay(t, ctx, bin, rec, host, "the spectator's")
	if !strings.Contains(hr.errs.String(), "spectator (peer 2) joined") {
		t.Errorf("the host did not report the spectator's arrival:\n%s", hr.errs.String())
	}
	t.Logf("all three: %s", host)
}
