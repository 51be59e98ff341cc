package webrtc

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// FuzzDecodeRoomMsg: any payload a lobby relays decodes to a checked
// message or a clear error, never a panic, and a message that decodes
// encodes back to the same.
func FuzzDecodeRoomMsg(f *testing.F) {
	f.Add(`{"t":"offer","sdp":"v=0\r\n"}`)
	f.Add(`{"t":"answer","sdp":"v=0\r\na=fingerprint:sha-256 00:11\r\n"}`)
	f.Add(`{"t":"candidate","c":"candidate:1 1 udp 1 127.0.0.1 5000 typ host","mid":"0"}`)
	f.Add(`{"t":"refuse","reason":"no"}`)
	f.Add(`{"t":"challenge","nonce":"AAAAAAAAAAAAAAAAAAAAAA=="}`)
	f.Add(`{"t":"offer","proof":"AA=="}`)
	f.Fuzz(func(t *testing.T, s string) {
		m, err := decodeRoomMsg(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "webrtc: bad signalling message: ") {
				t.Fatalf("error %q does not say what it is about", err)
			}
			return
		}
		again, err := decodeRoomMsg(m.roomPayload())
		if err != nil || again.roomPayload() != m.roomPayload() {
			t.Fatalf("%+v encodes and decodes to %+v (%v)", m, again, err)
		}
	})
}

// memSignals is one side of an in-memory Signals pair.
type memSignals struct{ in, out chan string }

func (p memSignals) Send(ctx context.Context, d string) error {
	select {
	case p.out <- d:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p memSignals) Recv(ctx context.Context) (string, error) {
	select {
	case d := <-p.in:
		return d, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// A garbled payload in place of the offer is refused with its reason on
// this side, and the other side hears the refusal, within the deadline.
func TestRoomConnectRefusesAGarbledOffer(t *testing.T) {
	e, err := NewRoomEnd(Config{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	a, b := make(chan string, 64), make(chan string, 64)
	a <- `{"t":"offer","sdp":"v=0\r\n","proof":"AA=="}`
	err = e.Connect(context.Background(), netip.MustParseAddrPort("240.0.0.1:7001"), memSignals{in: a, out: b}, false)
	var r *Refusal
	if !errors.As(err, &r) || r.Remote || !strings.Contains(r.Reason, "proof") {
		t.Fatalf("a garbled offer: %v, want a refusal naming the field", err)
	}
	var sent []string
	for len(b) > 0 {
		sent = append(sent, <-b)
	}
	if len(sent) == 0 || !strings.Contains(sent[len(sent)-1], `"t":"refuse"`) {
		t.Errorf("the other side heard %q, want a refusal last", sent)
	}
}
