package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A host with net.start_with = 1 starts the match alone, its opponent's
// ship still (neutral input); a player who joins once the host has
// recorded 180 ticks (3 s of the match: the test waits on the host's
// recording, not the clock) takes
// the slot no one played, catches up on the host's confirmed timeline and
// plays on, and both end on the same confirmed line.
func TestAPlayerJoinsAMatchUnderWay(t *testing.T) {
	bin := processTest(t, "starts two processes for 15 s of play")
	ctx := killAfter(t)
	common := []string{"--headless", "--ticks", "900", "--set", "audio.enabled=false", "--set", "net.hash_every=1"}
	rec := filepath.Join(t.TempDir(), "host.rec")
	hr := startHost(t, exec.CommandContext(ctx, bin, append([]string{"--host", "127.0.0.1:0", "--bot", "1", "--set", "net.start_with=1", "--record", rec}, common...)...))
	hr.waitRecorded(t, rec, 180) // the match is under way without the joiner
	j := exec.CommandContext(ctx, bin, append([]string{"--join", hr.addr, "--token", hr.token, "--bot", "2"}, common...)...)
	var jout strings.Builder
	var jerr lockedText
	j.Stdout, j.Stderr = &jout, &jerr
	if err := j.Run(); err != nil {
		t.Fatalf("joiner: %v\n%s", err, jerr.String())
	}
	host, join := hr.wait(t), confirmedLine.FindString(jout.String())
	if host == "" || host != join {
		t.Fatalf("the peers end apart:\nhost: %q\njoin: %q\nhost's errors: %s\njoiner's: %s", host, join, hr.errs.String(), jerr.String())
	}
	for _, want := range []string{"has not joined: its players' input is neutral until it joins", "peer 1 joined", "peer 1 is catching up"} {
		if !strings.Contains(hr.errs.String(), want) {
			t.Errorf("the host did not say %q:\n%s", want, hr.errs.String())
		}
	}
	if !strings.Contains(jerr.String(), "caught up on the match at tick") {
		t.Errorf("the joiner did not say it caught up:\n%s", jerr.String())
	}
	t.Logf("both: %s\nhost: %s\njoiner: %s", host, strings.TrimSpace(hr.errs.String()), strings.TrimSpace(jerr.String()))
}
