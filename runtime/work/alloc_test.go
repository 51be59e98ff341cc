//go:build !race

package work_test

import (
	"testing"

	"github.com/metronome-go/metronome/runtime/work"
)

// TestWorkerJobAllocs: submitting and completing a pooled job allocates
// nothing, once the pool's goroutines have started and its queue has
// grown.
func TestWorkerJobAllocs(t *testing.T) {
	pool, _ := work.NewPool(2)
	defer pool.Close()
	g := pool.Group("allocs")
	job := &countJob{}
	for range 64 { // start the workers and grow the queue
		_ = g.Submit(job)
	}
	_ = g.Wait()
	allocs := testing.AllocsPerRun(1000, func() {
		for range 16 {
			if err := g.Submit(job); err != nil {
				t.Fatal(err)
			}
		}
		_ = g.Wait()
	})
	if allocs != 0 {
		t.Errorf("16 pooled jobs submitted and completed: got %v allocations, want 0", allocs)
	}
	if got := job.n.Load(); got < 16*1000 {
		t.Errorf("ran %d jobs, want at least %d", got, 16*1000)
	}
}
