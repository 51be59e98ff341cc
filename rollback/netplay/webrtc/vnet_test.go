//go:build !js

package webrtc_test

import (
	"context"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
	"github.com/pion/logging"
	"github.com/pion/transport/v5/vnet"
)

// Impaired is a virtual network between a host at 1.2.3.4 and a joiner at
// 1.2.3.5: each way takes 65ms to 85ms (a round trip of 150ms ±20ms)
// and loses loss percent of its packets at each end.
type Impaired struct {
	Host, Joiner *vnet.Net
}

func impaired(t *testing.T, loss int) Impaired {
	t.Helper()
	wan, err := vnet.NewRouter(&vnet.RouterConfig{CIDR: "1.2.3.0/24", MinDelay: 65 * time.Millisecond, MaxJitter: 20 * time.Millisecond, LoggerFactory: quietLogs()})
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
		if i == 0 {
			n.Host = nw
		} else {
			n.Joiner = nw
		}
	}
	if err := wan.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wan.Stop() })
	return n
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

func quietLogs() logging.LoggerFactory {
	f := logging.NewDefaultLoggerFactory()
	f.DefaultLogLevel = logging.LogLevelDisabled
	return f
}
