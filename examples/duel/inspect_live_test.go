//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/inspect"
)

var inspectLine = regexp.MustCompile(`inspecting the game as it plays: open (http://\S+)`)

// A match under --inspect, in real processes over loopback UDP: the
// host, the player who made a lobby room, or a spectator is inspected.
// While the match plays, the inspector's API follows its confirmed ticks
// (the session is live, a match's, and grows; an entity reads at a
// confirmed tick), and after the match ends a seek to its last confirmed
// tick gives the world hash every peer's confirmed line names, and the
// timeline has the match's net figures. Under -race the processes are
// built with -race too.
func TestInspectorFollowsALiveMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two or three processes for 10 s of play each")
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
	common := []string{"--ticks", "600", "--set", "audio.enabled=false", "--set", "net.join_timeout=30s"}
	inspect := []string{"--inspect", "127.0.0.1:0"}
	t.Run("host", func(t *testing.T) {
		ctx := killAfter(t)
		h := startProc(t, ctx, bin, "host", append(append([]string{"--headless", "--host", "127.0.0.1:0", "--bot", "1"}, inspect...), common...))
		jl := h.waitLine(t, joinLine)
		j := startProc(t, ctx, bin, "joiner", append([]string{"--headless", "--join", jl[1], "--token", jl[2], "--bot", "2"}, common...))
		followInspected(t, h, j)
	})
	t.Run("lobby", func(t *testing.T) {
		ctx := killAfter(t)
		url := startLobby(t)
		c := startProc(t, ctx, bin, "creator", append(append([]string{"--no-window", "--lobby", url, "--create", "--bot", "1"}, inspect...), common...))
		code := c.waitLine(t, roomLine)[1]
		j := startProc(t, ctx, bin, "joiner", append([]string{"--no-window", "--lobby", url, "--room", code, "--bot", "2"}, common...))
		followInspected(t, c, j)
	})
	t.Run("spectator", func(t *testing.T) {
		ctx := killAfter(t)
		h := startProc(t, ctx, bin, "host", append([]string{"--headless", "--host", "127.0.0.1:0", "--bot", "1"}, common...))
		jl := h.waitLine(t, joinLine)
		j := startProc(t, ctx, bin, "joiner", append([]string{"--headless", "--join", jl[1], "--token", jl[2], "--bot", "2"}, common...))
		h.waitLine(t, regexp.MustCompile(`match started`))
		s := startProc(t, ctx, bin, "spectator", append(append([]string{"--no-window", "--spectate", jl[1], "--token", jl[2]}, inspect...), common...))
		followInspected(t, s, h, j)
	})
}

// proc is a process of the duel a test started, whose output it reads
// as it comes.
type proc struct {
	name     string
	cmd      *exec.Cmd
	out, err lockedText
	done     chan struct{} // closed once it exited; then waitErr is its error
	waitErr  error
}

// startProc starts bin with args; the test's end kills it if it still
// runs.
func startProc(t *testing.T, ctx context.Context, bin, name string, args []string) *proc {
	t.Helper()
	p := &proc{name: name, cmd: exec.CommandContext(ctx, bin, args...), done: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.err
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.waitErr = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.done })
	return p
}

// waitLine waits until p's output or errors have a line re matches and
// returns the match, failing the test when p ends first. It looks again
// as the output grows (polled: two texts to watch).
func (p *proc) waitLine(t *testing.T, re *regexp.Regexp) []string {
	t.Helper()
	find := func() []string {
		if m := re.FindStringSubmatch(p.out.String()); m != nil {
			return m
		}
		return re.FindStringSubmatch(p.err.String())
	}
	poll := time.NewTicker(20 * time.Millisecond)
	defer poll.Stop()
	for {
		if m := find(); m != nil {
			return m
		}
		select {
		case <-p.done:
			if m := find(); m != nil {
				return m
			}
			t.Fatalf("the %s ended (%v) without a line matching %q:\n%s\n%s", p.name, p.waitErr, re, p.out.String(), p.err.String())
		case <-poll.C:
		}
	}
}

// followInspected checks the inspector of insp (run with --inspect) as
// its match with others plays and after it ends, and stops insp.
func followInspected(t *testing.T, insp *proc, others ...*proc) {
	t.Helper()
	url := insp.waitLine(t, inspectLine)[1]
	// While the match plays: the page's requests wake the follower,
	// which reads the confirmed ticks as they are recorded.
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
		case <-insp.done:
			t.Fatalf("the %s ended before its inspector followed 120 ticks live (last: %+v): %v\n%s", insp.name, s, insp.waitErr, insp.err.String())
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
	var tl struct {
		Ticks []struct{ Tick uint64 }
		Net   []struct{ From, To uint64 }
	}
	// Two seconds of confirmed ticks hold a net figures item or two
	// (about one a second), read from the recording as it grows.
	if code := getJSON(t, fmt.Sprintf("%sapi/timeline?to=%d", url, s.Ticks), &tl); code != http.StatusOK || len(tl.Ticks) != s.Ticks || len(tl.Net) == 0 {
		t.Fatalf("/api/timeline while the match plays: status %d, %d ticks of %d, %d net spans", code, len(tl.Ticks), s.Ticks, len(tl.Net))
	}
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

	// A seek back while the match plays runs early ticks again with the
	// inputs the follower kept; it then follows on from the live end with
	// the tick it was about to run (its world hashes still checked).
	var back struct{ Tick uint64 }
	if code := getJSON(t, url+"api/seek?tick=10", &back); code != http.StatusOK || back.Tick != 10 {
		t.Fatalf("/api/seek back to tick 10 while the match plays: status %d, %+v", code, back)
	}

	insp.waitLine(t, regexp.MustCompile(`the game ended`))
	line := confirmedLine.FindStringSubmatch(insp.out.String())
	if line == nil {
		t.Fatalf("the %s printed no confirmed line:\n%s\n%s", insp.name, insp.out.String(), insp.err.String())
	}
	for _, o := range others {
		<-o.done
		if o.waitErr != nil {
			t.Fatalf("the %s: %v\n%s", o.name, o.waitErr, o.err.String())
		}
		if got := confirmedLine.FindString(o.out.String()); got != line[0] {
			t.Fatalf("the %s ends on %q, the inspected %s on %q", o.name, got, insp.name, line[0])
		}
	}
	n, _ := strconv.Atoi(line[1])
	// The confirmed line's tick N names the state after tick N-1.
	var seek struct {
		Tick uint64
		Hash string
	}
	if code := getJSON(t, fmt.Sprintf("%sapi/seek?tick=%d", url, n-1), &seek); code != http.StatusOK || seek.Hash != line[2] {
		t.Fatalf("/api/seek to tick %d: status %d, hash %q; the match confirmed %s", n-1, code, seek.Hash, line[0])
	}
	tl.Ticks, tl.Net = nil, nil
	if code := getJSON(t, url+"api/timeline", &tl); code != http.StatusOK || len(tl.Ticks) < n || len(tl.Net) < 5 {
		t.Fatalf("/api/timeline: status %d, %d ticks (the match confirmed %d), %d net spans", code, len(tl.Ticks), n, len(tl.Net))
	}
	s = session{}
	if getJSON(t, url+"api/session", &s); s.Live {
		t.Errorf("/api/session after the match ended says it is live: %+v", s)
	}
	if err := insp.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-insp.done
	if insp.waitErr != nil {
		t.Fatalf("the %s: %v\n%s", insp.name, insp.waitErr, insp.err.String())
	}
	t.Logf("the %s's inspector followed the match live and ends on %s; %d net spans", insp.name, line[0], len(tl.Net))
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

// The follower of a live match's recording that is behind (the page
// opened late, or the machine was busy) catches up while the page seeks
// back and forth: each seek runs between two of the follower's ticks,
// on the reader's current tick that the follower is about to run, which
// it holds meanwhile. Every confirmed tick is followed with its world
// hashes checked, and a seek to each checkpoint then gives the hash the
// match confirmed there.
func TestInspectorFollowsAMatchWhileThePageSeeks(t *testing.T) {
	paths, _ := recordMatch(t, 20*time.Second)
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	ticks, checks := recordedChecks(t, paths[0])
	// The whole recording but its end marker is there already; the
	// follower wakes on the first request.
	live := inspect.NewLive()
	if _, err := live.Write(data); err != nil {
		t.Fatal(err)
	}
	followed := make(chan error, 1)
	go func() { followed <- framework.InspectLive(newGame(), live, inspect.Options{}) }()
	h, err := inspect.NewLiveHandler(live, inspect.ServerOptions{Name: "live"})
	if err != nil {
		t.Fatal(err)
	}
	get := func(url string, v any) int {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
		if rec.Code == http.StatusOK {
			if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
				t.Fatalf("%s: %v", url, err)
			}
		}
		return rec.Code
	}
	seeks := 0
	for n := 0; n < ticks; n = live.Followed() {
		select {
		case err := <-followed:
			t.Fatalf("the follower stopped at tick %d of %d, after %d seeks: %v", n, ticks, seeks, err)
		default:
		}
		var s struct{ Ticks int }
		if code := get("/api/session", &s); code != http.StatusOK || s.Ticks < 5 {
			continue // no tick followed yet, or too few to seek back
		}
		var sk struct{ Tick int }
		want := seeks * 7 % (s.Ticks - 1)
		if code := get(fmt.Sprintf("/api/seek?tick=%d", want), &sk); code != http.StatusOK || sk.Tick != want {
			t.Fatalf("/api/seek?tick=%d while following: status %d, %+v", want, code, sk)
		}
		seeks++
	}
	live.Close()
	if err := <-followed; err != nil {
		t.Fatalf("the follower, after %d seeks: %v", seeks, err)
	}
	if seeks < 5 {
		t.Fatalf("only %d seeks ran while the follower caught up on %d ticks", seeks, ticks)
	}
	for _, c := range checks {
		var sk struct{ Hash string }
		if code := get(fmt.Sprintf("/api/seek?tick=%d", c.Tick), &sk); code != http.StatusOK || sk.Hash != fmt.Sprintf("%016x", c.Hash) {
			t.Fatalf("a seek to tick %d: status %d, hash %s; the match confirmed %016x", c.Tick, code, sk.Hash, c.Hash)
		}
	}
	t.Logf("%d seeks while following %d ticks; %d checkpoints match", seeks, ticks, len(checks))
}
