package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A host and a joiner play seeded random input over loopback UDP and
// QUIC; the joiner's process is killed into the match (no goodbye: a
// crash) and, once the host has reported it disconnected, the same
// --join command is run again. The new process takes its slot back,
// catches up on the host's confirmed inputs and plays on, and both end on
// the same confirmed line, having compared the hash of every tick. Over
// UDP it is killed 7 s in and starts from the host's snapshot; over QUIC
// 3 s in, and runs every input from tick 0.
func TestARestartedJoinerRejoins(t *testing.T) {
	bin := processTest(t, "starts three processes for 10 to 15 s of play each transport")
	t.Run("udp", func(t *testing.T) { rejoin(t, bin, "udp", 900, 7*time.Second, true) })
	t.Run("quic", func(t *testing.T) { rejoin(t, bin, "quic", 600, 3*time.Second, false) })
}

// rejoin plays it over tr for ticks ticks, killing the joiner after kill;
// the restarted joiner starts from the host's snapshot when snapshot is
// set, and otherwise records the match (--record: every input from tick
// 0, then what it plays) and its recording replays to the match's line.
func rejoin(t *testing.T, bin, tr string, ticks int, kill time.Duration, snapshot bool) {
	ctx := killAfter(t)
	common := []string{"--headless", "--ticks", fmt.Sprint(ticks), "--set", "audio.enabled=false", "--set", "net.join_timeout=30s",
		"--set", "net.timeout=1s", "--set", "net.hash_every=1", "--set", "net.transport=" + tr}
	hr := startHost(t, exec.CommandContext(ctx, bin, append([]string{"--host", "127.0.0.1:0", "--bot", "1"}, common...)...))
	join := append([]string{"--join", hr.addr, "--token", hr.token, "--bot", "2"}, common...)
	first := exec.CommandContext(ctx, bin, join...)
	var ferr strings.Builder
	first.Stderr = &ferr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(kill) // the match is under way
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	first.Wait()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(hr.errs.String(), "peer 1 disconnected"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the host never reported the killed joiner disconnected:\n%s", hr.errs.String())
		}
	}
	rec := filepath.Join(t.TempDir(), "rejoined.rec")
	againArgs := join
	if !snapshot {
		againArgs = append(append([]string{}, join...), "--record", rec)
	}
	again := exec.CommandContext(ctx, bin, againArgs...)
	var aerr strings.Builder
	again.Stderr = &aerr
	aout, err := again.Output()
	if err != nil {
		t.Fatalf("the restarted joiner: %v\n%s", err, aerr.String())
	}
	host, rejoined := hr.wait(t), confirmedLine.FindString(string(aout))
	if host == "" || host != rejoined {
		t.Fatalf("the peers end apart:\nhost: %q\nrejoined: %q\nhost's errors: %s\nrejoined's output: %s %s", host, rejoined, hr.errs.String(), aout, aerr.String())
	}
	if !snapshot {
		wantReplay(t, ctx, bin, rec, host, "the rejoined joiner's")
	}
	if !strings.Contains(aerr.String(), "caught up on the match at tick") {
		t.Errorf("the restarted joiner did not say it caught up:\n%s", aerr.String())
	}
	if got := strings.Contains(aerr.String(), "starting from the host's snapshot"); got != snapshot {
		t.Errorf("the restarted joiner started from a snapshot: %v, want %v:\n%s", got, snapshot, aerr.String())
	}
	for _, want := range []string{"peer 1 is catching up", "peer 1 caught up and plays on"} {
		if !strings.Contains(hr.errs.String(), want) {
			t.Errorf("the host did not say %q:\n%s", want, hr.errs.String())
		}
	}
	t.Logf("both: %s\nthe restarted joiner: %s", host, strings.TrimSpace(aerr.String()))
}
