package inspect_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/timing"
)

// liveGame starts the test game recording into a Live, with Right held
// from 0.5 s for two seconds as record does.
func liveGame(t testing.TB, live *inspect.Live) *frameworktest.Sim {
	t.Helper()
	cfg := config.Default()
	if err := cfg.Set("timing.mode=fixed"); err != nil {
		t.Fatal(err)
	}
	sim, err := frameworktest.New(testGame(), frameworktest.Options{Config: &cfg, RecordTo: live})
	if err != nil {
		t.Fatal(err)
	}
	sim.Input.Press(sim.At(500*time.Millisecond), input.KeyRight)
	sim.Input.Release(sim.At(2500*time.Millisecond), input.KeyRight)
	return sim
}

// follow starts the follower on live; its result comes on the channel.
func follow(live *inspect.Live, every int) chan error {
	done := make(chan error, 1)
	go func() { done <- framework.InspectLive(testGame(), live, inspect.Options{KeyframeEvery: every}) }()
	return done
}

type liveSession struct {
	Ticks int
	Live  bool
}

// waitTicks polls the page's session until the follower has at least n
// ticks: it waits on the follower's progress, which a chunk of the
// recording brings at most half a second of game time behind.
func waitTicks(t *testing.T, h http.Handler, n int, followed chan error) liveSession {
	t.Helper()
	for {
		select {
		case err := <-followed:
			t.Fatalf("the follower stopped before tick %d: %v", n, err)
		default:
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/session", nil))
		var s liveSession
		if rec.Code == http.StatusOK {
			if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil {
				t.Fatal(err)
			}
			if s.Ticks >= n {
				return s
			}
		} else if rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("/api/session: %d %s", rec.Code, rec.Body)
		}
		goruntime.Gosched()
	}
}

// moverX reads the mover's X at tick from the page's API.
func moverX(h http.Handler, tick int) (float64, error) {
	var list entityList
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", fmt.Sprintf("/api/entities?tick=%d&component=mover", tick), nil))
	if err := json.Unmarshal(rec.Body.Bytes(), &list); rec.Code != http.StatusOK || err != nil || len(list.Entities) != 1 {
		return 0, fmt.Errorf("entities at tick %d: %d %s", tick, rec.Code, rec.Body)
	}
	e := list.Entities[0]
	var v entityView
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", fmt.Sprintf("/api/entity?tick=%d&id=%d&gen=%d", tick, e.ID, e.Gen), nil))
	if err := json.Unmarshal(rec.Body.Bytes(), &v); rec.Code != http.StatusOK || err != nil {
		return 0, fmt.Errorf("entity at tick %d: %d %s", tick, rec.Code, rec.Body)
	}
	for _, c := range v.Components {
		if c.Type == "inspect_test.mover" {
			x, _ := c.Value["X"].(float64)
			return x, nil
		}
	}
	return 0, fmt.Errorf("entity at tick %d has no mover: %s", tick, rec.Body)
}

// A game inspected as it plays: the page sees its ticks soon after they
// run, seeks back to earlier ticks while the game goes on (requests from
// another goroutine between the game's steps), finds the values the game
// had then, and the follower's world hashes keep matching the game's
// through it all; once the game ends the whole session stays open.
func TestLiveGameIsInspectedAsItPlays(t *testing.T) {
	live := inspect.NewLive()
	sim := liveGame(t, live)
	h, err := inspect.NewLiveHandler(live, inspect.ServerOptions{Name: "live"})
	if err != nil {
		t.Fatal(err)
	}
	get(t, h, "/api/session", http.StatusServiceUnavailable, nil)
	followed := follow(live, 50)

	movers := ecs.NewFilter1[mover](sim.App.World())
	var xs []float32
	step := func(n int) {
		t.Helper()
		for range n {
			if err := sim.Step(1); err != nil {
				t.Fatal(err)
			}
			q := movers.Query()
			for q.Next() {
				xs = append(xs, q.Get().X)
			}
		}
	}
	step(300)
	if s := waitTicks(t, h, 240, followed); !s.Live {
		t.Errorf("the session does not say it is live: %+v", s)
	}
	for _, tick := range []int{100, 37, 200} {
		got, err := moverX(h, tick)
		if err != nil {
			t.Fatal(err)
		}
		if float32(got) != xs[tick] {
			t.Errorf("live, mover.X at tick %d: page %v, game %v", tick, got, xs[tick])
		}
	}

	// The page scrubs back and forth on its own goroutine while the game
	// plays on: the follower puts its world back at the live end each
	// time and keeps up.
	scrubbed := make(chan error, 1)
	go func() {
		for i := range 200 {
			if _, err := moverX(h, (i*37)%240); err != nil {
				scrubbed <- err
				return
			}
		}
		scrubbed <- nil
	}()
	step(300)
	if err := <-scrubbed; err != nil {
		t.Fatal(err)
	}
	waitTicks(t, h, 540, followed)
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	live.Close()
	if err := <-followed; err != nil {
		t.Fatalf("the follower: %v", err)
	}
	var s liveSession
	get(t, h, "/api/session", http.StatusOK, &s)
	if s.Live || s.Ticks != len(xs) {
		t.Errorf("after the game ended: %+v, want %d ticks, not live", s, len(xs))
	}
	for _, tick := range []int{len(xs) - 1, 450, 3} {
		got, err := moverX(h, tick)
		if err != nil {
			t.Fatal(err)
		}
		if float32(got) != xs[tick] {
			t.Errorf("ended, mover.X at tick %d: page %v, game %v", tick, got, xs[tick])
		}
	}
}

// With no page open the follower replays nothing, however long the game
// plays; the page's first request wakes it and it catches up from the
// recording kept in memory, follows while requests come, stops again
// once they have not come for LiveOptions.Idle, and reads to the end
// once the game ended, asked or not.
func TestLiveFollowerReplaysOnlyForAPage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := timing.NewManualClock(1)
		live, err := inspect.NewLiveOptions(inspect.LiveOptions{Idle: 5 * time.Second, Clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		sim := liveGame(t, live)
		h, err := inspect.NewLiveHandler(live, inspect.ServerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		followed := follow(live, 50)
		if err := sim.Step(300); err != nil {
			t.Fatal(err)
		}
		synctest.Wait() // the follower waits for a page or runs
		if n := live.Followed(); n != 0 || live.Recorded() == 0 {
			t.Errorf("no page open: the follower replayed %d ticks of a %d-byte recording, want none", n, live.Recorded())
		}
		get(t, h, "/api/session", http.StatusServiceUnavailable, nil) // it has not run a tick yet
		synctest.Wait()
		var s liveSession
		get(t, h, "/api/session", http.StatusOK, &s)
		if s.Ticks < 240 || !s.Live {
			t.Errorf("after the page's first request the follower caught up to %+v, want 240 ticks or more, live", s)
		}

		// The page goes away: 5 s later the follower stops, and the game
		// plays on without it.
		clock.Advance(5 * time.Second)
		if err := sim.Step(300); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		idle := live.Followed()
		if idle > 300 {
			t.Errorf("the follower went on replaying after the page's last request: %d ticks of %d", idle, 600)
		}
		get(t, h, "/api/session", http.StatusOK, &s)
		synctest.Wait()
		if n := live.Followed(); n < 540 {
			t.Errorf("a request after the idle time: the follower caught up to %d ticks, want 540 or more", n)
		}

		clock.Advance(time.Hour)
		if err := sim.Step(300); err != nil {
			t.Fatal(err)
		}
		if err := sim.Close(); err != nil {
			t.Fatal(err)
		}
		live.Close()
		if err := <-followed; err != nil {
			t.Fatalf("the follower: %v", err)
		}
		if n := live.Followed(); n < 900 {
			t.Errorf("after the game ended the follower read %d ticks, want all (900 or more)", n)
		}
	})
}

// A live game's presents: read from its runtime at each recording chunk,
// they cover its ticks from 0 without a gap, add up to what it
// presented, and the page's session gives them. A replay's are those its
// recording kept (TestReplayPresentsAreTheRecordings).
func TestLivePresentsCoverTheTicks(t *testing.T) {
	live := inspect.NewLive()
	sim := liveGame(t, live)
	live.Watch(sim.Runtime.Stats)
	h, err := inspect.NewLiveHandler(live, inspect.ServerOptions{Name: "live"})
	if err != nil {
		t.Fatal(err)
	}
	followed := follow(live, 50)
	if err := sim.Step(400); err != nil {
		t.Fatal(err)
	}
	waitTicks(t, h, 300, followed)
	// While the game runs: a tick's presents are known once the
	// recording holds the next tick, never as what they are not.
	var running struct{ Ticks []inspect.Tick }
	get(t, h, "/api/timeline", http.StatusOK, &running)
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	stats := sim.Runtime.Stats()
	live.Close()
	if err := <-followed; err != nil {
		t.Fatalf("the follower: %v", err)
	}
	var s struct{ Presents []inspect.PresentSpan }
	get(t, h, "/api/session", http.StatusOK, &s)
	if len(s.Presents) < 5 {
		t.Fatalf("presents: %+v, want a span every half second of 400 ticks", s.Presents)
	}
	var at, sum uint64
	for _, p := range s.Presents {
		if p.From != at || p.To <= p.From {
			t.Errorf("span %+v after tick %d: want the next ticks", p, at)
		}
		at, sum = p.To, sum+p.Presented
	}
	if at != stats.Updates || sum != stats.FramesPresented || sum == 0 {
		t.Errorf("the spans cover %d ticks and %d presents; the game ran %d and presented %d", at, sum, stats.Updates, stats.FramesPresented)
	}

	// Per tick, the live game's presents are its replay's.
	var ended struct{ Ticks []inspect.Tick }
	get(t, h, "/api/timeline", http.StatusOK, &ended)
	rec, err := io.ReadAll(live.Reader()) // the follower is done with it
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "live.rec")
	if err := os.WriteFile(path, rec, 0o644); err != nil {
		t.Fatal(err)
	}
	rh, err := inspect.NewHandler(open(t, path, 0), inspect.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var replayed struct{ Ticks []inspect.Tick }
	get(t, rh, "/api/timeline", http.StatusOK, &replayed)
	if len(ended.Ticks) != len(replayed.Ticks) || uint64(len(ended.Ticks)) != stats.Updates {
		t.Fatalf("the live timeline has %d ticks, its replay's %d; the game ran %d", len(ended.Ticks), len(replayed.Ticks), stats.Updates)
	}
	var presented uint64
	for i, tk := range ended.Ticks {
		if want := replayed.Ticks[i].Presented; tk.Presented != want || want < 0 {
			t.Errorf("tick %d: %d presents after it live, %d in the replay", i, tk.Presented, want)
		}
		if i < len(running.Ticks) && running.Ticks[i].Presented != -1 && running.Ticks[i].Presented != tk.Presented {
			t.Errorf("tick %d: %d presents after it while the game ran, %d once it ended", i, running.Ticks[i].Presented, tk.Presented)
		}
		presented += uint64(max(tk.Presented, 0))
	}
	if presented == 0 || presented > stats.FramesPresented || stats.FramesPresented-presented > 1 {
		t.Errorf("the ticks are followed by %d presents; the game presented %d (one may come before the first tick)", presented, stats.FramesPresented)
	}
	known := 0
	for _, tk := range running.Ticks {
		if tk.Presented >= 0 {
			known++
		}
	}
	if known < 250 {
		t.Errorf("while the game ran, %d of %d ticks had their presents, want all but the last few", known, len(running.Ticks))
	}
	if n := len(running.Ticks); n == 400 && running.Ticks[n-1].Presented != -1 {
		t.Errorf("while the game ran, its last tick had %d presents after it, want -1 (not known yet)", running.Ticks[n-1].Presented)
	}
}
