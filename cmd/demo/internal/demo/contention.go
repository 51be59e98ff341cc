package demo

import (
	"runtime/metrics"
	"time"
)

// schedLatencies is the Go runtime's histogram of the time goroutines
// spent runnable before they ran: a goroutine (the platform thread's
// among them) waiting for a processor the load's workers hold.
const schedLatencies = "/sched/latencies:seconds"

// contentionSample is what kept the platform thread from running, as
// read at one instant: its time waiting for a processor in the kernel's
// run queue (Linux; the platform thread is the process's main thread)
// and the Go scheduler's latency histogram.
type contentionSample struct {
	runDelay time.Duration
	measured bool // runDelay was read
	sched    metrics.Float64Histogram
}

// sampleContention reads a sample. Not for a per-frame path: it allocates.
// Any goroutine.
func sampleContention() contentionSample {
	var s contentionSample
	s.runDelay, s.measured = platformRunDelay()
	m := []metrics.Sample{{Name: schedLatencies}}
	metrics.Read(m)
	if m[0].Value.Kind() == metrics.KindFloat64Histogram {
		h := m[0].Value.Float64Histogram()
		s.sched = metrics.Float64Histogram{Counts: append([]uint64(nil), h.Counts...), Buckets: h.Buckets}
	}
	return s
}

// Contention is what kept the platform thread from running over a stretch
// of the session, from two samples.
type Contention struct {
	// RunDelayNS is the time the platform thread was ready to run and
	// waited for a processor (the kernel's run queue: other threads of
	// the process, the X server, other programs); 0 where not measured
	// (RunDelayMeasured false: only on Linux).
	RunDelayNS       int64 `json:"run_delay_ns"`
	RunDelayMeasured bool  `json:"run_delay_measured"`
	// SchedWaits counts the goroutine wake-ups (the Go runtime samples
	// one in a few) that waited 1 ms or more for a processor of the Go
	// scheduler, and SchedLongestNS is the lower bound of the longest
	// such wait's histogram bucket.
	SchedWaits     uint64 `json:"sched_waits_over_1ms"`
	SchedLongestNS int64  `json:"sched_longest_ns"`
}

// since is the contention from s0 to s.
func (s contentionSample) since(s0 contentionSample) Contention {
	c := Contention{RunDelayMeasured: s.measured && s0.measured}
	if c.RunDelayMeasured {
		c.RunDelayNS = int64(s.runDelay - s0.runDelay)
	}
	h := s.sched
	if len(h.Counts) != len(s0.sched.Counts) {
		return c
	}
	for i, n := range h.Counts {
		d := n - s0.sched.Counts[i]
		if d == 0 || h.Buckets[i] < 1e-3 {
			continue
		}
		c.SchedWaits += d
		c.SchedLongestNS = int64(h.Buckets[i] * 1e9)
	}
	return c
}
