package netplay_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback/netplay"
)

// TestReadyStartsThePeersTogether has the host and one joiner ready at
// once and another joiner 300 ms later: nobody starts before the last is
// ready, and all start together after it.
func TestReadyStartsThePeersTogether(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			ms := open(t, tr, 3, netplay.Options{Timeout: 2 * time.Second})
			ctx, cancel := context.WithTimeout(context.Background(), within)
			defer cancel()
			var wg sync.WaitGroup
			started := make([]time.Time, len(ms))
			errs := make([]error, len(ms))
			var lastReady time.Time
			for i, m := range ms {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if i == 2 {
						time.Sleep(300 * time.Millisecond)
						lastReady = time.Now()
					}
					errs[i] = m.Ready(ctx)
					started[i] = time.Now()
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("peer %d: Ready: %v", i, err)
				}
			}
			first, last := started[0], started[0]
			for i, s := range started {
				if s.Before(lastReady) {
					t.Errorf("peer %d started %v before the last peer was ready", i, lastReady.Sub(s))
				}
				if s.Before(first) {
					first = s
				}
				if s.After(last) {
					last = s
				}
			}
			// On loopback the go arrives at once; a lost one is repeated
			// after the next ready, 25 ms later.
			if d := last.Sub(first); d > time.Second {
				t.Errorf("the peers started %v apart, want together", d)
			}
		})
	}
}

// TestReadyWaitsForEveryPeer gives up with ctx's error, naming the peer
// that never said it was ready.
func TestReadyWaitsForEveryPeer(t *testing.T) {
	ms := open(t, "udp", 2, netplay.Options{Timeout: 2 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	err := ms[0].Ready(ctx)
	if err == nil || !strings.Contains(err.Error(), "peer 1") {
		t.Fatalf("Ready with a joiner never ready: %v, want an error naming peer 1", err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel2()
	if err := ms[1].Ready(ctx2); err == nil || !strings.Contains(err.Error(), "the host's go") {
		t.Fatalf("a joiner's Ready with no host Ready: %v, want an error saying it waited for the go", err)
	}
}
