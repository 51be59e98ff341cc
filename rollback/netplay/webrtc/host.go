//go:build !js

package webrtc

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"

	"github.com/coder/websocket"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/pion/ice/v4"
	"github.com/pion/logging"
	"github.com/pion/transport/v5"
	"github.com/pion/transport/v5/stdnet"
	pion "github.com/pion/webrtc/v4"
)

// Host is the host's end: a Conduit whose peers are the joiners it has
// taken, and the signalling server taking more.
type Host struct {
	*Conduit
	pin    Pin
	signal net.Addr

	api  *pion.API
	cfg  Config
	pcfg pion.Configuration
	sem  chan struct{}
	ctx  context.Context
	// wg counts the running handshakes; after stop (under mu) no more
	// start.
	mu      sync.Mutex
	stopped bool
	wg      sync.WaitGroup
	http    *http.Server
	mux     ice.UDPMux
	udp     net.PacketConn

	refusals counter
}

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) add() { c.mu.Lock(); c.n++; c.mu.Unlock() }
func (c *counter) get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Listen opens the host's one UDP port on addr (":7777", "127.0.0.1:0")
// for every peer connection, and serves signalling over WebSocket on the
// TCP port of the same number. The returned Host's Pin goes in the join
// token.
func Listen(addr string, cfg Config) (*Host, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("webrtc: key: %w", err)
	}
	cert, err := pion.GenerateCertificate(key)
	if err != nil {
		return nil, fmt.Errorf("webrtc: certificate: %w", err)
	}
	h := &Host{cfg: cfg, sem: make(chan struct{}, cfg.Handshakes)}
	if h.pin.Fingerprint, err = certFingerprint(cert); err != nil {
		return nil, err
	}
	if _, err := rand.Read(h.pin.Key[:]); err != nil {
		return nil, fmt.Errorf("webrtc: key: %w", err)
	}
	tn := cfg.Net
	if tn == nil {
		if tn, err = stdnet.NewNet(); err != nil {
			return nil, fmt.Errorf("webrtc: %w", err)
		}
	}
	udp, tcp, err := listenPair(tn, addr, cfg.Net != nil)
	if err != nil {
		return nil, fmt.Errorf("webrtc: host on %s: %w", addr, err)
	}
	h.Conduit = newConduit(udp.LocalAddr())
	h.udp = &counted{PacketConn: udp, w: &h.Conduit.wire}
	h.mux = pion.NewICEUDPMux(quiet(), h.udp)
	h.api = newAPI(h.mux, tn)
	h.pcfg = iceConfig(cfg)
	h.pcfg.Certificates = []pion.Certificate{*cert}
	ctx, cancel := context.WithCancel(context.Background())
	h.ctx = ctx
	h.signal = tcp.Addr()
	hm := http.NewServeMux()
	hm.HandleFunc(Path, h.serve)
	h.http = &http.Server{Handler: hm}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.http.Serve(tcp)
	}()
	h.stop = func() error {
		h.mu.Lock()
		h.stopped = true
		h.mu.Unlock()
		cancel()
		err := h.http.Close()
		h.wg.Wait()
		return errors.Join(err, h.mux.Close()) // the mux closes its socket
	}
	return h, nil
}

// listenPair opens the UDP socket and the TCP listener on the same port
// number; with a virtual network, the TCP listener on loopback.
func listenPair(tn transport.Net, addr string, virtual bool) (net.PacketConn, net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, nil, err
	}
	network := "udp"
	if virtual {
		network, host = "udp4", "127.0.0.1"
	}
	// Port 0: take a free UDP port, then the TCP port of its number,
	// which another program may hold: try a few.
	var lastErr error
	for range 8 {
		udp, err := tn.ListenPacket(network, addr)
		if err != nil {
			return nil, nil, err
		}
		p := udp.LocalAddr().(*net.UDPAddr).Port
		tcp, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(p)))
		if err == nil {
			return udp, tcp, nil
		}
		udp.Close()
		lastErr = err
		if port != "0" {
			break
		}
	}
	return nil, nil, fmt.Errorf("no TCP port for signalling beside the UDP one: %w", lastErr)
}

// Pin returns what the join token must carry for this host.
func (h *Host) Pin() Pin { return h.pin }

// SignalAddr is the TCP address signalling is served on.
func (h *Host) SignalAddr() net.Addr { return h.signal }

// Refusals is how many handshakes the host has refused.
func (h *Host) Refusals() int { return h.refusals.get() }

func certFingerprint(cert *pion.Certificate) ([printLen]byte, error) {
	var fp [printLen]byte
	fps, err := cert.GetFingerprints()
	if err != nil {
		return fp, fmt.Errorf("webrtc: certificate: %w", err)
	}
	for _, f := range fps {
		if f.Algorithm == "sha-256" {
			if err := parseHexPairs(fp[:], f.Value); err != nil {
				return fp, fmt.Errorf("webrtc: certificate fingerprint: %w", err)
			}
			return fp, nil
		}
	}
	return fp, errors.New("webrtc: the certificate has no sha-256 fingerprint")
}

// serve runs one joiner's handshake.
func (h *Host) serve(w http.ResponseWriter, r *http.Request) {
	// The slot is a handshake's: it frees when the handshake ends, not
	// after signalling's closing handshake, which may wait on the peer.
	var release func()
	select {
	case h.sem <- struct{}{}:
		release = sync.OnceFunc(func() { <-h.sem })
		defer release()
	default:
		h.refuse(r, fmt.Sprintf("busy: %d handshakes in progress (Config.Handshakes)", h.cfg.Handshakes))
		http.Error(w, "webrtc: busy: too many joins at once; try again", http.StatusServiceUnavailable)
		return
	}
	h.mu.Lock()
	if h.stopped {
		h.mu.Unlock()
		http.Error(w, "webrtc: the host has closed", http.StatusServiceUnavailable)
		return
	}
	h.wg.Add(1)
	h.mu.Unlock()
	defer h.wg.Done()
	from, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		http.Error(w, "webrtc: no remote address", http.StatusBadRequest)
		return
	}
	from = netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
	// The token authenticates a joiner; the Origin of its page does not.
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	ws.SetReadLimit(MaxMessage)
	ctx, cancel := context.WithTimeout(h.ctx, h.cfg.Timeout)
	defer cancel()
	s := newSignaller(ctx, ws)
	defer s.close()
	p, err := h.handshake(s)
	release()
	if err != nil {
		h.refuse(r, err.Error())
		s.refuse(err)
		return
	}
	h.add(from, p)
	s.done()
}

func (h *Host) refuse(r *http.Request, reason string) {
	h.refusals.add()
	if h.cfg.Log != nil {
		h.cfg.Log.Warn("webrtc: refused a join", "from", r.RemoteAddr, "reason", reason)
	}
}

func (h *Host) handshake(s *signaller) (*link, error) {
	var nonce [nonceLen]byte
	rand.Read(nonce[:])
	if err := s.send(message{Type: msgChallenge, Nonce: nonce[:]}); err != nil {
		return nil, err
	}
	m, err := s.next(msgOffer)
	if err != nil {
		return nil, err
	}
	if !hmac.Equal(m.Proof, proof(h.pin.Key, nonce[:])) {
		return nil, &Refusal{Reason: "wrong token: the proof does not match this host's join token"}
	}
	// Only now, authenticated, does the joiner cost an ICE agent.
	l, err := newLink(h.api, h.pcfg)
	if err != nil {
		return nil, err
	}
	s.trickle(l)
	ans, err := l.makeAnswer(m.SDP)
	if err == nil {
		if err = s.send(message{Type: msgAnswer, SDP: ans}); err != nil {
			err = s.readErr(err)
		}
	}
	if err != nil {
		l.close()
		return nil, err
	}
	s.opened()
	if _, err := s.connect(l); err != nil {
		l.close()
		return nil, err
	}
	return l, nil
}

// counted is the socket every peer connection shares, counting what
// passes through it: ICE's checks, DTLS and SCTP as well as the match's
// datagrams.
type counted struct {
	net.PacketConn
	w *netplay.Wire
}

func addrOf(a net.Addr) netip.Addr {
	if ua, ok := a.(*net.UDPAddr); ok {
		return ua.AddrPort().Addr()
	}
	return netip.Addr{}
}

func (c *counted) ReadFrom(b []byte) (int, net.Addr, error) {
	n, addr, err := c.PacketConn.ReadFrom(b)
	if err == nil {
		c.w.Received(n, addrOf(addr))
	}
	return n, addr, err
}

func (c *counted) WriteTo(b []byte, addr net.Addr) (int, error) {
	n, err := c.PacketConn.WriteTo(b, addr)
	if err == nil {
		c.w.Sent(n, addrOf(addr))
	}
	return n, err
}

func (c *Conduit) countRecv(int, netip.Addr) {} // the socket counts natively
func (c *Conduit) countSent(int, netip.Addr) {}

// newAPI makes the ICE stack of one end: every peer connection on the one
// counted UDP socket, loopback candidates included (a match on one
// machine is one), no mDNS (a desktop end has a real address to give).
func newAPI(mux ice.UDPMux, tn transport.Net) *pion.API {
	var se pion.SettingEngine
	se.SetICEUDPMux(mux)
	se.SetNet(tn)
	se.SetIncludeLoopbackCandidate(true)
	se.SetNetworkTypes([]pion.NetworkType{pion.NetworkTypeUDP4, pion.NetworkTypeUDP6})
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeQueryOnly)
	se.LoggerFactory = quietFactory{}
	return pion.NewAPI(pion.WithSettingEngine(se))
}

// quiet is pion's logger: silent, the conduit reports what matters.
func quiet() logging.LeveledLogger { return quietFactory{}.NewLogger("") }

type quietFactory struct{}

func (quietFactory) NewLogger(string) logging.LeveledLogger {
	f := logging.NewDefaultLoggerFactory()
	f.DefaultLogLevel = logging.LogLevelDisabled
	return f.NewLogger("webrtc")
}
