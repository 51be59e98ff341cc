package work_test

import (
	"context"
	"errors"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/runtime/work"
)

// TestWorkerPoolRunsEveryJob: the goroutines start as work arrives, never
// more than the capacity, and every accepted job runs once.
func TestWorkerPoolRunsEveryJob(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pool, err := work.NewPool(3)
		if err != nil {
			t.Fatal(err)
		}
		if got := pool.Running(); got != 0 {
			t.Errorf("before any job: got %d goroutines, want 0 (started lazily)", got)
		}
		g := pool.Group("count")
		var ran, running, peak atomic.Int64
		const jobs = 50
		for range jobs {
			if err := g.Submit(work.JobFunc(func(context.Context) {
				n := running.Add(1)
				for {
					p := peak.Load()
					if n <= p || peak.CompareAndSwap(p, n) {
						break
					}
				}
				time.Sleep(time.Millisecond)
				running.Add(-1)
				ran.Add(1)
			})); err != nil {
				t.Fatal(err)
			}
		}
		if err := g.Wait(); err != nil {
			t.Fatalf("Wait: %v", err)
		}
		if got := ran.Load(); got != jobs {
			t.Errorf("ran %d jobs, want %d", got, jobs)
		}
		if got := peak.Load(); got != 3 {
			t.Errorf("at most %d jobs ran at once, want the capacity 3", got)
		}
		if got, want := g.Stats(), (work.Stats{Accepted: jobs, Finished: jobs}); got != want {
			t.Errorf("Stats: got %+v, want %+v", got, want)
		}
		if !g.Idle() {
			t.Error("Idle after Wait: got false, want true")
		}
		pool.Close()
		if got := pool.Running(); got != 0 {
			t.Errorf("after Close: got %d goroutines, want 0 (joined)", got)
		}
		if err := g.Submit(work.JobFunc(func(context.Context) {})); !errors.Is(err, work.ErrClosed) {
			t.Errorf("Submit to a closed pool: got %v, want ErrClosed", err)
		}
		if err := g.Submit(nil); err == nil || !strings.Contains(err.Error(), `"count"`) {
			t.Errorf("Submit(nil): got %v, want an error naming the group", err)
		}
	})
}

// TestGroupPanicFailsTheGroup: a panicking job fails its group (Err,
// Wait, the others' contexts and acceptance), not the process, and the
// other groups of the pool go on.
func TestGroupPanicFailsTheGroup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pool, _ := work.NewPool(2)
		defer pool.Close()
		g, other := pool.Group("doomed"), pool.Group("other")
		var cause error
		sawDone := make(chan struct{})
		if err := g.Submit(work.JobFunc(func(ctx context.Context) {
			<-ctx.Done()
			cause = context.Cause(ctx)
			close(sawDone)
		})); err != nil {
			t.Fatal(err)
		}
		if err := g.Submit(work.JobFunc(func(context.Context) { panic("decoder exploded") })); err != nil {
			t.Fatal(err)
		}
		err := g.Wait()
		var pe *work.PanicError
		if !errors.As(err, &pe) || pe.Value != "decoder exploded" || len(pe.Stack) == 0 {
			t.Fatalf("Wait: got %v, want a PanicError with the value and a stack", err)
		}
		<-sawDone
		if cause != err {
			t.Errorf("the other job's context cause: got %v, want the panic %v", cause, err)
		}
		if g.Err() != err {
			t.Errorf("Err: got %v, want %v", g.Err(), err)
		}
		if got := g.Stats(); got.Panicked != 1 || got.Finished != 2 || got.Active != 0 {
			t.Errorf("Stats: got %+v, want 1 panicked, 2 finished, none active", got)
		}
		if err := g.Submit(work.JobFunc(func(context.Context) {})); !errors.Is(err, work.ErrClosed) {
			t.Errorf("Submit to a failed group: got %v, want ErrClosed", err)
		}
		ran := false
		if err := other.Submit(work.JobFunc(func(context.Context) { ran = true })); err != nil {
			t.Fatalf("Submit to another group: %v", err)
		}
		if err := other.Wait(); err != nil || !ran {
			t.Errorf("other group: got ran=%v err=%v, want its job run and no error", ran, err)
		}
	})
}

// TestGroupCancel: Cancel makes every accepted job's context done, also
// of jobs still queued (which run once, so pooled jobs come back), and
// refuses new ones.
func TestGroupCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pool, _ := work.NewPool(1)
		defer pool.Close()
		g := pool.Group("load")
		started := make(chan struct{})
		var causes []error
		var mu sync.Mutex
		record := func(ctx context.Context) {
			mu.Lock()
			causes = append(causes, context.Cause(ctx))
			mu.Unlock()
		}
		_ = g.Submit(work.JobFunc(func(ctx context.Context) {
			close(started)
			<-ctx.Done()
			record(ctx)
		}))
		_ = g.Submit(work.JobFunc(record)) // queued behind the first: one worker
		<-started
		g.Cancel()
		if err := g.Submit(work.JobFunc(record)); !errors.Is(err, work.ErrClosed) {
			t.Errorf("Submit after Cancel: got %v, want ErrClosed", err)
		}
		if err := g.Wait(); err != nil {
			t.Errorf("Wait after Cancel: got %v, want nil (canceling is not failing)", err)
		}
		want := []error{work.ErrGroupCanceled, work.ErrGroupCanceled}
		if !slices.Equal(causes, want) {
			t.Errorf("job context causes: got %v, want %v (the running and the queued job)", causes, want)
		}
	})
}

// countJob is a pooled job type: the caller keeps and resubmits it.
type countJob struct{ n atomic.Int64 }

func (j *countJob) Run(context.Context) { j.n.Add(1) }

// BenchmarkWorkerJob measures a job's submission and completion on a pool
// of GOMAXPROCS workers: "stream" submits b.N jobs and then waits for the
// group (the overhead per job when the workers are busy), "round trip"
// submits one job and waits for it each time (adding a worker's wake-up).
func BenchmarkWorkerJob(b *testing.B) {
	pool, _ := work.NewPool(0)
	defer pool.Close()
	g := pool.Group("bench")
	job := &countJob{}
	b.Run("stream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := g.Submit(job); err != nil {
				b.Fatal(err)
			}
		}
		if err := g.Wait(); err != nil {
			b.Fatal(err)
		}
	})
	b.Run("round trip", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = g.Submit(job)
			_ = g.Wait()
		}
	})
}

// BenchmarkWorkerJobBaseline is the same work without the pool: a
// goroutine per job, and GOMAXPROCS goroutines over a buffered channel.
func BenchmarkWorkerJobBaseline(b *testing.B) {
	job := &countJob{}
	b.Run("goroutine per job", func(b *testing.B) {
		b.ReportAllocs()
		var wg sync.WaitGroup
		for b.Loop() {
			wg.Go(func() { job.Run(context.Background()) })
		}
		wg.Wait()
	})
	b.Run("channel", func(b *testing.B) {
		b.ReportAllocs()
		jobs := make(chan work.Job, 1024)
		var done, workers sync.WaitGroup
		for range goruntime.GOMAXPROCS(0) {
			workers.Go(func() {
				for j := range jobs {
					j.Run(context.Background())
					done.Done()
				}
			})
		}
		for b.Loop() {
			done.Add(1)
			jobs <- job
		}
		done.Wait()
		close(jobs)
		workers.Wait()
	})
}
