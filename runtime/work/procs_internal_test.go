package work

import (
	"context"
	goruntime "runtime"
	"sync"
	"testing"
)

// TestBackgroundWorkersBringTheirOwnProcessors: from a background pool's
// first job until it is closed, GOMAXPROCS is raised by the pool's
// capacity, so its workers never hold a processor the game's goroutines
// would wait for (the platform thread among them). An ordinary pool
// leaves GOMAXPROCS alone.
func TestBackgroundWorkersBringTheirOwnProcessors(t *testing.T) {
	base := goruntime.GOMAXPROCS(0)
	for _, tc := range []struct {
		name string
		nice int
		want int // GOMAXPROCS while both workers run a job
	}{
		{"ordinary", 0, base},
		{"background", BackgroundNice, base + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pool, err := newPool(2, tc.nice)
			if err != nil {
				t.Fatal(err)
			}
			g := pool.Group("load")
			var both, read sync.WaitGroup
			both.Add(2)
			read.Add(2)
			seen := make(chan int, 2)
			job := JobFunc(func(context.Context) {
				both.Done()
				both.Wait() // both workers are busy
				seen <- goruntime.GOMAXPROCS(0)
				read.Done()
				read.Wait() // neither is done before both have read
			})
			for range 2 {
				if err := g.Submit(job); err != nil {
					t.Fatal(err)
				}
			}
			for range 2 {
				if got := <-seen; got != tc.want {
					t.Errorf("GOMAXPROCS with both workers busy: %d, want %d (GOMAXPROCS before: %d)", got, tc.want, base)
				}
			}
			_ = g.Wait()
			if got := goruntime.GOMAXPROCS(0); got != tc.want {
				t.Errorf("GOMAXPROCS with the workers idle: %d, want %d until the pool is closed", got, tc.want)
			}
			pool.Close()
			if got := goruntime.GOMAXPROCS(0); got != base {
				t.Errorf("GOMAXPROCS after the jobs: %d, want %d as before", got, base)
			}
		})
	}
}
