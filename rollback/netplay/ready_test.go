package netplay_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/timing"
)

// TestReadyStartsThePeersTogether has the host and one joiner ready at
// once and another joiner 300 ms later, on virtual time: nobody starts
// before the last is ready, and all start together after it.
func TestReadyStartsThePeersTogether(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			v := newVirtual()
			ms := open(t, tr, 3, netplay.Options{Networks: udpOnly, Timeout: 2 * time.Second, Clock: v.clock})
			v.ms = ms
			ctx, cancel := context.WithTimeout(context.Background(), within)
			defer cancel()
			type start struct {
				peer int
				at   timing.Instant
				err  error
			}
			started := make(chan start, len(ms))
			ready := func(i int) {
				go func() {
					err := ms[i].Ready(ctx)
					started <- start{i, v.clock.Now(), err}
				}()
			}
			ready(0)
			ready(1)
			const step = time.Millisecond
			v.until(t, step, 300*time.Millisecond, "300 ms", func() bool { return v.clock.Now() >= timing.Instant(300*time.Millisecond) })
			select {
			case s := <-started:
				t.Fatalf("peer %d started at %v, before the last peer was ready", s.peer, time.Duration(s.at))
			default:
			}
			lastReady := v.clock.Now()
			before := ms[2].Stats().Sent.Packets
			ready(2)
			// Its ready is on its way (the clock stands still, so nothing
			// else is), and the go follows once it arrives: settle, then
			// one step for the starts' waits (half a round trip, which is
			// at most a step here). No step after it: each peer reads the
			// clock as it starts.
			eventually(t, "the last ready sent", func() bool { return ms[2].Stats().Sent.Packets > before })
			v.settle(t)
			v.step(2 * step)
			var first, last timing.Instant = timing.MaxInstant, 0
			for range ms {
				s := receive(t, started)
				if s.err != nil {
					t.Fatalf("peer %d: Ready: %v", s.peer, s.err)
				}
				first, last = min(first, s.at), max(last, s.at)
			}
			if first < lastReady {
				t.Errorf("a peer started %v before the last peer was ready", time.Duration(lastReady-first))
			}
			if d := time.Duration(last - first); d > 2*step {
				t.Errorf("the peers started %v apart, want together (within the one step after the last ready)", d)
			}
		})
	}
}

// TestReadyWaitsForEveryPeer gives up with ctx's error, naming the peer
// that never said it was ready.
func TestReadyWaitsForEveryPeer(t *testing.T) {
	ms := open(t, "udp", 2, netplay.Options{Networks: udpOnly, Timeout: 2 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // nobody will be ready: give up at once
	err := ms[0].Ready(ctx)
	if err == nil || !strings.Contains(err.Error(), "peer 1") {
		t.Fatalf("Ready with a joiner never ready: %v, want an error naming peer 1", err)
	}
	if err := ms[1].Ready(ctx); err == nil || !strings.Contains(err.Error(), "the host's go") {
		t.Fatalf("a joiner's Ready with no host Ready: %v, want an error saying it waited for the go", err)
	}
}
