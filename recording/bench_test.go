package recording_test

import (
	"bytes"
	"sync/atomic"
	"testing"

	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/timing"
)

// countWriter counts the bytes written to it.
type countWriter struct{ n atomic.Int64 }

func (c *countWriter) Write(b []byte) (int, error) {
	c.n.Add(int64(len(b)))
	return len(b), nil
}

var benchSessions = []struct {
	name string
	o    sessionOptions
}{
	{"idle", sessionOptions{seed: 61, ticks: 20000, every: 60}},
	{"input", sessionOptions{seed: 62, ticks: 20000, input: true, every: 60}},
	{"input-timestamped", sessionOptions{seed: 63, ticks: 20000, input: true, timestamped: true, every: 60}},
}

// BenchmarkAppend measures recording cost per tick (checkpoints every 60
// ticks included) and reports the recording's size per tick, headers and
// chunk frames included, and the share of ticks that carry input.
func BenchmarkAppend(b *testing.B) {
	for _, s := range benchSessions {
		evs := makeSession(b, s.o)
		withInput := 0
		for _, e := range evs {
			if e.tick != nil && len(e.tick.Records) > 0 {
				withInput++
			}
		}
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			var cw countWriter
			w, err := recording.NewWriter(&cw, "b.rec", testHeader)
			if err != nil {
				b.Fatal(err)
			}
			i, ticks := 0, 0
			for b.Loop() {
				e := evs[i%len(evs)]
				i++
				if e.cp != nil {
					if err := w.Checkpoint(e.cp); err != nil {
						b.Fatal(err)
					}
					e = evs[i%len(evs)]
					i++
					if e.tick == nil {
						continue
					}
				}
				if err := w.Append(e.tick); err != nil {
					b.Fatal(err)
				}
				ticks++
			}
			if err := w.Close(nil); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(cw.n.Load())/float64(ticks), "B/tick")
			b.ReportMetric(float64(withInput)/float64(s.o.ticks), "input-ticks/tick")
		})
	}
}

// BenchmarkNext measures decoding per item (ticks and checkpoints), as a
// replay reads.
func BenchmarkNext(b *testing.B) {
	for _, s := range benchSessions {
		data := write(b, testHeader, makeSession(b, s.o), nil)
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)) / int64(s.o.ticks))
			var r *recording.Reader
			for b.Loop() {
				if r == nil {
					var err error
					if r, err = recording.NewReader(bytes.NewReader(data), "b.rec"); err != nil {
						b.Fatal(err)
					}
				}
				if it, err := r.Next(); err != nil {
					b.Fatal(err)
				} else if _, end := it.(*recording.End); end {
					r = nil
				}
			}
		})
	}
}

// BenchmarkBaseline gives the figures above a reference measured in the
// same run: the scheduler's own work for one batch (Advance and Stats, as
// the runtime calls them), and a plain copy of each tick into memory (the
// least any recording could do).
func BenchmarkBaseline(b *testing.B) {
	b.Run("scheduler-advance", func(b *testing.B) {
		b.ReportAllocs()
		opts := timing.DefaultOptions()
		opts.Mode = timing.FixedMode
		opts.Rate = timing.Hz(60)
		s, err := timing.NewScheduler(opts)
		if err != nil {
			b.Fatal(err)
		}
		now := timing.Instant(1e12)
		s.Start(now)
		var sink timing.Stats
		for b.Loop() {
			now += 16_666_667
			if _, err := s.Advance(now); err != nil {
				b.Fatal(err)
			}
			sink = s.Stats()
		}
		_ = sink
	})
	evs := makeSession(b, benchSessions[1].o)
	b.Run("copy-tick", func(b *testing.B) {
		b.ReportAllocs()
		keep := make([]recording.Tick, 1024)
		buf := make([]byte, 0, 1<<20)
		i := 0
		for b.Loop() {
			e := evs[i%len(evs)]
			i++
			if e.tick == nil {
				continue
			}
			keep[i%len(keep)] = *e.tick
			if len(buf)+len(e.tick.Records)*48 > cap(buf) {
				buf = buf[:0]
			}
			buf = append(buf, make([]byte, len(e.tick.Records)*48)...)
		}
	})
}
