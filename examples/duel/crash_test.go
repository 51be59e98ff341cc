package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/recording"
)

// A joiner's process is killed mid-match (a crash: no goodbye) and the
// same --join command runs again at once, long before the host's
// net.timeout (20 s) would report it disconnected. The host cannot yet
// know the old run is gone, but the token proves the new run is the same
// player: once the old run has been quiet two ping intervals the new one
// takes its slot back instead of being told the match is full, catches
// up and plays on. Both processes exit with StatusOK on the same
// confirmed line, having compared the hash of every tick, and the host's
// recording ends clean.
func TestACrashedJoinerRejoinsAtOnce(t *testing.T) {
	bin := processTest(t, "starts three processes for about 15 s of play")
	ctx := killAfter(t)
	dir := t.TempDir()
	common := []string{"--headless", "--ticks", "900", "--set", "audio.enabled=false", "--set", "net.transport=udp",
		"--set", "net.timeout=20s", "--set", "net.join_timeout=30s", "--set", "net.hash_every=1"}
	hostRec := filepath.Join(dir, "host.rec")
	hr := startHost(t, exec.CommandContext(ctx, bin, append([]string{"--host", "127.0.0.1:0", "--bot", "1", "--record", hostRec}, common...)...))
	join := append([]string{"--join", hr.addr, "--token", hr.token, "--bot", "2"}, common...)
	firstRec := filepath.Join(dir, "first.rec")
	first := exec.CommandContext(ctx, bin, append(append([]string{}, join...), "--record", firstRec)...)
	var ferr lockedText
	first.Stderr = &ferr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	// The match is under way once the first joiner has recorded 240
	// ticks (4 s); its recording reaches the disk every half second.
	poll := time.NewTicker(50 * time.Millisecond)
	defer poll.Stop()
	for deadline := time.Now().Add(90 * time.Second); recordedTicks(firstRec) < 240; <-poll.C {
		if time.Now().After(deadline) {
			t.Fatalf("the first joiner recorded %d ticks in 90 s, want 240:\n%s", recordedTicks(firstRec), ferr.String())
		}
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	first.Wait()
	killed := time.Now()

	again := exec.CommandContext(ctx, bin, join...)
	var aerr strings.Builder
	again.Stderr = &aerr
	aout, err := again.Output()
	astatus := exitStatus(err)
	herr := hr.cmd.Wait()
	<-hr.done
	hout, hlog := hr.out.String(), hr.errs.String()
	if strings.Contains(string(aout)+aerr.String(), "the match is full") {
		t.Fatalf("the new run was refused:\n%s%s", aout, aerr.String())
	}
	if st := exitStatus(herr); st != framework.StatusOK || astatus != framework.StatusOK {
		t.Fatalf("exit statuses: host %d, rejoined joiner %d; want %d (ok) for both\nhost: %s%s\nrejoined: %s%s",
			st, astatus, framework.StatusOK, hout, hlog, aout, aerr.String())
	}
	host, rejoined := confirmedLine.FindString(hout), confirmedLine.FindString(string(aout))
	if host == "" || host != rejoined {
		t.Fatalf("the peers end apart:\nhost: %q\nrejoined: %q\nhost's errors: %s\nrejoined's output: %s %s", host, rejoined, hlog, aout, aerr.String())
	}
	for _, want := range []string{"rejoining the match as peer 1", "caught up on the match at tick"} {
		if !strings.Contains(aerr.String(), want) {
			t.Errorf("the new run did not say %q:\n%s", want, aerr.String())
		}
	}
	for _, want := range []string{"peer 1 reconnected", "peer 1 is catching up", "peer 1 caught up and plays on"} {
		if !strings.Contains(hlog, want) {
			t.Errorf("the host did not say %q:\n%s", want, hlog)
		}
	}
	// The slot came back before the host's timeout noticed the crash: the
	// match never waited for a disconnected player.
	if strings.Contains(hlog, "peer 1 disconnected") {
		t.Errorf("the host reported the killed joiner disconnected: the new run did not take its slot back at once:\n%s", hlog)
	}
	if end := endMarker(t, hostRec); end.Outcome != recording.Clean {
		t.Errorf("the host's recording ends %v (%q), want %v", end.Outcome, end.Error, recording.Clean)
	}
	t.Logf("both: %s (the match ended %v after the kill)\nthe host: %s\nthe new run: %s", host,
		time.Since(killed).Round(time.Millisecond), strings.TrimSpace(hlog), strings.TrimSpace(aerr.String()))
}
