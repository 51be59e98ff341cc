package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// A host and a joiner play seeded random input over loopback UDP and
// QUIC; the joiner's process is killed 3 s into the match (no goodbye: a
// crash) and, once the host has reported it disconnected, the same
// --join command is run again. The new process takes its slot back,
// catches up on the host's confirmed inputs and plays on, and both end on
// the same confirmed line, having compared the hash of every tick.
func TestARestartedJoinerRejoins(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three processes for 10 s of play each transport")
	}
	bin := buildDuel(t)
	for _, tr := range []string{"udp", "quic"} {
		t.Run(tr, func(t *testing.T) { rejoin(t, bin, tr) })
	}
}

func rejoin(t *testing.T, bin, tr string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	common := []string{"--headless", "--ticks", "600", "--set", "audio.enabled=false", "--set", "net.join_timeout=30s",
		"--set", "net.timeout=1s", "--set", "net.hash_every=1", "--set", "net.transport=" + tr}
	hr := startHost(t, exec.CommandContext(ctx, bin, append([]string{"--host", "127.0.0.1:0", "--bot", "1"}, common...)...))
	join := append([]string{"--join", hr.addr, "--token", hr.token, "--bot", "2"}, common...)
	first := exec.CommandContext(ctx, bin, join...)
	var ferr strings.Builder
	first.Stderr = &ferr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // the match is under way
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	first.Wait()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(hr.errs.String(), "peer 1 disconnected"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the host never reported the killed joiner disconnected:\n%s", hr.errs.String())
		}
	}
	again := exec.CommandContext(ctx, bin, join...)
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
	for _, want := range []string{"caught up on the match at tick"} {
		if !strings.Contains(aerr.String(), want) {
			t.Errorf("the restarted joiner did not say %q:\n%s", want, aerr.String())
		}
	}
	for _, want := range []string{"peer 1 rejoins", "peer 1 caught up and plays on"} {
		if !strings.Contains(hr.errs.String(), want) {
			t.Errorf("the host did not say %q:\n%s", want, hr.errs.String())
		}
	}
	t.Logf("both: %s\nthe restarted joiner: %s", host, strings.TrimSpace(aerr.String()))
}
