// Command pacecheck measures how late the native frame wait and a plain
// time.Sleep loop wake up at a frame rate, in the same run, and prints the
// median, p90 and p99 of each, then how quickly a Wake from another
// goroutine ends each kind of interruptible wait.
//
// Usage:
//
//	pacecheck [-frames 600] [-rate 60] [-block 30] [-wakes 100] [-json]
//
// Wake lateness. Every method sleeps toward absolute targets one interval
// apart and records wake minus target: "native" is timing.OSWaiter with
// clock_nanosleep in DefaultWaitSlice slices (what the targets are about),
// "native-unsliced" the same in one piece, "native-futex" the futex waiter,
// and "time.Sleep" a plain loop. That is Linux; on Windows every native
// method is the high-resolution waitable timer and on macOS the kevent
// timer (see timing.OSWaiter), so running it there measures those waits
// against time.Sleep. The methods alternate in blocks of -block
// frames until each has -frames samples, so a burst of load from elsewhere on
// the machine falls on all of them alike. The native waits run on the main
// goroutine, locked to the main OS thread as the runtime's platform thread
// is; the time.Sleep loop runs on an ordinary goroutine as a Go program would
// write it.
//
// Wake latency. For each interruptible waiter the main goroutine waits for a
// far target while another goroutine calls Wake after a random 1 to 9 ms,
// -wakes times; the latency is from the Wake call to the wait's return.
//
// The machine's load average before and after is printed with the results:
// on a busy machine the tails measure the CPU scheduler, not the wait. For
// the locked methods on Linux the runqueue column says how long per frame
// the waiting thread sat runnable without a CPU (from
// /proc/thread-self/schedstat); for the sliced wait it includes the
// intermediate wake-ups, which add no lateness.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/metronome-go/metronome/timing"
)

func init() { goruntime.LockOSThread() }

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // the usage was printed: asking for help is not an error
		}
		fmt.Fprintln(os.Stderr, "pacecheck:", err)
		os.Exit(2)
	}
}

type config struct {
	frames, rate, block, wakes int
	json                       bool
}

func parse(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("pacecheck", flag.ContinueOnError)
	fs.IntVar(&c.frames, "frames", 600, "frames measured per method (1 to 100000)")
	fs.IntVar(&c.rate, "rate", 60, "frame rate in Hz (1 to 1000)")
	fs.IntVar(&c.block, "block", 30, "frames per block before switching method (1 to frames)")
	fs.IntVar(&c.wakes, "wakes", 100, "Wake calls measured per interruptible waiter (0 to 10000)")
	fs.BoolVar(&c.json, "json", false, "print the results as JSON")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	var errs []error
	if c.frames < 1 || c.frames > 100000 {
		errs = append(errs, fmt.Errorf("-frames %d is out of range [1, 100000]", c.frames))
	}
	if c.rate < 1 || c.rate > 1000 {
		errs = append(errs, fmt.Errorf("-rate %d is out of range [1, 1000]", c.rate))
	}
	if c.wakes < 0 || c.wakes > 10000 {
		errs = append(errs, fmt.Errorf("-wakes %d is out of range [0, 10000]", c.wakes))
	}
	if c.block < 1 || c.block > max(c.frames, 1) {
		errs = append(errs, fmt.Errorf("-block %d is out of range [1, %d]", c.block, max(c.frames, 1)))
	}
	return c, errors.Join(errs...)
}

// method is one way of waiting for an absolute target.
type method struct {
	name string
	// locked methods run on the main goroutine (locked to the main
	// thread); the others on a fresh goroutine per block.
	locked bool
	wait   func(target timing.Instant)
}

func methods() ([]method, error) {
	sliced, err := timing.NewOSWaiter(timing.DefaultWaitSlice)
	if err != nil {
		return nil, err
	}
	whole, err := timing.NewOSWaiter(0)
	if err != nil {
		return nil, err
	}
	futex := timing.NewFutexWaiter()
	// native first and time.Sleep last: the ratio compares them.
	return []method{
		{name: "native", locked: true, wait: func(t timing.Instant) { _ = sliced.WaitUntil(t) }},
		{name: "native-unsliced", locked: true, wait: func(t timing.Instant) { _ = whole.WaitUntil(t) }},
		{name: "native-futex", locked: true, wait: func(t timing.Instant) { _ = futex.WaitUntil(t) }},
		{name: "time.Sleep", wait: func(t timing.Instant) {
			if d := time.Duration(t - timing.Now()); d > 0 {
				time.Sleep(d)
			}
		}},
	}, nil
}

// measure runs n frames of m at interval and appends each wake's lateness.
// The schedule is absolute; a wake past the next target re-anchors it so one
// late wake is not counted again in the frames after it.
func measure(m method, n int, interval time.Duration, out []time.Duration) []time.Duration {
	body := func() {
		target := timing.Now() + timing.Instant(interval)
		for range n {
			m.wait(target)
			wake := timing.Now()
			out = append(out, time.Duration(wake-target))
			target += timing.Instant(interval)
			if wake >= target {
				target = wake + timing.Instant(interval)
			}
		}
	}
	if m.locked {
		body()
		return out
	}
	done := make(chan struct{})
	go func() { defer close(done); body() }()
	<-done
	return out
}

// plan splits frames into blocks of at most block frames, in the order the
// methods take turns: [m0 b, m1 b, m2 b, m0 b, ...].
func plan(nMethods, frames, block int) [][2]int {
	var p [][2]int
	for done := 0; done < frames; done += block {
		for m := range nMethods {
			p = append(p, [2]int{m, min(block, frames-done)})
		}
	}
	return p
}

// summary describes one method's lateness samples.
type summary struct {
	Method string        `json:"method"`
	Frames int           `json:"frames"`
	Min    time.Duration `json:"min_ns"`
	Median time.Duration `json:"median_ns"`
	P90    time.Duration `json:"p90_ns"`
	P99    time.Duration `json:"p99_ns"`
	Max    time.Duration `json:"max_ns"`
	Mean   time.Duration `json:"mean_ns"`
	Early  int           `json:"early"` // wakes before the target
	// RunqueueMean is the time per sample the waiting thread spent runnable
	// but without a CPU, when known (locked methods on Linux): lateness
	// the CPU scheduler added, not the timer.
	RunqueueMean time.Duration `json:"runqueue_wait_mean_ns,omitempty"`
	runqueue     bool
}

func summarize(name string, lateness []time.Duration) summary {
	s := summary{Method: name, Frames: len(lateness)}
	if len(lateness) == 0 {
		return s
	}
	sorted := append([]time.Duration(nil), lateness...)
	slices.Sort(sorted)
	var sum time.Duration
	for _, l := range sorted {
		sum += l
		if l < 0 {
			s.Early++
		}
	}
	s.Min, s.Max = sorted[0], sorted[len(sorted)-1]
	s.Mean = sum / time.Duration(len(sorted))
	s.Median = timing.NearestRank(sorted, 50)
	s.P90 = timing.NearestRank(sorted, 90)
	s.P99 = timing.NearestRank(sorted, 99)
	return s
}

type report struct {
	Frames   int           `json:"frames"`
	Rate     int           `json:"rate_hz"`
	Interval time.Duration `json:"interval_ns"`
	Block    int           `json:"block"`
	CPUs     int           `json:"cpus"`
	Load     string        `json:"loadavg"`
	Methods  []summary     `json:"methods"`
	// Ratio is the time.Sleep median over the native median.
	Ratio float64 `json:"median_ratio_sleep_over_native"`
	// Wakes summarizes how long each interruptible wait took to return
	// after another goroutine called Wake.
	Wakes []summary `json:"wake_latency"`
}

func run(args []string, w io.Writer) error {
	c, err := parse(args)
	if err != nil {
		return err
	}
	ms, err := methods()
	if err != nil {
		return err
	}
	interval := timing.PacingForRate(c.rate).Interval
	before := loadavg()
	samples := make([][]time.Duration, len(ms))
	for i, m := range ms { // warm-up, not recorded
		measure(m, 3, interval, nil)
		samples[i] = make([]time.Duration, 0, c.frames)
	}
	rq := make([]time.Duration, len(ms))
	rqKnown := make([]bool, len(ms))
	for i, m := range ms {
		rqKnown[i] = m.locked
	}
	for _, step := range plan(len(ms), c.frames, c.block) {
		i := step[0]
		a, okA := runqueueWait()
		samples[i] = measure(ms[i], step[1], interval, samples[i])
		b, okB := runqueueWait()
		rq[i] += b - a
		rqKnown[i] = rqKnown[i] && okA && okB
	}
	r := report{Frames: c.frames, Rate: c.rate, Interval: interval, Block: c.block,
		CPUs: goruntime.NumCPU(), Load: before + " -> " + loadavg()}
	for i, m := range ms {
		s := summarize(m.name, samples[i])
		if rqKnown[i] && s.Frames > 0 {
			s.RunqueueMean, s.runqueue = rq[i]/time.Duration(s.Frames), true
		}
		r.Methods = append(r.Methods, s)
	}
	r.Ratio = ratio(r.Methods[len(ms)-1].Median, r.Methods[0].Median)
	if c.wakes > 0 {
		its, err := interruptibles()
		if err != nil {
			return err
		}
		for _, it := range its {
			r.Wakes = append(r.Wakes, summarize(it.name, measureWakes(it, c.wakes)))
		}
	}
	if c.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	printReport(w, r)
	return nil
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func ms3(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)) }

func printReport(w io.Writer, r report) {
	fmt.Fprintf(w, "wake lateness at %d Hz (%v), %d frames per method in blocks of %d, %d CPUs, load %s\n\n",
		r.Rate, r.Interval, r.Frames, r.Block, r.CPUs, r.Load)
	fmt.Fprintf(w, "%-16s %9s %9s %9s %9s %9s %9s %6s %9s\n", "method (ms)", "min", "median", "p90", "p99", "max", "mean", "early", "runqueue")
	for _, s := range r.Methods {
		q := "-"
		if s.runqueue {
			q = ms3(s.RunqueueMean)
		}
		fmt.Fprintf(w, "%-16s %9s %9s %9s %9s %9s %9s %6d %9s\n", s.Method, ms3(s.Min), ms3(s.Median), ms3(s.P90), ms3(s.P99), ms3(s.Max), ms3(s.Mean), s.Early, q)
	}
	fmt.Fprintln(w, "(runqueue: mean time per frame the waiting thread was runnable but had no CPU)")
	if len(r.Wakes) > 0 {
		fmt.Fprintf(w, "\nlatency from Wake to the wait's return, %d wakes each\n", r.Wakes[0].Frames)
		fmt.Fprintf(w, "%-16s %9s %9s %9s %9s %9s %9s\n", "waiter (ms)", "min", "median", "p90", "p99", "max", "mean")
		for _, s := range r.Wakes {
			fmt.Fprintf(w, "%-16s %9s %9s %9s %9s %9s %9s\n", s.Method, ms3(s.Min), ms3(s.Median), ms3(s.P90), ms3(s.P99), ms3(s.Max), ms3(s.Mean))
		}
	}
	n := r.Methods[0]
	fmt.Fprintf(w, "\nmedian ratio time.Sleep / native: %.1fx\n", r.Ratio)
	check := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	fmt.Fprintf(w, "targets: native median <= 0.15 ms %s; native p99 <= 0.5 ms %s; ratio >= 3 %s\n",
		check(n.Median <= 150*time.Microsecond), check(n.P99 <= 500*time.Microsecond), check(r.Ratio >= 3))
}

// runqueueWait returns how long the calling OS thread has waited runnable
// for a CPU in total: the second field of /proc/thread-self/schedstat. It
// reports false where that file does not exist.
func runqueueWait() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/thread-self/schedstat")
	if err != nil {
		return 0, false
	}
	return parseSchedstat(string(b))
}

func parseSchedstat(s string) (time.Duration, bool) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return 0, false
	}
	ns, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || ns < 0 {
		return 0, false
	}
	return time.Duration(ns), true
}

// loadavg returns the first three fields of /proc/loadavg, or "unknown".
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
