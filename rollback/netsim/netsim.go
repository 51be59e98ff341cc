package netsim

import (
	"errors"
	"math/rand/v2"
	"time"

	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/timing"
)

// Options describes one direction of a link. The zero Options is a perfect
// link: no delay, nothing lost, unlimited bandwidth, 256 packets in flight.
type Options struct {
	// Latency is the one-way delay of every packet; 0 to 10 s.
	Latency time.Duration
	// Jitter adds a delay drawn uniformly from [-Jitter, +Jitter] to each
	// packet (a packet never arrives before it was sent); 0 to Latency
	// plus 10 s.
	Jitter time.Duration
	// Loss, Duplicate and Reorder are probabilities in [0, 1]: that a
	// packet is lost, that it arrives twice (the copy with its own
	// jitter), and that it is held back by up to one more Latency so that
	// packets sent after it arrive first.
	Loss, Duplicate, Reorder float64
	// Bandwidth is in bytes per second; 0 means unlimited. A packet of n
	// bytes occupies the link for n/Bandwidth seconds.
	Bandwidth int64
	// QueueLimit caps the packets in flight; 0 means 256. A packet sent
	// when the link holds this many is dropped and counted as Overflow.
	QueueLimit int
	// MaxPacket is the largest payload in bytes; 0 means 64 KiB. Larger
	// sends are dropped and counted as Oversize.
	MaxPacket int
	// Seed seeds the link's random source; links of one [Network] derive
	// their seeds from it and their direction.
	Seed uint64
}

const (
	defaultQueue  = 256
	defaultPacket = 64 << 10
	maxDelay      = 10 * time.Second
)

// Validate reports every invalid field at once, each as an *option.Error.
func (o Options) Validate() error {
	var errs []error
	bad := func(field string, v any, allowed string) {
		errs = append(errs, &option.Error{Pkg: "netsim", Field: "Options." + field, Value: v, Problem: "is out of range", Allowed: allowed})
	}
	if o.Latency < 0 || o.Latency > maxDelay {
		bad("Latency", o.Latency, "0 to 10s")
	}
	if o.Jitter < 0 || o.Jitter > o.Latency+maxDelay {
		bad("Jitter", o.Jitter, "0 to Latency+10s")
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"Loss", o.Loss}, {"Duplicate", o.Duplicate}, {"Reorder", o.Reorder}} {
		if !(p.v >= 0 && p.v <= 1) { // also refuses NaN
			bad(p.name, p.v, "0 to 1")
		}
	}
	if o.Bandwidth < 0 {
		bad("Bandwidth", o.Bandwidth, "0 (unlimited) or more bytes per second")
	}
	if o.QueueLimit < 0 || o.QueueLimit > 1<<20 {
		bad("QueueLimit", o.QueueLimit, "0 (256) to 1048576")
	}
	if o.MaxPacket < 0 || o.MaxPacket > 1<<24 {
		bad("MaxPacket", o.MaxPacket, "0 (64 KiB) to 16 MiB")
	}
	return errors.Join(errs...)
}

// Stats counts what a link did with the packets sent on it.
type Stats struct {
	Sent, Delivered      uint64
	Lost, Duplicated     uint64
	Reordered            uint64 // packets held back by Reorder
	Overflow, Oversize   uint64
	Bytes                uint64 // payload bytes delivered
	InFlight             int
	MaxDelay, TotalDelay time.Duration // over delivered packets
}

type packet struct {
	at, sent timing.Instant
	seq      uint64
	buf      []byte
}

// Link is one direction between two peers.
type Link struct {
	opts     Options
	rng      *rand.Rand
	flight   []packet // ordered by (at, seq)
	free     [][]byte
	seq      uint64
	busy     timing.Instant // when the link finishes sending what it holds
	stats    Stats
	limit    int
	maxBytes int
}

// NewLink returns a link with the given conditions, or the errors of
// [Options.Validate].
func NewLink(opts Options) (*Link, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	l := &Link{opts: opts, limit: opts.QueueLimit, maxBytes: opts.MaxPacket}
	if l.limit == 0 {
		l.limit = defaultQueue
	}
	if l.maxBytes == 0 {
		l.maxBytes = defaultPacket
	}
	l.rng = rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	l.flight = make([]packet, 0, l.limit)
	return l, nil
}

// Send puts a copy of p on the link at now. The copy's storage is reused
// once it is delivered, so steady sending allocates nothing.
func (l *Link) Send(now timing.Instant, p []byte) {
	l.stats.Sent++
	if len(p) > l.maxBytes {
		l.stats.Oversize++
		return
	}
	if l.rng.Float64() < l.opts.Loss {
		l.stats.Lost++
		return
	}
	copies := 1
	if l.rng.Float64() < l.opts.Duplicate {
		copies = 2
	}
	depart := now
	if l.opts.Bandwidth > 0 {
		depart = max(now, l.busy)
		l.busy = depart + timing.Instant(int64(len(p))*int64(time.Second)/l.opts.Bandwidth)
		depart = l.busy
	}
	for c := range copies {
		if len(l.flight) >= l.limit {
			l.stats.Overflow++
			return
		}
		if c == 1 {
			l.stats.Duplicated++
		}
		d := l.opts.Latency
		if j := l.opts.Jitter; j > 0 {
			d += time.Duration(l.rng.Int64N(2*int64(j)+1)) - j
		}
		if l.opts.Reorder > 0 && l.rng.Float64() < l.opts.Reorder {
			l.stats.Reordered++
			d += time.Duration(l.rng.Int64N(int64(l.opts.Latency) + 1))
		}
		at := depart + timing.Instant(max(d, 0))
		l.insert(packet{at: at, sent: now, seq: l.seq, buf: append(l.take(), p...)})
		l.seq++
	}
}

func (l *Link) take() []byte {
	if n := len(l.free); n > 0 {
		b := l.free[n-1]
		l.free = l.free[:n-1]
		return b[:0]
	}
	return nil
}

// insert keeps flight ordered by arrival, then by sending order.
func (l *Link) insert(p packet) {
	i := len(l.flight)
	for i > 0 && (l.flight[i-1].at > p.at) {
		i--
	}
	l.flight = append(l.flight, packet{})
	copy(l.flight[i+1:], l.flight[i:])
	l.flight[i] = p
}

// Receive copies the next packet that has arrived by now into dst and
// returns its length; ok is false when none has. A packet longer than dst
// is cut to len(dst) (give dst the room of Options.MaxPacket).
func (l *Link) Receive(now timing.Instant, dst []byte) (n int, ok bool) {
	if len(l.flight) == 0 || l.flight[0].at > now {
		return 0, false
	}
	p := l.flight[0]
	copy(l.flight, l.flight[1:])
	l.flight = l.flight[:len(l.flight)-1]
	n = copy(dst, p.buf)
	l.free = append(l.free, p.buf)
	l.stats.Delivered++
	l.stats.Bytes += uint64(len(p.buf))
	d := time.Duration(p.at - p.sent)
	l.stats.TotalDelay += d
	l.stats.MaxDelay = max(l.stats.MaxDelay, d)
	return n, true
}

// NextArrival returns when the earliest packet in flight arrives; ok is
// false when none is in flight.
func (l *Link) NextArrival() (at timing.Instant, ok bool) {
	if len(l.flight) == 0 {
		return 0, false
	}
	return l.flight[0].at, true
}

// Stats returns the link's counts so far.
func (l *Link) Stats() Stats {
	s := l.stats
	s.InFlight = len(l.flight)
	return s
}

// Network is a full mesh of links between n peers, all with the same
// conditions and each with its own seed.
type Network struct {
	n     int
	links []*Link
}

// NewNetwork returns n peers (2 to 64) joined pairwise by links with opts;
// the link from a to b is seeded from opts.Seed, a and b.
func NewNetwork(n int, opts Options) (*Network, error) {
	if n < 2 || n > 64 {
		return nil, &option.Error{Pkg: "netsim", Field: "NewNetwork peers", Value: n, Problem: "is out of range", Allowed: "2 to 64"}
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	nw := &Network{n: n, links: make([]*Link, n*n)}
	for a := range n {
		for b := range n {
			if a == b {
				continue
			}
			o := opts
			o.Seed = opts.Seed*0x100000001b3 + uint64(a*n+b+1)
			l, err := NewLink(o)
			if err != nil {
				return nil, err
			}
			nw.links[a*n+b] = l
		}
	}
	return nw, nil
}

// Peers returns the number of peers.
func (nw *Network) Peers() int { return nw.n }

// Link returns the link from peer a to peer b. It panics when a == b or
// either is out of range.
func (nw *Network) Link(a, b int) *Link {
	if a == b || a < 0 || b < 0 || a >= nw.n || b >= nw.n {
		panic("netsim: Network.Link of an invalid pair")
	}
	return nw.links[a*nw.n+b]
}
