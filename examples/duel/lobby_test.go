package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/internal/lobbytest"
	"github.com/metronome-go/metronome/lobby/server"
)

var roomLine = regexp.MustCompile(`room ([A-Z0-9]{3}-[A-Z0-9]{3}): give this code`)

// startLobby runs a lobby on loopback and returns its ws:// URL.
func startLobby(t *testing.T) string { return lobbytest.Start(t, server.Options{}) }

// Two processes of the duel meet through a lobby with the game's flags:
// one makes a room (--create) and prints its code, the other enters it
// (--room CODE); each says it connected (direct, with the round trip),
// and both play 5 s of seeded input with no window to the same
// confirmed tick and hash.
func TestTwoProcessesMeetByRoomCode(t *testing.T) {
	bin := processTest(t, "starts two processes for 5 s of play met through a lobby")
	url := startLobby(t)
	ctx := killAfter(t)
	common := []string{"--no-window", "--ticks", "300", "--set", "audio.enabled=false", "--set", "net.join_timeout=60s", "--lobby", url}
	h := exec.CommandContext(ctx, bin, append([]string{"--create", "--bot", "1"}, common...)...)
	hout, err := h.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var herr lockedText
	h.Stderr = &herr
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(hout)
	var code string
	var hostText strings.Builder
	for code == "" && lines.Scan() {
		hostText.WriteString(lines.Text() + "\n")
		if m := roomLine.FindStringSubmatch(lines.Text()); m != nil {
			code = m[1]
		}
	}
	if code == "" {
		h.Wait()
		t.Fatalf("the creator printed no room code:\n%s%s", hostText.String(), herr.String())
	}
	hostDone := make(chan struct{})
	go func() { io.Copy(&hostText, hout); close(hostDone) }()
	j := exec.CommandContext(ctx, bin, append([]string{"--room", code, "--bot", "2"}, common...)...)
	var jerr strings.Builder
	j.Stderr = &jerr
	jout, err := j.Output()
	if err != nil {
		t.Fatalf("joiner: %v\n%s%s", err, jout, jerr.String())
	}
	<-hostDone
	if err := h.Wait(); err != nil {
		t.Fatalf("creator: %v\n%s%s", err, hostText.String(), herr.String())
	}
	host, join := confirmedLine.FindString(hostText.String()), confirmedLine.FindString(string(jout))
	if host == "" || host != join {
		t.Fatalf("the peers end apart:\ncreator: %s\njoiner: %s", hostText.String(), jout)
	}
	for who, out := range map[string]string{"creator": hostText.String(), "joiner": string(jout)} {
		for _, want := range []string{"found 2 players, connecting", "(direct, round trip ", "match started"} {
			if !strings.Contains(out, want) {
				t.Errorf("the %s's output lacks %q:\n%s", who, want, out)
			}
		}
	}
	t.Logf("both peers: %s", host)
}

// A player who cannot meet is told why, through the game's flags: a
// room code no room has, and a lobby that does not answer.
func TestLobbyFailuresSayWhy(t *testing.T) {
	bin := processTest(t, "starts processes that fail to meet")
	url := startLobby(t)
	ctx := killAfter(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--lobby", url, "--room", "KXR-4TQ"}, "room unknown or expired"},
		{[]string{"--lobby", "ws://127.0.0.1:1", "--quick", "2"}, "lobby unreachable"},
	} {
		cmd := exec.CommandContext(ctx, bin, append([]string{"--no-window", "--bot", "1", "--set", "audio.enabled=false"}, c.args...)...)
		var errs strings.Builder
		cmd.Stderr = &errs
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%q: %v, stderr %q; want exit status 1 and %q", c.args, err, errs.String(), c.want)
		}
	}
}

// A dedicated host registers with the lobby (--dedicated --lobby URL)
// and is handed the room two quick-match players fill (--quick 2): it
// serves their match with no seat, and all three end on the same
// confirmed tick and hash.
func TestADedicatedHostServesAQuickMatch(t *testing.T) {
	bin := processTest(t, "starts three processes for 5 s of play met through a lobby")
	url := startLobby(t)
	ctx := killAfter(t)
	common := []string{"--ticks", "300", "--set", "audio.enabled=false", "--set", "net.join_timeout=60s", "--lobby", url}
	h := exec.CommandContext(ctx, bin, append([]string{"--dedicated"}, common...)...)
	hout, err := h.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var herr lockedText
	h.Stderr = &herr
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(hout)
	var hostText strings.Builder
	for lines.Scan() {
		hostText.WriteString(lines.Text() + "\n")
		if strings.HasPrefix(lines.Text(), "dedicated host: waiting") {
			break
		}
	}
	if !strings.Contains(hostText.String(), "dedicated host: waiting") {
		h.Wait()
		t.Fatalf("the dedicated host did not say it waits:\n%s%s", hostText.String(), herr.String())
	}
	hostDone := make(chan struct{})
	go func() { io.Copy(&hostText, hout); close(hostDone) }()
	type result struct {
		out, errs string
		err       error
	}
	results := make(chan result, 2)
	for bot := range 2 {
		j := exec.CommandContext(ctx, bin, append([]string{"--no-window", "--quick", "2", "--bot", fmt.Sprint(bot + 1)}, common...)...)
		go func() {
			var jerr strings.Builder
			j.Stderr = &jerr
			out, err := j.Output()
			results <- result{string(out), jerr.String(), err}
		}()
	}
	var ends []string
	for range 2 {
		r := <-results
		if r.err != nil {
			t.Fatalf("a quick player: %v\n%s%s", r.err, r.out, r.errs)
		}
		if !strings.Contains(r.out, "found 3 players, connecting") {
			t.Errorf("a quick player did not say it found the room of 3 (two players and the host):\n%s", r.out)
		}
		ends = append(ends, confirmedLine.FindString(r.out))
	}
	<-hostDone
	if err := h.Wait(); err != nil {
		t.Fatalf("dedicated host: %v\n%s%s", err, hostText.String(), herr.String())
	}
	host := confirmedLine.FindString(hostText.String())
	if host == "" || ends[0] != host || ends[1] != host {
		t.Fatalf("the three end apart:\nhost: %s\nplayers: %q", hostText.String(), ends)
	}
	if !strings.Contains(hostText.String(), "a dedicated host") {
		t.Errorf("the host's output does not say it serves as a dedicated host:\n%s", hostText.String())
	}
	t.Logf("host and both players: %s", host)
}
