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
// run on threads of their own in the kernel's idle scheduling class, at
// BackgroundNice, so a background load yields the CPU to the loop the
// moment a game thread wakes; by default, and in an application pool, they
// run at the game's priority.
func TestWorkersRunAtBackgroundPriority(t *testing.T) {
	base, basePolicy := threadNice(), threadPolicy()
	for _, tc := range []struct {
		name       string
		background bool
		want       int
		wantPolicy uint32
	}{
		{"default", false, base, basePolicy},
		{"background", true, work.BackgroundNice, unix.SCHED_IDLE},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.background && base >= work.BackgroundNice {
				t.Skipf("the test runs at nice %d already, not below BackgroundNice (%d): nothing to lower", base, work.BackgroundNice)
			}
			synctest.Test(t, func(t *testing.T) {
				r := newRig(runtime.Sequential, nil)
				r.opts.Execution.Background = tc.background
				r.game.stopAfter = 5
				var nice, policy atomic.Int64
				nice.Store(-100)
				policy.Store(-1)
				r.game.onUpdate = func(fg *fakeGame, _ *runtime.TickContext) {
					if fg.updates.Load() == 1 {
						_ = fg.sim.Workers.Group("probe").Submit(work.JobFunc(func(context.Context) {
							nice.Store(int64(threadNice()))
							policy.Store(int64(threadPolicy()))
						}))
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
				if got := policy.Load(); got != int64(tc.wantPolicy) {
					t.Errorf("a job ran in scheduling class %d, want %d (SCHED_IDLE is %d; the test's thread: %d)", got, tc.wantPolicy, unix.SCHED_IDLE, basePolicy)
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
	if got := threadPolicy(); got != basePolicy {
		t.Errorf("the test's own thread is in scheduling class %d after the jobs, was %d", got, basePolicy)
	}
}

// threadPolicy returns the calling thread's scheduling class.
func threadPolicy() uint32 {
	a, err := unix.SchedGetAttr(0, 0)
	if err != nil {
		return 0
	}
	return a.Policy
}

// threadNice returns the calling thread's nice value.
func threadNice() int {
	v, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
	if err != nil {
		return 0
	}
	return 20 - v // the system call returns 20 - nice
}
