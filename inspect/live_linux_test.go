package inspect_test

import (
	"net/http"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/inspect"
)

// The follower replays on a thread of the kernel's idle class, and the
// page's requests run there too (a frame's Extract systems run on the
// thread that answers /api/frame), so that neither takes the CPU from
// the game's threads, which stay at their priority.
func TestLiveFollowerAndPageRunInTheBackground(t *testing.T) {
	policy := func() int32 {
		attr, err := unix.SchedGetAttr(0, 0)
		if err != nil {
			return -1
		}
		return int32(attr.Policy)
	}
	var replayed, answered atomic.Int32
	replayed.Store(-2)
	answered.Store(-2)
	inFollower := func() framework.Game {
		g := testGame()
		setup := g.Setup
		g.Setup = func(s *framework.Setup) error {
			s.App.AddSystem(ecs.Update, ecs.System{Name: "policy", Run: func(*ecs.Sys) { replayed.Store(policy()) }})
			s.App.AddSystem(ecs.Extract, ecs.System{Name: "frame policy", Run: func(*ecs.Sys) { answered.Store(policy()) }})
			return setup(s)
		}
		return g
	}
	live := inspect.NewLive()
	sim := liveGame(t, live)
	h, err := inspect.NewLiveHandler(live, inspect.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	followed := make(chan error, 1)
	go func() { followed <- framework.InspectLive(inFollower(), live, inspect.Options{KeyframeEvery: 50}) }()
	if err := sim.Step(120); err != nil {
		t.Fatal(err)
	}
	waitTicks(t, h, 60, followed)
	get(t, h, "/api/frame?tick=30", http.StatusOK, nil)
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	live.Close()
	if err := <-followed; err != nil {
		t.Fatal(err)
	}
	if got := replayed.Load(); got != unix.SCHED_IDLE {
		t.Errorf("the follower replayed on a thread of policy %d, want SCHED_IDLE (%d)", got, unix.SCHED_IDLE)
	}
	if got := answered.Load(); got != unix.SCHED_IDLE {
		t.Errorf("the page's frame was prepared on a thread of policy %d, want SCHED_IDLE (%d)", got, unix.SCHED_IDLE)
	}
	if got := policy(); got == unix.SCHED_IDLE {
		t.Error("the test's own thread went to the idle class")
	}
}
