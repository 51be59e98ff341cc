//go:build !race

package netsim_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

func TestSteadySendReceiveAllocatesNothing(t *testing.T) {
	l, err := netsim.NewLink(netsim.Options{Latency: 5 * time.Millisecond, Jitter: 2 * time.Millisecond, Loss: 0.1, Duplicate: 0.1, Reorder: 0.1, Bandwidth: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	p, buf := make([]byte, 200), make([]byte, 256)
	now := timing.Instant(0)
	step := func() {
		l.Send(now, p)
		for _, ok := l.Receive(now, buf); ok; _, ok = l.Receive(now, buf) {
		}
		now += timing.Instant(time.Millisecond)
	}
	for range 1000 {
		step()
	}
	if a := testing.AllocsPerRun(1000, step); a != 0 {
		t.Errorf("%v allocations per send and receive, want 0", a)
	}
}
