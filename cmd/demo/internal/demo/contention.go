package demo

import (
	"runtime/metrics"
	"time"
)

// The Go runtime's metrics a contention sample reads, in the order of
// contentionSample's metrics.
var contentionMetrics = [...]string{
	// The time goroutines spent runnable before they ran: a goroutine (the
	// platform thread's among them) waiting for a processor of the Go
	// scheduler that others hold.
	"/sched/latencies:seconds",
	// Stop-the-world pauses for collections and for anything else (a
	// GOMAXPROCS change among them).
	"/sched/pauses/total/gc:seconds",
	"/sched/pauses/total/other:seconds",
	"/gc/cycles/total:gc-cycles",
	// CPU time goroutines spent helping the collector mark as they
	// allocated, and the collector's CPU time in all.
	"/cpu/classes/gc/mark/assist:cpu-seconds",
	"/cpu/classes/gc/total:cpu-seconds",
	"/gc/heap/allocs:bytes",
}

const (
	metricSched = iota
	metricGCPause
	metricOtherPause
	metricGCCycles
	metricAssist
	metricGCCPU
	metricAllocs
)

// contentionSample is what kept the platform thread from running, as
// read at one instant: its time waiting for a processor in the kernel's
// run queue (Linux; the platform thread is the process's main thread)
// and the Go runtime's metrics of scheduling and collection.
type contentionSample struct {
	runDelay time.Duration
	measured bool // runDelay was read
	metrics  [len(contentionMetrics)]metrics.Value
	hists    [len(contentionMetrics)]metrics.Float64Histogram // copies of the histograms
}

// sampleContention reads a sample. Not for a per-frame path: it allocates.
// Any goroutine.
func sampleContention() contentionSample {
	var s contentionSample
	s.runDelay, s.measured = platformRunDelay()
	m := make([]metrics.Sample, len(contentionMetrics))
	for i, name := range contentionMetrics {
		m[i].Name = name
	}
	metrics.Read(m)
	for i := range m {
		s.metrics[i] = m[i].Value
		if m[i].Value.Kind() == metrics.KindFloat64Histogram {
			h := m[i].Value.Float64Histogram()
			s.hists[i] = metrics.Float64Histogram{Counts: append([]uint64(nil), h.Counts...), Buckets: h.Buckets}
		}
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
	// GCCycles counts the collections that ended; GCPauses and
	// GCPauseLongestNS their stop-the-world pauses and the lower bound
	// of the longest one's bucket, OtherPauses and OtherPauseLongestNS
	// the same for the other pauses (GOMAXPROCS changes among them).
	GCCycles            uint64 `json:"gc_cycles"`
	GCPauses            uint64 `json:"gc_pauses"`
	GCPauseLongestNS    int64  `json:"gc_pause_longest_ns"`
	OtherPauses         uint64 `json:"other_pauses"`
	OtherPauseLongestNS int64  `json:"other_pause_longest_ns"`
	// GCAssistNS is the CPU time goroutines spent marking for the
	// collector when they allocated (the platform thread's allocations
	// among them), GCCPUNS the collector's CPU time in all, and
	// AllocBytes what the process allocated.
	GCAssistNS int64  `json:"gc_assist_ns"`
	GCCPUNS    int64  `json:"gc_cpu_ns"`
	AllocBytes uint64 `json:"alloc_bytes"`
}

// since is the contention from s0 to s.
func (s contentionSample) since(s0 contentionSample) Contention {
	c := Contention{RunDelayMeasured: s.measured && s0.measured}
	if c.RunDelayMeasured {
		c.RunDelayNS = int64(s.runDelay - s0.runDelay)
	}
	c.SchedWaits, c.SchedLongestNS = s.histSince(s0, metricSched, 1e-3)
	c.GCPauses, c.GCPauseLongestNS = s.histSince(s0, metricGCPause, 0)
	c.OtherPauses, c.OtherPauseLongestNS = s.histSince(s0, metricOtherPause, 0)
	c.GCCycles = s.uintSince(s0, metricGCCycles)
	c.AllocBytes = s.uintSince(s0, metricAllocs)
	c.GCAssistNS = s.secondsSince(s0, metricAssist)
	c.GCCPUNS = s.secondsSince(s0, metricGCCPU)
	return c
}

// histSince counts the events of histogram i from s0 to s in buckets
// from least seconds up and gives the lower bound of the highest such
// bucket with an event.
func (s *contentionSample) histSince(s0 contentionSample, i int, least float64) (n uint64, longestNS int64) {
	h, h0 := s.hists[i], s0.hists[i]
	if len(h.Counts) != len(h0.Counts) {
		return 0, 0
	}
	for b, count := range h.Counts {
		d := count - h0.Counts[b]
		if d == 0 || (least > 0 && h.Buckets[b] < least) {
			continue
		}
		n += d
		longestNS = int64(max(h.Buckets[b], 0) * 1e9)
	}
	return n, longestNS
}

func (s *contentionSample) uintSince(s0 contentionSample, i int) uint64 {
	v, v0 := s.metrics[i], s0.metrics[i]
	if v.Kind() != metrics.KindUint64 || v0.Kind() != metrics.KindUint64 {
		return 0
	}
	return v.Uint64() - v0.Uint64()
}

func (s *contentionSample) secondsSince(s0 contentionSample, i int) int64 {
	v, v0 := s.metrics[i], s0.metrics[i]
	if v.Kind() != metrics.KindFloat64 || v0.Kind() != metrics.KindFloat64 {
		return 0
	}
	return int64((v.Float64() - v0.Float64()) * 1e9)
}
