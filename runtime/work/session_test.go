package work_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/runtime/work"
)

// TestSessionCloseAndSettle: after Close the session's groups refuse jobs
// and their contexts are done; Settle serves the owner between its waits,
// gives up at the limit with ErrSettleTimeout, and otherwise joins the
// owned pool.
func TestSessionCloseAndSettle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := runtimetest.NewBubbleClock()
		refuse := func(func()) error { return work.ErrClosed }
		s, err := work.NewSession(work.Options{Workers: 1}, refuse, refuse, nil)
		if err != nil {
			t.Fatal(err)
		}
		release := make(chan struct{})
		cause := make(chan error, 1)
		g := s.Group("stuck")
		if err := g.Submit(work.JobFunc(func(ctx context.Context) {
			<-ctx.Done()
			cause <- context.Cause(ctx)
			<-release
		})); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if err := s.Group("late").Submit(work.JobFunc(func(context.Context) {})); !errors.Is(err, work.ErrClosed) {
			t.Errorf("Submit after Close: got %v, want ErrClosed", err)
		}
		served := 0
		start := clock.Now()
		err = s.Settle(clock, clock.NewWaiter(), 5*time.Millisecond, func() { served++ })
		if !errors.Is(err, work.ErrSettleTimeout) {
			t.Fatalf("Settle with a stuck job: got %v, want ErrSettleTimeout", err)
		}
		if waited := time.Duration(clock.Now() - start); waited != 5*time.Millisecond || served < 5 {
			t.Errorf("Settle waited %v serving %d times, want 5ms in 1 ms waits", waited, served)
		}
		if c := <-cause; !errors.Is(c, work.ErrClosed) {
			t.Errorf("the job's context cause: got %v, want ErrClosed", c)
		}
		close(release)
		synctest.Wait()
		if got := s.Active(); got != 0 {
			t.Errorf("Active after the job ended: %d, want 0", got)
		}

		s2, _ := work.NewSession(work.Options{Workers: 2}, refuse, refuse, nil)
		_ = s2.Group("quick").Submit(work.JobFunc(func(context.Context) {}))
		s2.Close()
		if err := s2.Settle(clock, clock.NewWaiter(), 0, func() {}); err != nil {
			t.Fatalf("Settle: %v", err)
		}
		if n := s2.Pool().Running(); n != 0 {
			t.Errorf("workers after Settle: %d, want 0 (the owned pool joined)", n)
		}
	})
}
