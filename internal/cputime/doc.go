// Package cputime reads the CPU time the process, or the calling OS
// thread, has used. Benchmarks report it beside wall time because the
// machines they run on are shared: wall time grows with every process that
// competes for a core, CPU time does not.
//
// Each system reads it its own way:
//
//   - Linux: getrusage, with RUSAGE_THREAD for [Thread];
//   - Windows: GetProcessTimes and GetThreadTimes;
//   - macOS and the other Unix systems: getrusage for the process. They
//     have no per-thread figure in getrusage, so [Thread] returns the
//     process's time there and says so through [ThreadIsProcess].
//
// Elsewhere (js/wasm, plan9) both functions return an error and benchmarks
// fall back to wall time.
//
//	t0, _ := cputime.Process()
//	work()
//	t1, _ := cputime.Process()
//	b.ReportMetric(float64(t1-t0)/float64(b.N), "cpu-ns/op")
package cputime
