package netplay_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/rollback/netplay"
)

// pinned is a network of another package, as a WebRTC or relay transport
// would be: UDP underneath, under its own name, with a pin its joiners
// must present.
type pinned struct {
	pin   []byte
	dials int
}

func (p *pinned) Name() string { return "pinned-udp" }

func (p *pinned) Listen(addr string, o netplay.ConduitOptions) (netplay.Conduit, []byte, error) {
	c, _, err := netplay.UDPNetwork().Listen(addr, o)
	return c, p.pin, err
}

func (p *pinned) Dial(ctx context.Context, addr string, pin []byte, o netplay.ConduitOptions) (netplay.Conduit, netip.AddrPort, error) {
	p.dials++
	if !bytes.Equal(pin, p.pin) {
		return nil, netip.AddrPort{}, fmt.Errorf("pinned-udp: pin %x is not the host's", pin)
	}
	return netplay.UDPNetwork().Dial(ctx, addr, pin, o)
}

// A network of another package carries a match: its name is the token's,
// its pin travels in it, and its Dial gets the pin back.
func TestAMatchRunsOverANetworkOfAnotherPackage(t *testing.T) {
	nw := &pinned{pin: []byte("0123456789")}
	opts := netplay.Options{Transport: "pinned-udp", Networks: []netplay.Network{nw}}
	h, err := netplay.Host("127.0.0.1:0", opts, game)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if !strings.HasPrefix(h.Token(), "pinned-udp:") {
		t.Fatalf("token %q, want it to name the network", h.Token())
	}
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	j, err := netplay.Join(ctx, h.Addr().String(), h.Token(), opts, game)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	hm, err := h.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Send(0, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	eventually(t, "hello at the host", func() bool {
		n, from, ok := hm.Receive(buf)
		return ok && from == 1 && string(buf[:n]) == "hello"
	})
	if nw.dials != 1 {
		t.Errorf("%d dials, want 1", nw.dials)
	}
	if st := j.Stats(); st.WireSent.Packets == 0 || st.WireSent.Bytes == 0 {
		t.Errorf("joiner's wire counts %+v, want the conduit's", st.WireSent)
	}
}

// A transport the program does not link is refused with the names of
// those it links, on a host and on a joiner handed another network's
// token.
func TestATransportNotLinkedIsNamed(t *testing.T) {
	_, err := netplay.Host("127.0.0.1:0", netplay.Options{Networks: udpOnly, Transport: netplay.QUIC}, game)
	if err == nil || !strings.Contains(err.Error(), "Options.Transport") || !strings.Contains(err.Error(), `"udp"`) {
		t.Errorf("hosting over QUIC without linking it: %v, want an error naming Options.Transport and \"udp\"", err)
	}
	opts := netplay.Options{Transport: "pinned-udp", Networks: []netplay.Network{&pinned{}}}
	h, err := netplay.Host("127.0.0.1:0", opts, game)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	_, err = netplay.Join(context.Background(), h.Addr().String(), h.Token(), netplay.Options{Networks: udpOnly}, game)
	if !errors.Is(err, netplay.ErrTransport) || !strings.Contains(err.Error(), `pinned-udp host; this program links "udp"`) {
		t.Errorf("joining a pinned-udp host with UDP alone: %v, want ErrTransport naming both", err)
	}
}

func TestNetworksAreChecked(t *testing.T) {
	err := netplay.Options{Networks: []netplay.Network{netplay.UDPNetwork(), nil, netplay.UDPNetwork()}}.Validate()
	for _, want := range []string{"Options.Networks[1]", "is nil", "Options.Networks[2]", "listed twice"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want it to say %q", err, want)
		}
	}
}
