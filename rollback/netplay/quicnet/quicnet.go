package quicnet

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/timing"
	"github.com/quic-go/quic-go"
)

// Network returns the QUIC transport, named [netplay.QUIC]: a match's
// packets in unreliable QUIC datagrams (RFC 9221) inside a TLS 1.3
// connection, the host's self-signed certificate pinned by its SHA-256
// fingerprint, which the join token carries. List it in
// [netplay.Options.Networks] (a framework game: in framework.Net's
// Networks) to offer it; a game that does not links no QUIC or TLS.
func Network() netplay.Network { return network{} }

// network carries the netplay.Driver, so a program that lists QUIC
// alone links the code that plays a match.
type network struct{ netplay.Driver }

func (network) Name() string { return netplay.QUIC }

func (network) Listen(addr string, o netplay.ConduitOptions) (netplay.Conduit, []byte, error) {
	q, err := listen(addr, o)
	if err != nil {
		return nil, nil, err
	}
	return q, q.fingerprint[:], nil
}

func (network) Dial(ctx context.Context, addr string, pin []byte, o netplay.ConduitOptions) (netplay.Conduit, netip.AddrPort, error) {
	if len(pin) != printLen {
		return nil, netip.AddrPort{}, fmt.Errorf("quicnet: the token's certificate fingerprint is %d bytes; allowed: %d (copied in part?)", len(pin), printLen)
	}
	q, err := dial(ctx, addr, [printLen]byte(pin), o)
	if err != nil {
		return nil, netip.AddrPort{}, err
	}
	return q, q.hostAddr, nil
}

const (
	alpn       = "metronome-netplay/1"
	serverName = "metronome-netplay"
	printLen   = 32  // bytes of a SHA-256 fingerprint
	rxLen      = 256 // datagrams read from every connection, waiting for the match
	txLen      = 64  // datagrams per connection waiting for quic-go
)

type datagram struct {
	from netip.AddrPort
	b    []byte
}

// quicConduit carries packets in QUIC datagrams (RFC 9221): the host's
// end has a listener and a connection per joiner, a joiner's one
// connection. Each connection has a reader and a writer goroutine (quic-go's
// SendDatagram blocks when 32 datagrams wait), all owned by the conduit
// and joined by close.
type quicConduit struct {
	udp         *net.UDPConn
	wire        netplay.Wire
	tr          *quic.Transport
	ln          *quic.Listener // host only
	fingerprint [printLen]byte // host: of its certificate
	hostAddr    netip.AddrPort // joiner: the host's address

	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	writers sync.WaitGroup
	drain   chan struct{} // closed by close: writers send what is queued, then stop
	clock   timing.Clock
	rx      chan datagram

	mu    sync.Mutex
	conns map[netip.AddrPort]*quicConn
	local net.Addr
}

type quicConn struct {
	c  *quic.Conn
	tx chan []byte
}

func quicConfig(opts netplay.ConduitOptions) *quic.Config {
	return &quic.Config{
		EnableDatagrams: true,
		// The match notices silence itself (Options.Timeout); the
		// connection outlives it so that a link that comes back is the
		// same connection.
		MaxIdleTimeout:       max(3*opts.Timeout, 30*time.Second),
		KeepAlivePeriod:      opts.PingEvery,
		HandshakeIdleTimeout: opts.Timeout,
	}
}

// newTransport opens the UDP socket a QUIC endpoint runs on: the
// conduit owns it, so that closing the conduit frees the port at once.
func newTransport(addr string, clock timing.Clock) (*quicConduit, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, err
	}
	c, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, err
	}
	q := &quicConduit{udp: c, rx: make(chan datagram, rxLen), conns: map[netip.AddrPort]*quicConn{}, local: c.LocalAddr(), drain: make(chan struct{}), clock: clock}
	q.tr = &quic.Transport{Conn: counted{c, &q.wire}}
	q.ctx, q.cancel = context.WithCancel(context.Background())
	return q, nil
}

// selfSigned makes the session's certificate: a new P-256 key, valid for
// a month, trusted by its SHA-256 fingerprint alone.
func selfSigned() (tls.Certificate, [printLen]byte, error) {
	var fp [printLen]byte
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, fp, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return tls.Certificate{}, fp, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: serverName},
		DNSNames:     []string{serverName},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(30 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, fp, err
	}
	fp = sha256.Sum256(der)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, fp, nil
}

func listen(addr string, opts netplay.ConduitOptions) (*quicConduit, error) {
	cert, fp, err := selfSigned()
	if err != nil {
		return nil, fmt.Errorf("certificate: %w", err)
	}
	tc := &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{alpn}, MinVersion: tls.VersionTLS13}
	q, err := newTransport(addr, opts.Clock)
	if err != nil {
		return nil, err
	}
	ln, err := q.tr.Listen(tc, quicConfig(opts))
	if err != nil {
		q.tr.Close()
		q.udp.Close()
		return nil, err
	}
	q.ln, q.fingerprint = ln, fp
	q.wg.Add(1)
	go q.accept()
	return q, nil
}

func dial(ctx context.Context, addr string, fp [printLen]byte, opts netplay.ConduitOptions) (*quicConduit, error) {
	tc := &tls.Config{
		NextProtos: []string{alpn},
		ServerName: serverName,
		MinVersion: tls.VersionTLS13,
		// The certificate is self-signed: it is trusted because its
		// fingerprint is the token's, checked below, not by a CA.
		InsecureSkipVerify: true,
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 {
				return errors.New("quicnet: the host sent no certificate")
			}
			if sha256.Sum256(raw[0]) != fp {
				return errors.New("quicnet: the host's certificate is not the token's (another host, or someone in between)")
			}
			return nil
		},
	}
	host, err := netplay.ResolveHost(addr)
	if err != nil {
		return nil, err
	}
	ua := net.UDPAddrFromAddrPort(host)
	q, err := newTransport(udpAny(host), opts.Clock)
	if err != nil {
		return nil, err
	}
	// The handshake gives up after opts.Timeout without an answer
	// (HandshakeIdleTimeout), on quic-go's own timers.
	c, err := q.tr.Dial(ctx, ua, tc, quicConfig(opts))
	if err != nil {
		q.Close()
		return nil, err
	}
	q.hostAddr = q.add(c)
	return q, nil
}

// accept takes the host's connections until close.
func (q *quicConduit) accept() {
	defer q.wg.Done()
	for {
		c, err := q.ln.Accept(q.ctx)
		if err != nil {
			return
		}
		q.add(c)
	}
}

// add starts a connection's reader and writer and returns its address.
func (q *quicConduit) add(c *quic.Conn) netip.AddrPort {
	var addr netip.AddrPort
	if ua, ok := c.RemoteAddr().(*net.UDPAddr); ok {
		addr = netplay.Canonical(ua.AddrPort())
	}
	qc := &quicConn{c: c, tx: make(chan []byte, txLen)}
	q.mu.Lock()
	if old := q.conns[addr]; old != nil {
		old.c.CloseWithError(0, "replaced")
	}
	q.conns[addr] = qc
	q.mu.Unlock()
	q.wg.Add(1)
	q.writers.Add(1)
	go func() { // reader
		defer q.wg.Done()
		defer func() {
			q.mu.Lock()
			if q.conns[addr] == qc {
				delete(q.conns, addr)
			}
			q.mu.Unlock()
			c.CloseWithError(0, "")
		}()
		for {
			b, err := c.ReceiveDatagram(q.ctx)
			if err != nil {
				if q.ctx.Err() == nil {
					select {
					case q.rx <- datagram{addr, nil}:
					case <-q.ctx.Done():
					}
				}
				return
			}
			select {
			case q.rx <- datagram{addr, b}:
			default: // the match is behind: lost, as over UDP
			}
		}
	}()
	go func() { // writer
		defer q.writers.Done()
		for {
			select {
			case b := <-qc.tx:
				if c.SendDatagram(b) != nil {
					return
				}
			case <-q.drain:
				for {
					select {
					case b := <-qc.tx:
						if c.SendDatagram(b) != nil {
							return
						}
					default:
						return
					}
				}
			case <-c.Context().Done():
				return
			case <-q.ctx.Done():
				return
			}
		}
	}()
	return addr
}

func (q *quicConduit) ReadFrom(buf []byte) (int, netip.AddrPort, error) {
	select {
	case d := <-q.rx:
		if d.b == nil {
			return 0, d.from, netplay.ErrPeerGone
		}
		return copy(buf, d.b), d.from, nil
	case <-q.ctx.Done():
		return 0, netip.AddrPort{}, net.ErrClosed
	}
}

func (q *quicConduit) WriteTo(b []byte, to netip.AddrPort) error {
	if q.ctx.Err() != nil {
		return net.ErrClosed
	}
	q.mu.Lock()
	qc := q.conns[to]
	q.mu.Unlock()
	if qc == nil {
		return nil // no connection from there (any more): lost
	}
	select {
	case qc.tx <- append([]byte(nil), b...):
		return nil
	default:
		return errQueueFull
	}
}

var errQueueFull = errors.New("quicnet: send queue full")

func (q *quicConduit) LocalAddr() net.Addr { return q.local }
func (q *quicConduit) Wire() *netplay.Wire { return &q.wire }

func (q *quicConduit) Close() error {
	q.mu.Lock()
	conns := make([]*quicConn, 0, len(q.conns))
	for _, c := range q.conns {
		conns = append(conns, c)
	}
	q.mu.Unlock()
	// Let the byes already queued leave before the connections close,
	// waiting at most 100ms of the match's clock for the writers.
	close(q.drain)
	w := q.clock.NewWaiter()
	q.wg.Add(1)
	go func() {
		defer q.wg.Done()
		q.writers.Wait()
		w.Wake()
	}()
	w.WaitUntil(q.clock.Now().AddSaturating(100 * time.Millisecond))
	w.Release()
	q.cancel()
	var err error
	for _, c := range conns {
		c.c.CloseWithError(0, "closed")
	}
	if q.ln != nil {
		err = q.ln.Close()
	}
	q.writers.Wait()
	q.wg.Wait()
	return errors.Join(err, q.tr.Close(), q.udp.Close())
}

// udpAny is the wildcard address of the host address's family, port 0:
// where a joiner's socket listens.
func udpAny(host netip.AddrPort) string {
	if host.Addr().Is4() {
		return "0.0.0.0:0"
	}
	return "[::]:0"
}

// addrOf is the IP address of a socket address.
func addrOf(a net.Addr) netip.Addr {
	if ua, ok := a.(*net.UDPAddr); ok {
		return ua.AddrPort().Addr()
	}
	return netip.Addr{}
}

// counted is the socket a QUIC endpoint runs on, counting what passes
// through it: QUIC's own packets (handshake, acks, its pings) as well as
// those that carry the match's datagrams. It is a plain net.PacketConn on
// purpose: quic-go would use a *net.UDPConn's batched calls, which pass
// these methods by.
type counted struct {
	c *net.UDPConn
	w *netplay.Wire
}

func (c counted) ReadFrom(b []byte) (int, net.Addr, error) {
	n, addr, err := c.c.ReadFrom(b)
	if err == nil {
		c.w.Received(n, addrOf(addr))
	}
	return n, addr, err
}

func (c counted) WriteTo(b []byte, addr net.Addr) (int, error) {
	n, err := c.c.WriteTo(b, addr)
	if err == nil {
		c.w.Sent(n, addrOf(addr))
	}
	return n, err
}

// SetReadBuffer and SetWriteBuffer let quic-go size the socket's buffers
// as it would the bare socket's.
func (c counted) SetReadBuffer(n int) error  { return c.c.SetReadBuffer(n) }
func (c counted) SetWriteBuffer(n int) error { return c.c.SetWriteBuffer(n) }

func (c counted) Close() error                       { return c.c.Close() }
func (c counted) LocalAddr() net.Addr                { return c.c.LocalAddr() }
func (c counted) SetDeadline(t time.Time) error      { return c.c.SetDeadline(t) }
func (c counted) SetReadDeadline(t time.Time) error  { return c.c.SetReadDeadline(t) }
func (c counted) SetWriteDeadline(t time.Time) error { return c.c.SetWriteDeadline(t) }
