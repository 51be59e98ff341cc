package inspect_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/inspect"
)

// Every seek, forward or back, near a keyframe or far from one, puts the
// world in the state the recording's checkpoints hashed.
func TestSeekReachesTheRecordedHashes(t *testing.T) {
	path, xs := record(t)
	hashes := checkpoints(t, path)
	if len(hashes) < 5 {
		t.Fatalf("the recording holds %d checkpoints, want several", len(hashes))
	}
	rep := open(t, path, 64)
	if got := rep.Ticks(); got != testTicks {
		t.Fatalf("ticks: got %d, want %d", got, testTicks)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var ticks []uint64
	for tick := range hashes {
		ticks = append(ticks, tick)
	}
	rng.Shuffle(len(ticks), func(i, j int) { ticks[i], ticks[j] = ticks[j], ticks[i] })
	movers := ecs.NewFilter1[mover](rep.App().World())
	for _, tick := range append(ticks, 0, testTicks-1, 1, 63, 64, 65, 64) {
		if err := rep.Seek(tick); err != nil {
			t.Fatal(err)
		}
		if want, ok := hashes[tick]; ok {
			h, err := rep.App().Hash()
			if err != nil {
				t.Fatal(err)
			}
			if h.Total != want {
				t.Errorf("seek to %d: world hash %#x, want the recording's %#x", tick, h.Total, want)
			}
		}
		q := movers.Query()
		for q.Next() {
			if got := q.Get().X; got != xs[tick] {
				t.Errorf("seek to %d: mover.X %v, want %v", tick, got, xs[tick])
			}
		}
		if s := rep.LastSeek(); s.Resimulated > 63 {
			t.Errorf("seek to %d resimulated %d ticks, want at most 63 with a keyframe every 64", tick, s.Resimulated)
		}
	}
	m := rep.Memory()
	if want := (testTicks + 63) / 64; m.Keyframes != want || m.KeyframeBytes <= 0 {
		t.Errorf("memory: %+v, want %d keyframes of some bytes", m, want)
	}
}

func TestSeekRefusesTicksBeyondTheSession(t *testing.T) {
	path, _ := record(t)
	rep := open(t, path, 0)
	err := rep.Seek(testTicks)
	if err == nil || !strings.Contains(err.Error(), "want 0 to 599") {
		t.Fatalf("Seek(%d): got %v, want an error naming the range", testTicks, err)
	}
}

func TestTimelineHoldsMarks(t *testing.T) {
	path, xs := record(t)
	rep := open(t, path, 0)
	var bounces int
	for i, tick := range rep.Timeline(0, testTicks) {
		if tick.Number != uint64(i) || tick.Kind != "fixed" {
			t.Fatalf("timeline[%d]: %+v", i, tick)
		}
		for _, m := range tick.Marks {
			if m.Label != "bounce" || m.System != "move" {
				t.Errorf("tick %d: mark %+v, want bounce by move", i, m)
			}
			bounces++
			if i > 0 && (xs[i] <= 300 && xs[i] >= 0) {
				t.Errorf("tick %d: bounce marked with X at %v", i, xs[i])
			}
		}
	}
	if bounces == 0 {
		t.Error("no bounce marked")
	}
	if got := rep.Timeline(testTicks-2, testTicks+5); len(got) != 2 {
		t.Errorf("timeline past the end: got %d ticks, want 2", len(got))
	}
	if _, err := inspect.NewReplay(nil, nil, nil, inspect.Options{}); err == nil {
		t.Error("NewReplay(nil...): no error")
	}
}

// The timeline shows the game's states (ecs.States) by name: the state
// each machine starts in on the first tick, then each transition on the
// tick it happens.
func TestTimelineHoldsStateChanges(t *testing.T) {
	path, _ := record(t)
	rep := open(t, path, 0)
	var got []string
	for _, tick := range rep.Timeline(0, testTicks) {
		for _, s := range tick.States {
			got = append(got, fmt.Sprintf("%d %s %s", tick.Number, s.Machine, s.State))
		}
	}
	want := []string{"0 inspect_test.phase early", "151 inspect_test.phase late", "401 inspect_test.phase later"}
	if !slices.Equal(got, want) {
		t.Errorf("state changes: got %q, want %q", got, want)
	}
	// A seek runs ticks again and adds none.
	if err := rep.Seek(10); err != nil {
		t.Fatal(err)
	}
	if err := rep.Seek(500); err != nil {
		t.Fatal(err)
	}
	if n := len(rep.Timeline(401, 402)[0].States); n != 1 {
		t.Errorf("tick 401 after seeks: %d state changes, want 1", n)
	}
}

// The inspector's first pass over a recording prepares no frame (a page
// prepares the frame of the tick it shows, when it asks): the frames of a
// live follower's every tick were about half its work, taken from the
// game beside it.
func TestFirstPassPreparesNoFrame(t *testing.T) {
	path, _ := record(t)
	var extracted atomic.Int64
	g := testGame()
	setup := g.Setup
	g.Setup = func(s *framework.Setup) error {
		s.App.AddSystem(ecs.Extract, ecs.System{Name: "count frames", Run: func(*ecs.Sys) { extracted.Add(1) }})
		return setup(s)
	}
	rep, err := framework.InspectReplay(g, path, inspect.Options{KeyframeEvery: 50})
	if err != nil {
		t.Fatal(err)
	}
	if n := extracted.Load(); n != 0 {
		t.Errorf("the first pass over %d ticks prepared %d frames, want none", rep.Ticks(), n)
	}
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	get(t, h, "/api/frame?tick=10", http.StatusOK, nil)
	if n := extracted.Load(); n != 1 {
		t.Errorf("the page's frame of a tick prepared %d frames, want 1", n)
	}
}

// The keyframes are kept compactly (one in eight whole and compressed,
// the others as their difference from the one before), and seeks from
// any of them still reach the recorded hashes.
func TestKeyframesAreKeptCompactly(t *testing.T) {
	path, _ := record(t)
	hashes := checkpoints(t, path)
	rep := open(t, path, 10)
	m := rep.Memory()
	if want := (testTicks + 9) / 10; m.Keyframes != want {
		t.Fatalf("keyframes: got %d, want %d", m.Keyframes, want)
	}
	if m.KeyframeBytes*3 > m.KeyframeWire {
		t.Errorf("keyframes take %d bytes for %d of snapshots: want under a third", m.KeyframeBytes, m.KeyframeWire)
	}
	ticks := make([]uint64, 0, len(hashes))
	for tick := range hashes {
		ticks = append(ticks, tick)
	}
	// Backwards, so that every seek decodes its keyframe again.
	slices.Sort(ticks)
	slices.Reverse(ticks)
	for _, tick := range ticks {
		if err := rep.Seek(tick); err != nil {
			t.Fatal(err)
		}
		h, err := rep.App().Hash()
		if err != nil {
			t.Fatal(err)
		}
		if h.Total != hashes[tick] {
			t.Errorf("seek to %d: world hash %#x, want the recording's %#x", tick, h.Total, hashes[tick])
		}
	}
}
