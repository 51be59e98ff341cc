package rollbacktest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/rollback/rollbacktest"
	"github.com/metronome-go/metronome/timing"
)

func TestTransportCarriesMessagesOnTheClock(t *testing.T) {
	nw, err := netsim.NewNetwork(3, netsim.Options{Latency: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewManualClock(0)
	trs := rollbacktest.NewTransports(nw, clock)
	if err := trs[0].Send(2, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, rollback.MaxMessage)
	if _, _, ok := trs[2].Receive(buf); ok {
		t.Fatal("a message arrived before its latency")
	}
	clock.Advance(10 * time.Millisecond)
	n, from, ok := trs[2].Receive(buf)
	if !ok || from != 0 || string(buf[:n]) != "hello" {
		t.Fatalf("Receive = %q from %d, %v; want hello from 0", buf[:n], from, ok)
	}
	if _, _, ok := trs[1].Receive(buf); ok {
		t.Error("peer 1 received peer 2's message")
	}
	// A message longer than the receiver's buffer is dropped whole.
	_ = trs[1].Send(2, make([]byte, 100))
	clock.Advance(10 * time.Millisecond)
	if _, _, ok := trs[2].Receive(buf[:10]); ok {
		t.Error("a message longer than the buffer was delivered cut")
	}
	if st := trs[2].Stats(); st.Oversize != 1 || st.Received != 1 {
		t.Errorf("stats %+v, want 1 received and 1 oversize", st)
	}
	for _, c := range []struct {
		peer int
		msg  []byte
	}{{0, nil}, {3, nil}, {-1, nil}, {1, make([]byte, rollback.MaxMessage+1)}} {
		if err := trs[0].Send(c.peer, c.msg); err == nil {
			t.Errorf("Send(%d, %d bytes) accepted", c.peer, len(c.msg))
		}
	}
	if err := trs[0].Close(); err != nil {
		t.Fatal(err)
	}
	if err := trs[0].Send(1, nil); !errors.Is(err, rollback.ErrClosed) {
		t.Errorf("Send after Close = %v, want ErrClosed", err)
	}
}
