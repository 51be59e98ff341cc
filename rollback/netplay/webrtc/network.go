package webrtc

import (
	"context"
	"errors"
	"net/netip"
	"time"

	"github.com/metronome-go/metronome/rollback/netplay"
)

// Name is the transport's name in a join token and in net.transport.
const Name = "webrtc"

// Network returns WebRTC as a [netplay.Network] with cfg's ICE settings,
// to list in netplay.Options.Networks (framework.Net's Networks). A
// page can only join: its Listen fails with [ErrNoHost].
func Network(cfg Config) netplay.Network { return network{cfg: cfg} }

// network carries the netplay.Driver, so a program that lists WebRTC
// alone (a page that only joins) links the code that plays a match.
type network struct {
	netplay.Driver
	cfg Config
}

func (network) Name() string { return Name }

// Dial joins with the token's pin, adding the match's ICE settings
// (ConduitOptions.ICE, the [net] table's) to cfg's. The handshake is bounded by
// Config.Timeout, not by the match's silence timeout: ICE through a
// relay takes longer than a silent peer may.
func (n network) Dial(ctx context.Context, addr string, pin []byte, o netplay.ConduitOptions) (netplay.Conduit, netip.AddrPort, error) {
	p, err := ParsePin(pin)
	if err != nil {
		return nil, netip.AddrPort{}, err
	}
	c, host, err := Dial(ctx, addr, p, n.cfg.WithICE(o.ICE, time.Now()))
	if err != nil {
		return nil, host, err
	}
	return c, host, nil
}

// ErrNoHost is a page's error for hosting: a page cannot accept
// connections, so it cannot host a match; a desktop build hosts (and, in
// time, a lobby with a real address will).
var ErrNoHost = errors.New("webrtc: a page cannot host a match (it cannot accept connections); host from a desktop build")
