package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/recording"
)

// A host and a joiner play seeded random input over loopback UDP and
// QUIC; the joiner's process is killed into the match (no goodbye: a
// crash) and, once the host has reported it disconnected, the same
// --join command is run again. The new process takes its slot back,
// catches up on the host's confirmed inputs and plays on, and both end on
// the same confirmed line, having compared the hash of every tick. Over
// UDP it is killed once it has recorded 420 ticks (7 s) and starts from
// the host's snapshot (the host's log is more than 300 ticks ahead); over
// QUIC at 180 ticks, and runs every input from tick 0. The test waits on
// the first joiner's recording, not on the clock: on a loaded machine a
// process takes seconds to start.
func TestARestartedJoinerRejoins(t *testing.T) {
	bin := processTest(t, "starts three processes for 10 to 15 s of play each transport")
	t.Run("udp", func(t *testing.T) { rejoin(t, bin, "udp", 900, 420, true) })
	t.Run("quic", func(t *testing.T) { rejoin(t, bin, "quic", 600, 180, false) })
}

// recordedTicks returns how many ticks the recording at path holds so
// far, as its process writes it (0 before it has any).
func recordedTicks(path string) int64 {
	r, err := recording.Open(path)
	if err != nil {
		return 0
	}
	defer r.Close()
	var n int64
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

// rejoin plays it over tr for ticks ticks, killing the joiner once it has
// recorded kill ticks;
// the restarted joiner starts from the host's snapshot when snapshot is
// set, and otherwise records the match (--record: every input from tick
// 0, then what it plays) and its recording replays to the match's line.
func rejoin(t *testing.T, bin, tr string, ticks int, kill int64, snapshot bool) {
	ctx := killAfter(t)
	common := []string{"--headless", "--ticks", fmt.Sprint(ticks), "--set", "audio.enabled=false", "--set", "net.join_timeout=30s",
		"--set", "net.timeout=1s", "--set", "net.hash_every=1", "--set", "net.transport=" + tr}
	hr := startHost(t, exec.CommandContext(ctx, bin, append([]string{"--host", "127.0.0.1:0", "--bot", "1"}, common...)...))
	join := append([]string{"--join", hr.addr, "--token", hr.token, "--bot", "2"}, common...)
	firstRec := filepath.Join(t.TempDir(), "first.rec")
	first := exec.CommandContext(ctx, bin, append(append([]string{}, join...), "--record", firstRec)...)
	var ferr lockedText
	first.Stderr = &ferr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	// The match is under way: the first joiner has recorded kill ticks
	// (its recording loses less than a second when killed).
	for deadline := time.Now().Add(90 * time.Second); recordedTicks(firstRec) < kill; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the first joiner recorded %d ticks in 90 s, want %d:\n%s", recordedTicks(firstRec), kill, ferr.String())
		}
	}
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
