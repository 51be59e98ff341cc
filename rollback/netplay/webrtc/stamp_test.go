//go:build !js

package webrtc_test

import (
	"context"
	"encoding/binary"
	"net/netip"
	"sync"
	"time"

	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/timing"
)

// stamped is a network whose conduits add the wall-clock instant of
// each send to the datagram's end and take it off on receipt, so that a
// test can tell a message the link delayed (at most oneWay+jitter over
// the virtual link) from one the machine delayed: a transport goroutine
// starved of CPU delivers late, and a peer waiting for that message
// owes debt without its own scheduler waking late.
type stamped struct {
	netplay.Network
	log *deliveries
}

// deliveries are the instants at which a message arrived more than the
// link's worst delay after it was sent, with how late it was.
type deliveries struct {
	mu   sync.Mutex
	late []late
}

func (d *deliveries) add(at timing.Instant, over time.Duration) {
	d.mu.Lock()
	d.late = append(d.late, late{at: at, late: over})
	d.mu.Unlock()
}

func (d *deliveries) snapshot() []late {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]late(nil), d.late...)
}

func (s stamped) Listen(addr string, o netplay.ConduitOptions) (netplay.Conduit, []byte, error) {
	c, pin, err := s.Network.Listen(addr, o)
	if err != nil {
		return nil, nil, err
	}
	return &stampConduit{Conduit: c, log: s.log}, pin, nil
}

func (s stamped) Dial(ctx context.Context, addr string, pin []byte, o netplay.ConduitOptions) (netplay.Conduit, netip.AddrPort, error) {
	c, host, err := s.Network.Dial(ctx, addr, pin, o)
	if err != nil {
		return nil, host, err
	}
	return &stampConduit{Conduit: c, log: s.log}, host, nil
}

type stampConduit struct {
	netplay.Conduit
	log *deliveries
	rx  []byte // ReadFrom's own buffer: the caller's plus the stamp
	wmu sync.Mutex
	tx  []byte
}

const stampLen = 8

func (c *stampConduit) WriteTo(b []byte, to netip.AddrPort) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.tx = binary.LittleEndian.AppendUint64(append(c.tx[:0], b...), uint64(time.Now().UnixNano()))
	return c.Conduit.WriteTo(c.tx, to)
}

func (c *stampConduit) ReadFrom(buf []byte) (int, netip.AddrPort, error) {
	if len(c.rx) < len(buf)+stampLen {
		c.rx = make([]byte, len(buf)+stampLen)
	}
	for {
		n, from, err := c.Conduit.ReadFrom(c.rx)
		if err != nil {
			return 0, from, err
		}
		if n < stampLen {
			continue // not one of ours
		}
		now := time.Now()
		sent := time.Unix(0, int64(binary.LittleEndian.Uint64(c.rx[n-stampLen:n])))
		if over := now.Sub(sent) - (oneWay + jitter); over > step {
			c.log.add(timing.Now(), over)
		}
		return copy(buf, c.rx[:n-stampLen]), from, nil
	}
}
