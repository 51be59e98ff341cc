package input_test

import (
	"testing"

	"github.com/metronome-go/metronome/input"
)

// The benchmarks measure the cost per poll and per tick. Compare them with
// BenchmarkBaselineCopy, which only copies the same 192 records a tick of
// the 64-poll fixture holds, in the same run:
//
//	go test -run XXX -bench . -benchmem ./input/

// BenchmarkPoll records three events and pushes them as one poll.
func BenchmarkPoll(b *testing.B) {
	b.ReportAllocs()
	f := newBacklogFixture(b, 64)
	f.round()
	var tick input.Tick
	b.ResetTimer()
	for i := range b.N {
		f.now += 4 * ms
		f.rec.Press(f.now, input.KeyA)
		f.rec.Cursor(f.now, float64(i), 1)
		f.rec.Release(f.now+ms, input.KeyA)
		f.poll(f.now + ms)
		if i%64 == 63 {
			f.q.TakeAll(f.now+2*ms, &tick)
		}
	}
}

// BenchmarkTick64 takes a 64-poll backlog (192 records) into a tick and
// queries four actions; the backlog is refilled outside the timer.
func BenchmarkTick64(b *testing.B) {
	b.ReportAllocs()
	f := newBacklogFixture(b, 64)
	f.round()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		f.fill()
		b.StartTimer()
		f.q.TakeAll(f.now+2*ms, &f.tick)
		for _, a := range f.actions {
			s := f.tick.Action(a)
			f.sink += s.Presses
		}
	}
}

// BenchmarkTick64Round is a full round: 64 polls recorded and pushed, one
// take, four action queries.
func BenchmarkTick64Round(b *testing.B) {
	b.ReportAllocs()
	f := newBacklogFixture(b, 64)
	f.round()
	b.ResetTimer()
	for range b.N {
		f.round()
	}
}

// BenchmarkTick64Analog is BenchmarkTick64Round with a stick moved at every
// poll (256 records per tick) and two analog actions queried as well.
func BenchmarkTick64Analog(b *testing.B) {
	b.ReportAllocs()
	f := newFixture(b, 64, true)
	f.round()
	b.ResetTimer()
	for range b.N {
		f.round()
	}
}

// BenchmarkBaselineCopy copies 192 records, the floor for any design that
// hands records across goroutines by value.
func BenchmarkBaselineCopy(b *testing.B) {
	b.ReportAllocs()
	src := make([]input.Record, 192)
	dst := make([]input.Record, 0, 192)
	for range b.N {
		dst = append(dst[:0], src...)
	}
	_ = dst
}
