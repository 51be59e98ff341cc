//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"
)

var inspectLine = regexp.MustCompile(`inspecting the game as it plays: open (http://\S+)`)

// A host under --inspect plays a match against a joiner, two processes
// over loopback UDP: while the match runs, the inspector's API follows
// its confirmed ticks (the session is live and grows, the timeline has
// the match's net figures, an entity reads at a confirmed tick), and
// after the match ends a seek to its last confirmed tick gives the world
// hash the match's confirmed line names. Under -race the host is built
// with -race too.
func TestInspectorFollowsALiveMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two processes for 10 s of play")
	}
	bin := filepath.Join(t.TempDir(), "duel")
	build := []string{"build", "-o", bin}
	if raceBuild {
		build = append(build, "-race")
	}
	cmd := exec.Command("go", append(build, ".")...)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go build: %v", err)
	}
	ctx := killAfter(t)
	common := []string{"--headless", "--ticks", "600", "--set", "audio.enabled=false", "--set", "net.join_timeout=30s"}
	h := exec.CommandContext(ctx, bin, append([]string{"--host", "127.0.0.1:0", "--bot", "1", "--inspect", "127.0.0.1:0"}, common...)...)
	var hout, herr lockedText
	h.Stdout, h.Stderr = &hout, &herr
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	hostDone := make(chan struct{})
	var hostErr error
	go func() { hostErr = h.Wait(); close(hostDone) }()
	t.Cleanup(func() { h.Process.Kill(); <-hostDone })
	if !hout.waitFor("--token ", hostDone) {
		t.Fatalf("the host printed no join line: %v\n%s\n%s", hostErr, hout.String(), herr.String())
	}
	jl := joinLine.FindStringSubmatch(hout.String())
	j := exec.CommandContext(ctx, bin, append([]string{"--join", jl[1], "--token", jl[2], "--bot", "2"}, common...)...)
	var jout, jerr lockedText
	j.Stdout, j.Stderr = &jout, &jerr
	if err := j.Start(); err != nil {
		t.Fatal(err)
	}
	joinDone := make(chan struct{})
	var joinErr error
	go func() { joinErr = j.Wait(); close(joinDone) }()
	if !hout.waitFor("inspecting the game as it plays", hostDone) {
		t.Fatalf("the host printed no inspect line: %v\n%s\n%s", hostErr, hout.String(), herr.String())
	}
	url := inspectLine.FindStringSubmatch(hout.String())[1]

	// While the match plays: the page's requests wake the follower,
	// which reads the confirmed ticks as the host records them.
	type session struct {
		Ticks int  `json:"ticks"`
		Live  bool `json:"live"`
		Match bool `json:"match"`
	}
	var s session
	poll := time.NewTicker(100 * time.Millisecond)
	defer poll.Stop()
	for s.Ticks < 120 || !s.Live {
		select {
		case <-poll.C:
		case <-joinDone:
			t.Fatalf("the match ended before the inspector followed 120 of its ticks live (last: %+v): %v\n%s", s, joinErr, herr.String())
		}
		s = session{}
		if code := getJSON(t, url+"api/session", &s); code == http.StatusServiceUnavailable {
			continue // no tick followed yet
		} else if code != http.StatusOK {
			t.Fatalf("/api/session: status %d", code)
		}
	}
	if !s.Match {
		t.Errorf("/api/session does not say the ticks are a match's confirmed ones: %+v", s)
	}
	confirmed := s.Ticks - 1
	var ents struct {
		Entities []struct {
			ID, Gen    uint32
			Components []string
		}
	}
	if code := getJSON(t, fmt.Sprintf("%sapi/entities?tick=%d&component=Ship", url, confirmed), &ents); code != http.StatusOK || len(ents.Entities) == 0 {
		t.Fatalf("/api/entities at the confirmed tick %d: status %d, %+v", confirmed, code, ents)
	}
	var ent struct {
		Tick       int
		Components []json.RawMessage
	}
	e := ents.Entities[0]
	if code := getJSON(t, fmt.Sprintf("%sapi/entity?tick=%d&id=%d&gen=%d", url, confirmed, e.ID, e.Gen), &ent); code != http.StatusOK || ent.Tick != confirmed || len(ent.Components) == 0 {
		t.Fatalf("/api/entity of a ship at tick %d: status %d, %+v", confirmed, code, ent)
	}

	<-joinDone
	if joinErr != nil {
		t.Fatalf("joiner: %v\n%s", joinErr, jerr.String())
	}
	if !hout.waitFor("the game ended", hostDone) {
		t.Fatalf("the host did not say its game ended: %v\n%s\n%s", hostErr, hout.String(), herr.String())
	}
	hostLine := confirmedLine.FindStringSubmatch(hout.String())
	if hostLine == nil || hostLine[0] != confirmedLine.FindString(jout.String()) {
		t.Fatalf("the peers end apart: host %q, joiner %q\n%s", hostLine, confirmedLine.FindString(jout.String()), herr.String())
	}
	n, _ := strconv.Atoi(hostLine[1])
	// The confirmed line's tick N names the state after tick N-1.
	var seek struct {
		Tick uint64
		Hash string
	}
	if code := getJSON(t, fmt.Sprintf("%sapi/seek?tick=%d", url, n-1), &seek); code != http.StatusOK || seek.Hash != hostLine[2] {
		t.Fatalf("/api/seek to tick %d: status %d, hash %q; the match confirmed %s", n-1, code, seek.Hash, hostLine[0])
	}
	var tl struct {
		Ticks []struct{ Tick uint64 }
		Net   []struct{ From, To uint64 }
	}
	if code := getJSON(t, url+"api/timeline", &tl); code != http.StatusOK || len(tl.Ticks) < n || len(tl.Net) < 5 {
		t.Fatalf("/api/timeline: status %d, %d ticks (the match confirmed %d), %d net spans", code, len(tl.Ticks), n, len(tl.Net))
	}
	s = session{}
	if getJSON(t, url+"api/session", &s); s.Live {
		t.Errorf("/api/session after the match ended says it is live: %+v", s)
	}
	if err := h.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-hostDone
	if hostErr != nil {
		t.Fatalf("host: %v\n%s", hostErr, herr.String())
	}
	t.Logf("the inspector followed the match live and ends on %s; %d net spans", hostLine[0], len(tl.Net))
}

// getJSON gets url into v and returns the status; v is filled only on
// 200.
func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("GET %s: %v\n%s", url, err, b)
		}
	}
	return resp.StatusCode
}
