package netplay_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
)

func decode(t *testing.T, tok string) []byte {
	t.Helper()
	_, body, _ := strings.Cut(tok, ":")
	b, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func encode(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// packet builds a packet by the documented layout, sealed with secret.
func packet(secret []byte, kind, from byte, seq uint64, payload []byte) []byte {
	b := []byte{1<<4 | kind, from}
	b = binary.LittleEndian.AppendUint64(b, seq)
	b = append(b, payload...)
	mac := hmac.New(sha256.New, secret)
	mac.Write(b)
	return append(b, mac.Sum(nil)[:16]...)
}

const (
	kindData = 4
	kindPing = 5
)

// proxy forwards UDP datagrams between one joiner and the host, so a test
// can cut the link, replay what passed and send from the joiner's
// address.
type proxy struct {
	c        *net.UDPConn
	host     *net.UDPAddr
	mu       sync.Mutex
	joiner   *net.UDPAddr
	cut      bool
	lastData []byte // the last data packet from the joiner
	// up and down count the bytes on the wire to the host and back to
	// the joiner, each datagram's IPv4 and UDP headers included.
	up, down uint64
	dropped  uint64 // datagrams dropped while cut
	done     chan struct{}
}

func newProxy(t *testing.T, host net.Addr) *proxy {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{c: c, host: host.(*net.UDPAddr), done: make(chan struct{})}
	go p.run()
	t.Cleanup(func() { c.Close(); <-p.done })
	return p
}

func (p *proxy) run() {
	defer close(p.done)
	buf := make([]byte, 2048)
	for {
		n, from, err := p.c.ReadFromUDP(buf)
		if err != nil {
			return
		}
		pkt := append([]byte(nil), buf[:n]...)
		p.mu.Lock()
		cut := p.cut
		var to *net.UDPAddr
		if from.Port == p.host.Port && from.IP.Equal(p.host.IP) {
			to = p.joiner
			p.down += uint64(n) + 28
		} else {
			p.joiner, to = from, p.host
			p.up += uint64(n) + 28
			if pkt[0]&15 == kindData {
				p.lastData = pkt
			}
		}
		p.mu.Unlock()
		if cut {
			p.mu.Lock()
			p.dropped++
			p.mu.Unlock()
		}
		if !cut && to != nil {
			p.c.WriteToUDP(pkt, to)
		}
	}
}

func (p *proxy) setCut(cut bool) {
	p.mu.Lock()
	p.cut = cut
	p.mu.Unlock()
}

// toHost sends b to the host from the proxy: from the joiner's address.
func (p *proxy) toHost(b []byte) { p.c.WriteToUDP(b, p.host) }

// genuineData sends a message from the joiner to the host through the
// proxy and returns the data packet that carried it, as the proxy saw it.
func (p *proxy) genuineData(t *testing.T, host, joiner *netplay.Match) []byte {
	t.Helper()
	if err := joiner.Send(0, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1200)
	eventually(t, "message", func() bool {
		n, from, ok := host.Receive(buf)
		return ok && from == 1 && string(buf[:n]) == "hello"
	})
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastData
}

// hostThroughProxy hosts a match of two and joins it through a proxy.
func hostThroughProxy(t *testing.T, opts netplay.Options) (*netplay.Lobby, *proxy, *netplay.Match, *netplay.Match) {
	t.Helper()
	h, err := netplay.Host("127.0.0.1:0", opts, game)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	p := newProxy(t, h.Addr())
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	j, err := netplay.Join(ctx, p.c.LocalAddr().String(), h.Token(), opts, game)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	m, err := h.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return h, p, m, j
}

func TestBadPacketsAreDroppedAndCounted(t *testing.T) {
	// On a clock that never moves: nothing but the test's packets is sent.
	h, p, host, joiner := hostThroughProxy(t, netplay.Options{Networks: udpOnly, Clock: newVirtual().clock})
	secret := decode(t, h.Token())[1:17]
	genuine := p.genuineData(t, host, joiner)
	seq := binary.LittleEndian.Uint64(genuine[2:])
	buf := make([]byte, 1200)

	stranger, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()
	forged := append([]byte(nil), genuine...)
	forged[len(forged)-1] ^= 1
	cases := []struct {
		name  string
		send  func()
		count func(netplay.Drops) uint64
	}{
		{"forged MAC", func() { p.toHost(forged) }, func(d netplay.Drops) uint64 { return d.Auth }},
		{"replayed", func() { p.toHost(genuine) }, func(d netplay.Drops) uint64 { return d.Replayed }},
		{"oversized", func() { p.toHost(make([]byte, 1500)) }, func(d netplay.Drops) uint64 { return d.Oversized }},
		{"malformed", func() { p.toHost([]byte{0x14, 1, 2}) }, func(d netplay.Drops) uint64 { return d.Malformed }},
		{"another's slot", func() { p.toHost(packet(secret, kindData, 2, seq+1, []byte{0, 'x'})) }, func(d netplay.Drops) uint64 { return d.Slot }},
		{"far in the future", func() { p.toHost(packet(secret, kindData, 1, seq+1<<30, []byte{0, 'x'})) }, func(d netplay.Drops) uint64 { return d.Future }},
		{"unknown address", func() {
			stranger.WriteToUDP(packet(secret, kindData, 1, seq+2, []byte{0, 'x'}), h.Addr().(*net.UDPAddr))
		}, func(d netplay.Drops) uint64 { return d.Unknown }},
	}
	for _, c := range cases {
		before := c.count(host.Stats().Dropped)
		c.send()
		eventually(t, c.name+" counted", func() bool { return c.count(host.Stats().Dropped) == before+1 })
	}
	if _, _, ok := host.Receive(buf); ok {
		t.Error("a dropped packet reached Receive")
	}
	// The match still works.
	if err := joiner.Send(0, []byte("again")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "message after the bad ones", func() bool {
		n, _, ok := host.Receive(buf)
		return ok && string(buf[:n]) == "again"
	})
}

// A flood of authenticated messages nobody reads: the queue stays bounded
// and the rest are counted. The clock never moves, so nothing but the
// messages is sent, and each is sent once the last has been read off the
// socket, so the kernel's buffer drops none.
func TestAFullQueueDropsAndCounts(t *testing.T) {
	v := newVirtual()
	ms := open(t, netplay.UDP, 2, netplay.Options{Networks: udpOnly, Clock: v.clock})
	v.ms = ms
	msg := make([]byte, 100)
	const sent = 300
	for range sent {
		if err := ms[1].Send(0, msg); err != nil {
			t.Fatal(err)
		}
		v.settle(t)
	}
	if got := ms[0].Stats().Dropped.Queue; got != sent-256 {
		t.Errorf("%d queue drops of %d messages, want %d (all but 256)", got, sent, sent-256)
	}
	n := 0
	buf := make([]byte, 1200)
	for _, _, ok := ms[0].Receive(buf); ok; _, _, ok = ms[0].Receive(buf) {
		n++
	}
	if n != 256 {
		t.Errorf("%d messages queued, want 256", n)
	}
}

func wantEvent(t *testing.T, m *netplay.Match, peer int, kind rollback.PeerEventKind) {
	t.Helper()
	eventually(t, kind.String()+" event", func() bool {
		e, ok := m.Event()
		return ok && e.Peer == peer && e.Kind == kind
	})
}

func TestSilenceIsADisconnectAndTheLinkComesBack(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			v := newVirtual()
			opts := netplay.Options{Transport: tr, Networks: networks, Timeout: 200 * time.Millisecond, Clock: v.clock}
			_, p, host, joiner := hostThroughProxy(t, opts)
			v.ms = []*netplay.Match{host, joiner}
			v.settle(t)
			v.cut(t, p, true)
			cut := v.clock.Now()
			v.wantEvent(t, host, 1, rollback.PeerDisconnected)
			v.wantEvent(t, joiner, 0, rollback.PeerDisconnected)
			// Silent for the timeout, noticed at the next tick (every 10ms).
			if d := time.Duration(v.clock.Now() - cut); d < 200*time.Millisecond || d > 250*time.Millisecond {
				t.Errorf("disconnected %v after the link was cut, want the 200ms timeout and a tick or two", d)
			}
			if host.Stats().Peers[1].Connected {
				t.Error("host still sees peer 1 connected")
			}
			v.cut(t, p, false)
			v.wantEvent(t, host, 1, rollback.PeerReconnected)
			v.wantEvent(t, joiner, 0, rollback.PeerReconnected)
		})
	}
}

// wantEvent steps v by 5ms until m reports kind for peer, at most 10s
// of virtual time.
func (v *virtual) wantEvent(t *testing.T, m *netplay.Match, peer int, kind rollback.PeerEventKind) {
	t.Helper()
	v.until(t, 5*time.Millisecond, 10*time.Second, kind.String()+" event", func() bool {
		for e, ok := m.Event(); ok; e, ok = m.Event() {
			if e.Peer == peer && e.Kind == kind {
				return true
			}
		}
		return false
	})
}

func TestADroppedPlayerJoinsAgain(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			// A bye and a join need no time: the clock never moves.
			opts := netplay.Options{Transport: tr, Networks: networks, Clock: newVirtual().clock}
			h, err := netplay.Host("127.0.0.1:0", opts, game)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			ctx, cancel := context.WithTimeout(context.Background(), within)
			defer cancel()
			j, err := netplay.Join(ctx, h.Addr().String(), h.Token(), opts, game)
			if err != nil {
				t.Fatal(err)
			}
			host, err := h.Wait(ctx)
			if err != nil {
				t.Fatal(err)
			}
			j.Close()
			wantEvent(t, host, 1, rollback.PeerLeft)
			again := opts
			again.Slot = 1
			j2, err := netplay.Join(ctx, h.Addr().String(), h.Token(), again, game)
			if err != nil {
				t.Fatal(err)
			}
			defer j2.Close()
			if j2.Self() != 1 {
				t.Errorf("rejoined as peer %d, want 1", j2.Self())
			}
			if j2.Late() {
				t.Error("a player taking its own slot back is told it joins late")
			}
			if j.Rejoining() || !j2.Rejoining() {
				t.Errorf("Rejoining: %v on the first join, %v on the second; want false, true", j.Rejoining(), j2.Rejoining())
			}
			wantEvent(t, host, 1, rollback.PeerReconnected)
			buf := make([]byte, 1200)
			if err := host.Send(1, []byte("welcome back")); err != nil {
				t.Fatal(err)
			}
			eventually(t, "message to the rejoined player", func() bool {
				n, from, ok := j2.Receive(buf)
				return ok && from == 0 && string(buf[:n]) == "welcome back"
			})
		})
	}
}

// In a match of three, a joiner learns through the host that the other
// joiner dropped and came back.
func TestJoinersLearnOfEachOthersDrops(t *testing.T) {
	opts := netplay.Options{Networks: udpOnly, Players: 3, Timeout: 300 * time.Millisecond}
	h, err := netplay.Host("127.0.0.1:0", opts, game)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	join := func(slot int) (*netplay.Match, error) {
		o := opts
		o.Slot = slot
		return netplay.Join(ctx, h.Addr().String(), h.Token(), o, game)
	}
	// Join returns once the match is full: both at once.
	var a, b *netplay.Match
	var errA, errB error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a, errA = join(1) }()
	go func() { defer wg.Done(); b, errB = join(2) }()
	wg.Wait()
	if err := errors.Join(errA, errB); err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	host, err := h.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	wantEvent(t, host, 2, rollback.PeerLeft)
	wantEvent(t, a, 2, rollback.PeerDisconnected)
	b, err = join(2)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	wantEvent(t, host, 2, rollback.PeerReconnected)
	wantEvent(t, a, 2, rollback.PeerReconnected)
}

// A packet the closing run of a joiner sent before its bye and that
// arrives after it (delayed or reordered on the way; here sent from the
// joiner's address once the host has seen the bye) does not bring the
// joiner back: only a join does. It used to, and the slot then refused the
// player's rejoin as "taken by a connected player".
func TestAPacketAfterAByeDoesNotReconnect(t *testing.T) {
	h, p, host, joiner := hostThroughProxy(t, netplay.Options{Networks: udpOnly, Clock: newVirtual().clock})
	secret := decode(t, h.Token())[1:17]
	seq := binary.LittleEndian.Uint64(p.genuineData(t, host, joiner)[2:])
	joiner.Close()
	wantEvent(t, host, 1, rollback.PeerLeft)
	before := host.Stats().Peers[1].Received.Packets
	p.toHost(packet(secret, kindData, 1, seq+1000, []byte{0, 'x'}))
	eventually(t, "the late packet read", func() bool { return host.Stats().Peers[1].Received.Packets > before })
	if host.Stats().Peers[1].Connected {
		t.Error("a packet after the bye reconnected peer 1")
	}
	if e, ok := host.Event(); ok {
		t.Errorf("event %v of peer %d after the bye, want none", e.Kind, e.Peer)
	}
}

// The wire counts agree with what a relay on the path counts, headers
// and (over QUIC) QUIC's own packets included.
func TestWireCountsAgreeWithARelay(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			_, p, host, joiner := hostThroughProxy(t, netplay.Options{Transport: tr, Networks: networks})
			play(t, []*netplay.Match{host, joiner}, 300)
			near := func(got, want uint64) bool {
				return float64(got) >= 0.95*float64(want) && float64(got) <= 1.05*float64(want)
			}
			var st netplay.Stats
			var up, down uint64
			eventually(t, "the joiner's wire counts within 5% of the relay's", func() bool {
				st = joiner.Stats()
				p.mu.Lock()
				up, down = p.up, p.down
				p.mu.Unlock()
				return near(st.WireSent.Bytes, up) && near(st.WireReceived.Bytes, down)
			})
			if st.WireSent.Bytes <= st.Sent.Bytes || up == 0 {
				t.Errorf("wire bytes sent %d, payload bytes %d, relay %d: want the wire figure above the payload's", st.WireSent.Bytes, st.Sent.Bytes, up)
			}
			t.Logf("%s: joiner to host: wire %d B in %d datagrams (payload %d B in %d), relay %d B; back: wire %d B, relay %d B",
				tr, st.WireSent.Bytes, st.WireSent.Packets, st.Sent.Bytes, st.Sent.Packets, up, st.WireReceived.Bytes, down)
		})
	}
}
