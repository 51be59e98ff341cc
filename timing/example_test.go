package timing_test

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// A 30 ms fixed step allowing two updates per cycle meets a 500 ms stall:
// it runs two steps, drops 420 ms and keeps 20 ms for the next deadline.
func ExampleScheduler() {
	opts := timing.DefaultOptions()
	opts.Mode = timing.FixedMode
	opts.FixedStep = 30 * time.Millisecond
	opts.MaxFixedUpdates = 2
	opts.Recovery = timing.DropExcessLag

	sched, err := timing.NewScheduler(opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	clock := timing.NewManualClock(0)
	sched.Start(clock.Now())

	batch, err := sched.Advance(clock.Advance(500 * time.Millisecond))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range batch.Updates {
		fmt.Printf("%v update of %v for real time %v..%v\n", u.Kind, u.Delta, time.Duration(u.Start), time.Duration(u.End))
	}
	l := sched.Ledger()
	fmt.Println("dropped:", batch.Dropped, "pending:", l.Pending())
	fmt.Println("next update at:", time.Duration(sched.NextUpdateAt()))
	// Output:
	// fixed update of 30ms for real time 420ms..450ms
	// fixed update of 30ms for real time 450ms..480ms
	// dropped: 420ms pending: 20ms
	// next update at: 510ms
}

// A rate keeps the exact fraction: at 60 Hz each step is 1/60 s, which no
// whole number of nanoseconds equals, yet a second holds exactly 60 steps.
func ExampleRate() {
	opts := timing.DefaultOptions()
	opts.Mode = timing.FixedMode
	opts.Rate = timing.Hz(60)
	opts.MaxFixedUpdates = 64
	sched, _ := timing.NewScheduler(opts)
	sched.Start(0)

	steps := 0
	for _, now := range []timing.Instant{7_000_000, 333_333_333, 500_000_001, 1_000_000_000} {
		batch, _ := sched.Advance(now)
		steps += len(batch.Updates)
	}
	l := sched.Ledger()
	fmt.Println(steps, "steps,", l.Simulated, "simulated,", l.Pending(), "pending")
	// Output: 60 steps, 1s simulated, 0s pending
}

// Under RepayDebt a stall is kept as debt and repaid by running faster than
// real time, never faster than MaxSpeedUp.
func ExampleScheduler_repayDebt() {
	opts := timing.DefaultOptions()
	opts.Mode = timing.FixedMode
	opts.FixedStep = 10 * time.Millisecond
	opts.MaxFixedUpdates = 2
	opts.Recovery = timing.RepayDebt
	sched, _ := timing.NewScheduler(opts)
	sched.Start(0)

	sched.Advance(timing.Instant(500 * time.Millisecond)) // a stall
	st := sched.Stats()
	fmt.Printf("after the stall: debt %d steps, rate %.2f, acting %v\n", st.Debt, st.Rate, st.Acting)

	now := 500 * time.Millisecond
	for st.Debt > 0 {
		now += 10 * time.Millisecond
		sched.Advance(timing.Instant(now))
		st = sched.Stats()
	}
	fmt.Printf("repaid after %v, nothing dropped: %v\n", now-500*time.Millisecond, st.Dropped == 0)
	// Output:
	// after the stall: debt 48 steps, rate 1.24, acting pacing+quiet-ticks
	// repaid after 8.9s, nothing dropped: true
}

// A frame clock turns one reading per frame into clamped intervals.
func ExampleFrameClock() {
	fc, _ := timing.NewFrameClock(100 * time.Millisecond)
	for _, now := range []time.Duration{0, 16 * time.Millisecond, 616 * time.Millisecond, 600 * time.Millisecond} {
		s := fc.Sample(timing.Instant(now))
		fmt.Printf("%v: elapsed %v discarded %v baseline %v regression %v\n", now, s.Elapsed, s.Discarded, s.Baseline, s.Regression)
	}
	// Output:
	// 0s: elapsed 0s discarded 0s baseline true regression false
	// 16ms: elapsed 16ms discarded 0s baseline false regression false
	// 616ms: elapsed 100ms discarded 500ms baseline false regression false
	// 600ms: elapsed 0s discarded 0s baseline false regression true
}

func ExampleStopwatch() {
	var w timing.Stopwatch
	w.Start(0)
	_ = w.Pause(timing.Instant(40 * time.Millisecond))
	_ = w.Resume(timing.Instant(100 * time.Millisecond))
	d, _ := w.Read(timing.Instant(110 * time.Millisecond))
	fmt.Println(d)
	// Output: 50ms
}

func ExampleDeadline() {
	var d timing.Deadline
	_ = d.Arm(0, 250*time.Millisecond)
	for _, now := range []time.Duration{100 * time.Millisecond, 250 * time.Millisecond} {
		fmt.Printf("at %v: due %v, remaining %v\n", now, d.Due(timing.Instant(now)), d.Remaining(timing.Instant(now)))
	}
	// Output:
	// at 100ms: due false, remaining 150ms
	// at 250ms: due true, remaining 0s
}

// A clock coarsened to 100 µs, as performance.now() is in a browser page
// that is not cross-origin isolated: Resolution finds its step.
func ExampleResolution() {
	var reads int
	coarse := func() timing.Instant {
		reads++
		return timing.Instant(reads / 25 * int(100*time.Microsecond))
	}
	fmt.Println(timing.Resolution(coarse, 5, 10_000))
	// Output: 100µs
}
