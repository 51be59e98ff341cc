package runtime_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/work"
	"golang.org/x/sys/unix"
)

// TestWorkersRunAtBackgroundPriority: with Background a session's workers
// run on threads of their own at BackgroundNice, so a background load
// yields the CPU to the loop; by default, and in an application pool, they
// run at the game's priority.
func TestWorkersRunAtBackgroundPriority(t *testing.T) {
	base := threadNice()
	for _, tc := range []struct {
		name       string
		background bool
		want       int
	}{
		{"default", false, base},
		{"background", true, work.BackgroundNice},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.background && base >= work.BackgroundNice {
				t.Skipf("the test runs at nice %d already, not below BackgroundNice (%d): nothing to lower", base, work.BackgroundNice)
			}
			synctest.Test(t, func(t *testing.T) {
				r := newRig(runtime.Sequential, nil)
				r.opts.Execution.Background = tc.background
				r.game.stopAfter = 5
				var nice atomic.Int64
				nice.Store(-100)
				r.game.onUpdate = func(fg *fakeGame, _ *runtime.TickContext) {
					if fg.updates.Load() == 1 {
						_ = fg.sim.Workers.Group("probe").Submit(work.JobFunc(func(context.Context) { nice.Store(int64(threadNice())) }))
					}
				}
				rt, err := runtime.New(r.game, r.ctx, r.opts)
				if err != nil {
					t.Fatal(err)
				}
				if err := rt.Run(); err != nil {
					t.Fatal(err)
				}
				if got := int(nice.Load()); got != tc.want {
					t.Errorf("a job ran at nice %d, want %d (the test's thread: %d)", got, tc.want, base)
				}
			})
		})
	}
	pool, err := work.NewPool(1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	done := make(chan int, 1)
	if err := pool.Group("app").Submit(work.JobFunc(func(context.Context) { done <- threadNice() })); err != nil {
		t.Fatal(err)
	}
	if got, want := <-done, base; got != want {
		t.Errorf("an application pool's job ran at nice %d, want %d", got, want)
	}
	if got := threadNice(); got != base {
		t.Errorf("the test's own thread is at nice %d after the jobs, was %d", got, base)
	}
}

// threadNice returns the calling thread's nice value.
func threadNice() int {
	v, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
	if err != nil {
		return 0
	}
	return 20 - v // the system call returns 20 - nice
}
