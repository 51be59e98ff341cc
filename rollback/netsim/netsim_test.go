package netsim_test

import (
	"errors"
	"testing"
	"time"

	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

const ms = timing.Instant(time.Millisecond)

// run sends one numbered packet every millisecond for n ms and receives
// until everything in flight has arrived; it returns the numbers in
// arrival order with their arrival times.
func run(t *testing.T, opts netsim.Options, n int) (got []int, at []timing.Instant, l *netsim.Link) {
	t.Helper()
	l, err := netsim.NewLink(opts)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	for now := timing.Instant(0); ; now += ms {
		if int(now/ms) < n {
			l.Send(now, []byte{byte(now / ms), byte(now / ms >> 8)})
		}
		for k, ok := l.Receive(now, buf); ok; k, ok = l.Receive(now, buf) {
			if k != 2 {
				t.Fatalf("received %d bytes, want 2", k)
			}
			got = append(got, int(buf[0])|int(buf[1])<<8)
			at = append(at, now)
		}
		if int(now/ms) >= n && l.Stats().InFlight == 0 {
			return got, at, l
		}
	}
}

func TestPerfectLinkDeliversInOrderAfterLatency(t *testing.T) {
	got, at, _ := run(t, netsim.Options{Latency: 5 * time.Millisecond}, 100)
	if len(got) != 100 {
		t.Fatalf("delivered %d, want 100", len(got))
	}
	for i := range got {
		if got[i] != i || at[i] != timing.Instant(i)*ms+5*ms {
			t.Fatalf("packet %d: got number %d at %v, want %d at %v", i, got[i], at[i], i, timing.Instant(i)*ms+5*ms)
		}
	}
}

func TestConditionsAreSeededAndDeterministic(t *testing.T) {
	opts := netsim.Options{Latency: 75 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Duplicate: 0.02, Reorder: 0.05, Seed: 7}
	a, atA, _ := run(t, opts, 2000)
	b, atB, _ := run(t, opts, 2000)
	if len(a) != len(b) {
		t.Fatalf("runs delivered %d and %d packets", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] || atA[i] != atB[i] {
			t.Fatalf("runs differ at delivery %d: %d@%v and %d@%v", i, a[i], atA[i], b[i], atB[i])
		}
	}
	opts.Seed = 8
	c, _, _ := run(t, opts, 2000)
	same := len(c) == len(a)
	for i := 0; same && i < len(a); i++ {
		same = a[i] == c[i]
	}
	if same {
		t.Error("seeds 7 and 8 gave the same deliveries")
	}
}

func TestConditionRates(t *testing.T) {
	const n = 20000
	opts := netsim.Options{Latency: 75 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Duplicate: 0.03, Reorder: 0.04, Seed: 3}
	got, _, l := run(t, opts, n)
	s := l.Stats()
	near := func(name string, v uint64, p float64) {
		if f := float64(v) / n; f < p*0.8 || f > p*1.2 {
			t.Errorf("%s: %d of %d (%.3f), want about %.3f", name, v, n, f, p)
		}
	}
	near("lost", s.Lost, opts.Loss)
	near("duplicated", s.Duplicated, opts.Duplicate*(1-opts.Loss))
	if s.Delivered != uint64(len(got)) || s.Delivered != n-s.Lost+s.Duplicated {
		t.Errorf("delivered %d (%d received), want sent-lost+duplicated = %d", s.Delivered, len(got), n-s.Lost+s.Duplicated)
	}
	inversions := 0
	for i := 1; i < len(got); i++ {
		if got[i] < got[i-1] {
			inversions++
		}
	}
	if inversions == 0 {
		t.Error("jitter and reordering delivered everything in order")
	}
	if lo, hi := 55*time.Millisecond, 95*time.Millisecond+75*time.Millisecond; s.MaxDelay > hi || s.TotalDelay/time.Duration(s.Delivered) < lo {
		t.Errorf("delays: max %v, mean %v; want max at most %v and mean at least %v", s.MaxDelay, s.TotalDelay/time.Duration(s.Delivered), hi, lo)
	}
}

func TestBandwidthSerialisesPackets(t *testing.T) {
	l, err := netsim.NewLink(netsim.Options{Bandwidth: 1000}) // 1 byte per ms
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 10)
	for range 3 {
		l.Send(0, p)
	}
	buf := make([]byte, 10)
	var at []timing.Instant
	for now := timing.Instant(0); now <= 40*ms; now += ms {
		for _, ok := l.Receive(now, buf); ok; _, ok = l.Receive(now, buf) {
			at = append(at, now)
		}
	}
	want := []timing.Instant{10 * ms, 20 * ms, 30 * ms}
	if len(at) != 3 || at[0] != want[0] || at[1] != want[1] || at[2] != want[2] {
		t.Errorf("arrivals %v, want %v", at, want)
	}
}

func TestQueueLimitBoundsMemory(t *testing.T) {
	l, err := netsim.NewLink(netsim.Options{Latency: time.Second, QueueLimit: 4, MaxPacket: 8})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		l.Send(0, []byte{1})
	}
	l.Send(0, make([]byte, 9))
	if s := l.Stats(); s.InFlight != 4 || s.Overflow != 6 || s.Oversize != 1 {
		t.Errorf("in flight %d, overflow %d, oversize %d; want 4, 6, 1", s.InFlight, s.Overflow, s.Oversize)
	}
}

func TestValidateNamesEveryField(t *testing.T) {
	err := netsim.Options{Latency: -1, Jitter: -1, Loss: 2, Duplicate: -0.5, Reorder: 1.5, Bandwidth: -3, QueueLimit: -1, MaxPacket: -1}.Validate()
	var fields []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var oe *option.Error
		if !errors.As(e, &oe) {
			t.Fatalf("%v is not an *option.Error", e)
		}
		fields = append(fields, oe.Field)
	}
	if len(fields) != 8 {
		t.Errorf("fields %v, want all 8", fields)
	}
	if _, err := netsim.NewNetwork(1, netsim.Options{}); err == nil {
		t.Error("NewNetwork(1) accepted")
	}
}

func TestNetworkLinksHaveTheirOwnSeeds(t *testing.T) {
	nw, err := netsim.NewNetwork(3, netsim.Options{Latency: 10 * time.Millisecond, Jitter: 9 * time.Millisecond, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		nw.Link(0, 1).Send(0, []byte{1})
		nw.Link(1, 0).Send(0, []byte{1})
	}
	a, _ := nw.Link(0, 1).NextArrival()
	b, _ := nw.Link(1, 0).NextArrival()
	if a == b {
		t.Errorf("both directions' first arrival at %v: the links share a seed", a)
	}
}
