package netplay_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
)

// A joiner whose configuration differs is told which keys differ, with
// the host's value and its own.
func TestAConfigRefusalNamesTheKeys(t *testing.T) {
	h, err := netplay.Host("127.0.0.1:0", netplay.Options{Networks: udpOnly}, game)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	other := game
	other.Config = 43
	other.Settings = []rollback.Setting{{Key: "game.ship_speed", Value: "300"}, {Key: "net.delay", Value: "2"}, {Key: "game.lives", Value: "3"}}
	_, err = netplay.Join(ctx, h.Addr().String(), h.Token(), netplay.Options{Networks: udpOnly}, other)
	want := "different configuration: game.ship_speed: host 260, you 300; game.lives: host unset, you 3"
	if !errors.Is(err, netplay.ErrRefused) || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want a refusal saying %q", err, want)
	}
	// Without settings to compare, the hashes.
	other.Settings = nil
	_, err = netplay.Join(ctx, h.Addr().String(), h.Token(), netplay.Options{Networks: udpOnly}, other)
	if !errors.Is(err, netplay.ErrRefused) || !strings.Contains(err.Error(), "the host's hash is 0x000000000000002a") {
		t.Errorf("error %v, want a refusal giving the hashes", err)
	}
}

// The host logs each refused joiner once, however often it repeats its
// join, and no more than five lines a second under a flood, saying how
// many it left out.
func TestTheHostLogsEachRefusalOnce(t *testing.T) {
	var mu sync.Mutex
	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, &log}, nil))
	lines := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Split(strings.TrimSpace(log.String()), "\n")
	}
	v := newVirtual()
	h, err := netplay.Host("127.0.0.1:0", netplay.Options{Networks: udpOnly, Log: logger, Clock: v.clock}, game)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	other, err := netplay.Host("127.0.0.1:0", netplay.Options{Networks: udpOnly}, game)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	secret := decode(t, other.Token())[1:17] // not h's: every join is refused
	join := packet(secret, 1, 255, 1, append([]byte{3, 't', 'o', 'y', 3, '1', '.', '0', 42, 0, 0, 0, 0, 0, 0, 0}, 0, 0, 0))
	const senders = 12
	for i := range senders {
		c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		for range 3 { // a joiner repeats its join
			c.WriteToUDP(join, h.Addr().(*net.UDPAddr))
		}
		eventually(t, "the joins refused", func() bool { return h.Stats().Refused.Token == uint64(3*(i+1)) })
	}
	if got := lines(); len(got) != 5 {
		t.Fatalf("%d lines logged for %d refused joiners at one instant, want 5:\n%s", len(got), senders, strings.Join(got, "\n"))
	}
	v.step(time.Second)
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.WriteToUDP(join, h.Addr().(*net.UDPAddr))
	eventually(t, "the last join refused", func() bool { return len(lines()) == 6 })
	last := lines()[5]
	if !strings.Contains(last, "wrong join token") || !strings.Contains(last, "unlogged=21") {
		t.Errorf("the line after a second: %q, want the reason and the 21 refusals left out (7 joiners, 3 joins each)", last)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// A player whose process ended, and who joins again at once (before the
// host has noticed it is gone), takes its slot back once its slot has
// been quiet two ping intervals, instead of being told the match is full;
// while the slot's player is alive, a join is refused.
func TestACrashedPlayerTakesItsSlotBackAtOnce(t *testing.T) {
	v := newVirtual()
	opts := netplay.Options{Networks: udpOnly, Clock: v.clock} // Timeout 5s: pings every 500ms
	h, p, host, joiner := hostThroughProxy(t, opts)
	v.ms = []*netplay.Match{host, joiner}
	v.settle(t)

	// While the player is alive, a join for its slot is held, then
	// refused once the player is heard again.
	base := v.excess()
	done := make(chan error, 1)
	go func() {
		_, err := netplay.Join(context.Background(), h.Addr().String(), h.Token(), opts, game)
		done <- err
	}()
	v.outsider(t, base)
	if err := joiner.Send(0, []byte("alive")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1200)
	eventually(t, "the player heard", func() bool { _, _, ok := host.Receive(buf); return ok })
	v.step(300 * time.Millisecond) // the joiner repeats its join every 250ms
	if err := receive(t, done); !errors.Is(err, netplay.ErrRefused) || !strings.Contains(err.Error(), "the match is full") {
		t.Fatalf("a join while the player is alive: %v, want the match full", err)
	}

	// The player's process ends without a bye: nothing more comes from
	// it, and a new run of it joins.
	v.cut(t, p, true)
	base = v.excess()
	joined := make(chan *netplay.Match, 1)
	go func() {
		m, err := netplay.Join(context.Background(), h.Addr().String(), h.Token(), opts, game)
		if err != nil {
			t.Error(err)
		}
		joined <- m
	}()
	v.outsider(t, base)
	v.step(2 * time.Second) // its slot is quiet for 1s (two pings) in it
	again := receive(t, joined)
	if again == nil {
		t.FailNow()
	}
	defer again.Close()
	if again.Self() != 1 || !again.Rejoining() || again.Late() {
		t.Errorf("rejoined as peer %d, rejoining %v, late %v; want peer 1 rejoining, not late", again.Self(), again.Rejoining(), again.Late())
	}
	for e, ok := host.Event(); ; e, ok = host.Event() {
		if !ok {
			t.Fatal("no event for the rejoin at the host")
		}
		if e == (rollback.PeerEvent{Peer: 1, Kind: rollback.PeerReconnected}) {
			break
		}
		if e.Kind == rollback.PeerDisconnected {
			t.Errorf("event %+v: the host's 5s timeout noticed the silence before the rejoin", e)
		}
	}
}

// excess is how many more packets the matches of v received than they
// sent one another (less those lost at a cut): the packets of ends
// outside them.
func (v *virtual) excess() int64 {
	sent, received := v.sent()
	return int64(received+v.lostNow()) - int64(sent)
}

// outsider waits until the matches of v have received a packet from an
// end outside them since excess read base: a joiner still joining, whose
// clock has then started.
func (v *virtual) outsider(t *testing.T, base int64) {
	t.Helper()
	eventually(t, "a packet from outside", func() bool { return v.excess() > base })
}

// receive waits, at most within, for a value from c.
func receive[T any](t *testing.T, c <-chan T) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(within):
		t.Fatalf("nothing within %v", within)
		panic("unreachable")
	}
}
