//go:build !js

package webrtc_test

import (
	"bytes"
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
)

type got struct {
	b    []byte
	from netip.AddrPort
	gone bool
}

// reader reads c into a channel until it closes.
func reader(t *testing.T, c *webrtc.Conduit) <-chan got {
	ch := make(chan got, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 2048)
		for {
			n, from, err := c.ReadFrom(buf)
			gone := errors.Is(err, netplay.ErrPeerGone)
			if err != nil && !gone {
				return
			}
			select {
			case ch <- got{bytes.Clone(buf[:n]), from, gone}:
			default:
			}
		}
	}()
	t.Cleanup(func() { c.Close(); <-done })
	return ch
}

// exchange sends b from one end until the other receives it, every
// 10ms, at most 500 times.
func exchange(t *testing.T, from *webrtc.Conduit, to netip.AddrPort, b []byte, rx <-chan got) got {
	t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for range 500 {
		if err := from.WriteTo(b, to); err != nil {
			t.Fatalf("WriteTo: %v", err)
		}
		select {
		case g := <-rx:
			if !g.gone && bytes.Equal(g.b, b) {
				return g
			}
		case <-tick.C:
		}
	}
	t.Fatalf("%q never arrived", b)
	return got{}
}

func listen(t *testing.T, cfg webrtc.Config) *webrtc.Host {
	t.Helper()
	h, err := webrtc.Listen("127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func TestDatagramsBothWays(t *testing.T) {
	h := listen(t, webrtc.Config{})
	hostRx := reader(t, h.Conduit)
	j, hostKey, err := webrtc.Dial(context.Background(), h.SignalAddr().String(), h.Pin(), webrtc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	joinRx := reader(t, j)
	g := exchange(t, j, hostKey, []byte("from the joiner"), hostRx)
	joiner := g.from
	exchange(t, h.Conduit, joiner, []byte("from the host"), joinRx)
	if sent, recv := h.Wire().Counts(); sent.Bytes == 0 || recv.Bytes == 0 {
		t.Errorf("host wire counts: sent %d, received %d bytes; want both above 0", sent.Bytes, recv.Bytes)
	}
	if err := j.Close(); err != nil {
		t.Errorf("joiner Close: %v", err)
	}
	// The host hears that the joiner went.
	for g := range hostRx {
		if g.gone {
			if g.from != joiner {
				t.Fatalf("gone: %v; want the joiner, %v", g.from, joiner)
			}
			break
		}
	}
}

// refused checks that err is a refusal whose reason says want.
func refused(t *testing.T, err error, remote bool, want string) {
	t.Helper()
	var r *webrtc.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("error %v (%T); want a *webrtc.Refusal saying %q", err, err, want)
	}
	if r.Remote != remote || !strings.Contains(r.Reason, want) {
		t.Fatalf("refusal %+v; want Remote %v and a reason with %q", *r, remote, want)
	}
}

// hostRefused waits until the host has counted n refusals.
func hostRefused(t *testing.T, h *webrtc.Host, n int) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for range 2000 {
		if h.Refusals() >= n {
			return
		}
		<-tick.C
	}
	t.Fatalf("host refusals %d; want %d", h.Refusals(), n)
}

func TestWrongTokenIsRefusedBeforeICE(t *testing.T) {
	h := listen(t, webrtc.Config{})
	pin := h.Pin()
	pin.Key[0] ^= 1
	_, _, err := webrtc.Dial(context.Background(), h.SignalAddr().String(), pin, webrtc.Config{})
	refused(t, err, true, "wrong token")
	hostRefused(t, h, 1)
}

func TestAFingerprintNotTheTokensIsRefused(t *testing.T) {
	h := listen(t, webrtc.Config{})
	pin := h.Pin()
	pin.Fingerprint[5] ^= 1
	_, _, err := webrtc.Dial(context.Background(), h.SignalAddr().String(), pin, webrtc.Config{})
	refused(t, err, false, "is not the token's")
	hostRefused(t, h, 1)
}

// raw opens a signalling connection as a hostile or broken joiner would.
func raw(t *testing.T, h *webrtc.Host) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(context.Background(), "ws://"+h.SignalAddr().String()+webrtc.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	if _, b, err := ws.Read(context.Background()); err != nil || !bytes.Contains(b, []byte(`"challenge"`)) {
		t.Fatalf("first message %s, %v; want the challenge", b, err)
	}
	return ws
}

// refusal reads until the host's refusal and returns its reason.
func refusal(t *testing.T, ws *websocket.Conn) string {
	t.Helper()
	for {
		_, b, err := ws.Read(context.Background())
		if err != nil {
			t.Fatalf("no refusal before the connection ended: %v", err)
		}
		if bytes.Contains(b, []byte(`"refuse"`)) {
			return string(b)
		}
	}
}

func TestBadSignallingIsRefused(t *testing.T) {
	h := listen(t, webrtc.Config{Timeout: 300 * time.Millisecond})
	for _, tc := range []struct {
		name, send, want string
	}{
		{"garbled", `{"t":"offer",`, "not a signalling object"},
		{"unknown type", `{"t":"hello"}`, `type \"hello\"`},
		{"wrong order", `{"t":"answer","sdp":"v=0"}`, `message \"answer\" where \"offer\" was due`},
		{"short proof", `{"t":"offer","proof":"AAAA","sdp":"v=0"}`, "a proof of 3 bytes"},
		{"oversized", `{"t":"offer","sdp":"` + strings.Repeat("x", webrtc.MaxMessage) + `"}`, "too big"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := raw(t, h)
			ws.Write(context.Background(), websocket.MessageText, []byte(tc.send))
			if tc.name == "oversized" {
				// The host closes at the read limit, with its reason.
				_, _, err := ws.Read(context.Background())
				if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
					t.Fatalf("close %v; want status MessageTooBig", err)
				}
				return
			}
			if r := refusal(t, ws); !strings.Contains(r, tc.want) {
				t.Fatalf("refusal %s; want %q in it", r, tc.want)
			}
		})
	}
}

func TestAJoinerThatNeverFinishesIsRefusedByTheDeadline(t *testing.T) {
	h := listen(t, webrtc.Config{Timeout: 300 * time.Millisecond})
	ws := raw(t, h)
	// Silence: no offer ever comes.
	if r := refusal(t, ws); !strings.Contains(r, "did not finish in time") {
		t.Fatalf("refusal %s; want the deadline's", r)
	}
}

func TestAFloodOfConnectionsIsRefused(t *testing.T) {
	// The deadline also bounds the first, real join's handshake, which a
	// loaded machine under -race took over 500 ms to finish; the silent
	// connections are refused at it, so the test lasts about as long.
	h := listen(t, webrtc.Config{Handshakes: 2, Timeout: 5 * time.Second})
	hostRx := reader(t, h.Conduit)
	j, hostKey, err := webrtc.Dial(context.Background(), h.SignalAddr().String(), h.Pin(), webrtc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	joinRx := reader(t, j)
	joiner := exchange(t, j, hostKey, []byte("before"), hostRx).from
	raw(t, h)
	raw(t, h)
	_, _, err = webrtc.Dial(context.Background(), h.SignalAddr().String(), h.Pin(), webrtc.Config{})
	refused(t, err, true, "busy")
	// The peer already joined is not disturbed, during the flood or
	// after it is refused.
	exchange(t, h.Conduit, joiner, []byte("during"), joinRx)
	hostRefused(t, h, 3) // the busy one and the two silent ones, at their deadline
	exchange(t, j, hostKey, []byte("after"), hostRx)
}
