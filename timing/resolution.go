package timing

import "time"

// Resolution measures the finest step of the clock now reads: the
// smallest difference between consecutive distinct readings over the
// first steps steps, reading at most reads times in all. Browsers coarsen
// performance.now(), the clock of a wasm program, to 100 µs in a page
// that is not cross-origin isolated; that is the figure this shows.
//
// It returns zero when the clock did not move within reads readings (a
// manual clock, or a stopped one), or when steps or reads is below 1. It
// spins for as long as the steps take, so a caller measures once, at
// start. It allocates nothing and may be called from any goroutine.
func Resolution(now func() Instant, steps, reads int) time.Duration {
	if steps < 1 || reads < 1 {
		return 0
	}
	best := time.Duration(0)
	last := now()
	for range reads - 1 {
		t := now()
		if t == last {
			continue
		}
		if d := time.Duration(t - last); d > 0 && (best == 0 || d < best) {
			best = d
		}
		last = t
		if steps--; steps == 0 {
			break
		}
	}
	return best
}
