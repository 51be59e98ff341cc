package timing_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// benchModes are the configurations whose Advance cost is measured.
func benchModes() []struct {
	name string
	opts timing.Options
	gap  func(i int) time.Duration
} {
	frame := func(int) time.Duration { return timing.DefaultInterval }
	// Every 50th frame stalls for 200 ms, so recovery code runs too.
	stalls := func(i int) time.Duration {
		if i%50 == 49 {
			return 200 * time.Millisecond
		}
		return timing.DefaultInterval + time.Duration(i%7)*100*time.Microsecond
	}
	variable := timing.DefaultOptions()
	fixed := schFixed(timing.DefaultInterval, 4, timing.DropExcessLag)
	rate := schFixed(0, 4, timing.DropExcessLag)
	rate.Rate = timing.Hz(60)
	catchUp := schFixed(timing.DefaultInterval, 4, timing.VariableCatchUp)
	catchUp.RecoveryPrefix = 2
	repay := repayOpts()
	repay.Rate = timing.Hz(60)
	merge := repayOpts()
	merge.Debt.VariableStep = true
	merge.Debt.CoarseCosmetic = true
	return []struct {
		name string
		opts timing.Options
		gap  func(i int) time.Duration
	}{
		{"variable", variable, frame},
		{"fixed", fixed, stalls},
		{"rate60", rate, stalls},
		{"catchup", catchUp, stalls},
		{"repay", repay, stalls},
		{"repay-merge", merge, stalls},
	}
}

func BenchmarkAdvance(b *testing.B) {
	for _, m := range benchModes() {
		b.Run(m.name, func(b *testing.B) {
			s := schStart(b, m.opts)
			now := schEpoch
			gaps := make([]timing.Instant, 1024)
			for i := range gaps {
				gaps[i] = timing.Instant(m.gap(i))
			}
			b.ReportAllocs()
			b.ResetTimer()
			n := 0
			for i := 0; b.Loop(); i++ {
				now += gaps[i&1023]
				batch, err := s.Advance(now)
				if err != nil {
					b.Fatal(err)
				}
				n += len(batch.Updates)
			}
			b.ReportMetric(float64(n)/float64(b.N), "updates/op")
		})
	}
}

// BenchmarkBaselineNow reads the real clock: the cost Advance is compared
// with, measured in the same run.
func BenchmarkBaselineNow(b *testing.B) {
	b.ReportAllocs()
	var sink timing.Instant
	for b.Loop() {
		sink += timing.Now()
	}
	_ = sink
}

func BenchmarkStats(b *testing.B) {
	s := schStart(b, repayOpts())
	schAdvance(b, s, schAt(time.Second))
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Stats()
	}
}
