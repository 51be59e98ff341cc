//go:build !race

package netplay_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback/netplay"
)

// A message sent over UDP and received at the other end: Send, the
// reading goroutine and Receive allocate nothing in steady state.
func TestSteadyUDPMessagesAllocateNothing(t *testing.T) {
	ms := open(t, netplay.UDP, 2, netplay.Options{Networks: udpOnly})
	msg := make([]byte, 60)
	buf := make([]byte, 1200)
	// Wait on a ticker, not by spinning: a spinning goroutine keeps the
	// scheduler from polling the network for up to 10ms.
	tick := time.NewTicker(50 * time.Microsecond)
	defer tick.Stop()
	exchange := func() {
		if err := ms[1].Send(0, msg); err != nil {
			t.Fatal(err)
		}
		for range 1_000_000 {
			if _, _, ok := ms[0].Receive(buf); ok {
				return
			}
			<-tick.C
		}
		t.Fatal("no message")
	}
	for range 100 {
		exchange()
	}
	if a := testing.AllocsPerRun(500, exchange); a != 0 {
		t.Errorf("%v allocations per message, want 0", a)
	}
}

// BenchmarkUDPMessage sends a 60-byte message from a joiner to the host
// over loopback and waits until the host has received it.
func BenchmarkUDPMessage(b *testing.B) {
	ms := open(b, netplay.UDP, 2, netplay.Options{Networks: udpOnly})
	msg := make([]byte, 60)
	buf := make([]byte, 1200)
	tick := time.NewTicker(20 * time.Microsecond)
	defer tick.Stop()
	b.ReportAllocs()
	for b.Loop() {
		if err := ms[1].Send(0, msg); err != nil {
			b.Fatal(err)
		}
		for {
			if _, _, ok := ms[0].Receive(buf); ok {
				break
			}
			<-tick.C
		}
	}
}
