//go:build !js

package webrtc_test

import (
	"context"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
	"github.com/pion/logging"
	"github.com/pion/transport/v5"
	"github.com/pion/transport/v5/vnet"
)

// Impaired is a virtual network between a host at 1.2.3.4 and a joiner at
// 1.2.3.5: each packet takes 65ms to 85ms one way, drawn for it alone (a
// round trip of 150ms ±20ms, as netem's delay and jitter make it), and
// loses loss percent of its packets at each end.
//
// The delay is not vnet's router's: its MaxJitter sleeps the router,
// holding its lock, before each pass over its queue, so every packet due
// behind a sleep waits for it and every sender blocks on the lock
// meanwhile; its jitter comes in batches, not per packet. Here the
// router forwards at once and each end's socket delays what it sends,
// packet by packet. vnet has no virtual clock (its router and sockets
// read time.Now and use real timers), so a match over it runs in real
// time.
type Impaired struct {
	Host, Joiner transport.Net
}

// The one-way delay of an impaired link: oneWay plus up to jitter.
const (
	oneWay = 65 * time.Millisecond
	jitter = 20 * time.Millisecond
)

func impaired(t *testing.T, loss int) Impaired {
	t.Helper()
	wan, err := vnet.NewRouter(&vnet.RouterConfig{CIDR: "1.2.3.0/24", LoggerFactory: quietLogs()})
	if err != nil {
		t.Fatal(err)
	}
	var n Impaired
	for i, ip := range []string{"1.2.3.4", "1.2.3.5"} {
		nw, err := vnet.NewNet(&vnet.NetConfig{StaticIPs: []string{ip}})
		if err != nil {
			t.Fatal(err)
		}
		lf, err := vnet.NewLossFilter(nw, loss, vnet.WithLossSeed(int64(i+1)))
		if err != nil {
			t.Fatal(err)
		}
		if err := wan.AddNet(lf); err != nil {
			t.Fatal(err)
		}
		d := &delayed{Net: nw, seed: uint64(i + 1)}
		if i == 0 {
			n.Host = d
		} else {
			n.Joiner = d
		}
	}
	if err := wan.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wan.Stop() })
	return n
}

// delayed is a virtual network whose sockets delay each packet they send
// by oneWay plus a jitter of its own, uniform up to jitter: packets
// overtake each other when their draws differ by more than the time
// between them, as under netem.
type delayed struct {
	transport.Net
	seed uint64
}

func (d *delayed) ListenPacket(network, address string) (net.PacketConn, error) {
	c, err := d.Net.ListenPacket(network, address)
	if err != nil {
		return nil, err
	}
	return &delayedConn{PacketConn: c, rng: rand.New(rand.NewPCG(d.seed, 43))}, nil
}

// delayedConn sends each packet after its delay, from a timer of its own.
// Close waits for the timers still running, which end within a delay.
type delayedConn struct {
	net.PacketConn
	mu     sync.Mutex
	rng    *rand.Rand
	closed bool
	wg     sync.WaitGroup
}

func (c *delayedConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return 0, net.ErrClosed
	}
	d := oneWay + time.Duration(c.rng.Int64N(int64(jitter)+1))
	c.wg.Add(1)
	c.mu.Unlock()
	p := append([]byte(nil), b...)
	time.AfterFunc(d, func() {
		defer c.wg.Done()
		c.PacketConn.WriteTo(p, addr) // a packet lost to a closed socket is a packet lost
	})
	return len(b), nil
}

func (c *delayedConn) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	err := c.PacketConn.Close()
	c.wg.Wait()
	return err
}

func TestDatagramsOverAnImpairedLink(t *testing.T) {
	n := impaired(t, 5)
	h, err := webrtc.Listen("1.2.3.4:7777", webrtc.Config{Net: n.Host})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	hostRx := reader(t, h.Conduit)
	j, hostKey, err := webrtc.Dial(context.Background(), h.SignalAddr().String(), h.Pin(), webrtc.Config{Net: n.Joiner})
	if err != nil {
		t.Fatal(err)
	}
	joinRx := reader(t, j)
	g := exchange(t, j, hostKey, []byte("over the impaired link"), hostRx)
	exchange(t, h.Conduit, g.from, []byte("and back"), joinRx)
}

// The data channel is unordered: over a link whose jitter reorders
// packets, a message can arrive before one sent earlier, as over UDP.
// (pion keeps a channel negotiated out of band ordered and reliable
// whatever it asks for, so every lost packet held the messages behind it
// until retransmitted: a round trip of 300ms-500ms at 5% loss.)
func TestTheDataChannelIsUnordered(t *testing.T) {
	n := impaired(t, 0)
	h, err := webrtc.Listen("1.2.3.4:7777", webrtc.Config{Net: n.Host})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	hostRx := reader(t, h.Conduit)
	j, hostKey, err := webrtc.Dial(context.Background(), h.SignalAddr().String(), h.Pin(), webrtc.Config{Net: n.Joiner})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	exchange(t, j, hostKey, []byte("hello"), hostRx)
	// Messages of a packet each, sent at once: SCTP sends them a
	// congestion window at a time, and the link's jitter reorders each
	// window's packets.
	const count = 40
	msg := make([]byte, 1000)
	for i := range count {
		msg[0] = byte(i)
		if err := j.WriteTo(msg, hostKey); err != nil {
			t.Fatal(err)
		}
	}
	// Then a marker until it arrives: sent after every message, it ends
	// the wait.
	var order []int
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	end := []byte("end")
	for range 1000 {
		if err := j.WriteTo(end, hostKey); err != nil {
			t.Fatal(err)
		}
		select {
		case g := <-hostRx:
			if string(g.b) == "end" {
				goto done
			}
			if len(g.b) == len(msg) {
				order = append(order, int(g.b[0]))
			}
		case <-tick.C:
		}
	}
	t.Fatal("the marker never arrived")
done:
	for k := 1; k < len(order); k++ {
		if order[k] < order[k-1] {
			t.Logf("%d of %d messages arrived before the marker, in the order %v", len(order), count, order)
			return
		}
	}
	t.Errorf("%d of %d messages arrived, all in the order sent, over a link that reorders packets: is the channel ordered? %v", len(order), count, order)
}

func quietLogs() logging.LoggerFactory {
	f := logging.NewDefaultLoggerFactory()
	f.DefaultLogLevel = logging.LogLevelDisabled
	return f
}
