package server_test

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/metronome-go/metronome/lobby"
	"github.com/metronome-go/metronome/lobby/server"
)

func TestBadFramesAreRefused(t *testing.T) {
	ns := startNATS(t)
	in := startLobby(t, ns, server.Options{})
	ctx := ctxFor(t)

	raw := func() *websocket.Conn {
		ws, _, err := websocket.Dial(ctx, in.url, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.CloseNow() })
		if _, b, err := ws.Read(ctx); err != nil || !bytes.Contains(b, []byte(`"welcome"`)) {
			t.Fatalf("welcome: %s, %v", b, err)
		}
		return ws
	}
	refusal := func(ws *websocket.Conn) lobby.Message {
		t.Helper()
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		m, err := lobby.DecodeEvent(b)
		if err != nil || m.Type != lobby.TypeError {
			t.Fatalf("want an error event, got %s (%v)", b, err)
		}
		return m
	}

	cases := []struct {
		name, frame, detail string
	}{
		{"not JSON", "\x00\xffgarbage", "invalid character"},
		{"unknown type", `{"type":"teleport"}`, "unknown type"},
		{"lobby's type", `{"type":"welcome","client":"aaaaaaaaaaaaaaaaaaaaaaaaaa"}`, "lobby's to send"},
		{"unknown field", `{"type":"create","game":"g","players":2,"admin":true}`, "unknown field"},
		{"players out of range", `{"type":"create","game":"g","players":99}`, "2 to 8 allowed"},
		{"bad code", `{"type":"join","game":"g","code":"UUU-UUU"}`, "A-Z but U"},
		{"two values", `{"type":"leave"}{"type":"leave"}`, "more than one"},
	}
	ws := raw()
	for _, c := range cases {
		if err := ws.Write(ctx, websocket.MessageText, []byte(c.frame)); err != nil {
			t.Fatal(err)
		}
		m := refusal(ws)
		if m.Reason != lobby.ReasonBadMessage || !strings.Contains(m.Detail, c.detail) {
			t.Errorf("%s: refused with %s %q, want bad-message naming %q", c.name, m.Reason, m.Detail, c.detail)
		}
		// A good message in between keeps the connection open.
		ws.Write(ctx, websocket.MessageText, []byte(`{"type":"leave"}`))
	}

	// Three bad frames in a row close the connection.
	ws = raw()
	for range 3 {
		ws.Write(ctx, websocket.MessageBinary, []byte{1, 2, 3})
	}
	for range 3 {
		refusal(ws)
	}
	if _, _, err := ws.Read(ctx); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Errorf("after three bad frames: %v, want a policy-violation close", err)
	}

	// An oversized frame closes the connection with 1009.
	ws = raw()
	ws.Write(ctx, websocket.MessageText, bytes.Repeat([]byte("x"), lobby.MaxFrame+1))
	if _, _, err := ws.Read(ctx); websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Errorf("after an oversized frame: %v, want close status 1009", err)
	}

	// Other clients never noticed.
	c := dial(t, ctx, in.url)
	if _, err := c.Create(ctx, game, 2); err != nil {
		t.Errorf("a good client after the bad ones: %v", err)
	}
}

func TestSilentClientIsDropped(t *testing.T) {
	ns := startNATS(t)
	in := startLobby(t, ns, server.Options{PingEvery: 50 * time.Millisecond})
	ctx := ctxFor(t)

	// A client that completes the WebSocket handshake and then never
	// answers: it reads the raw bytes (the welcome, the pings) and sends
	// nothing back.
	silent, err := net.Dial("tcp", strings.TrimPrefix(in.ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	silent.SetDeadline(time.Now().Add(15 * time.Second)) // a bound, not a wait
	fmt.Fprintf(silent, "GET / HTTP/1.1\r\nHost: lobby\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
	// One that answers stays.
	live := dial(t, ctx, in.url)
	done := make(chan error, 1)
	go func() { _, err := live.Next(ctx); done <- err }()

	got, err := io.ReadAll(silent)
	if err != nil {
		t.Fatalf("the silent client was not dropped: %v", err)
	}
	if !bytes.Contains(got, []byte("101 Switching Protocols")) || !bytes.Contains(got, []byte(`"welcome"`)) {
		t.Errorf("the silent client read %q: want the upgrade and the welcome before the drop", got)
	}
	if n := in.s.Clients(); n < 1 {
		t.Errorf("%d clients left: the live one was dropped too", n)
	}
	live.Close()
	<-done
}

func TestBusyInstanceRefusesMore(t *testing.T) {
	ns := startNATS(t)
	in := startLobby(t, ns, server.Options{MaxClients: 1})
	ctx := ctxFor(t)
	dial(t, ctx, in.url)
	_, resp, err := websocket.Dial(ctx, in.url, nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a second client over MaxClients=1: %v, want 503", err)
	}
}

func TestHandshakeGarbage(t *testing.T) {
	ns := startNATS(t)
	in := startLobby(t, ns, server.Options{})
	conn, err := net.Dial("tcp", strings.TrimPrefix(in.ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
	buf := make([]byte, 512)
	n, _ := conn.Read(buf)
	if !bytes.Contains(buf[:n], []byte("400")) && !bytes.Contains(buf[:n], []byte("426")) {
		t.Errorf("a plain GET got %q, want a 4xx refusal", buf[:n])
	}
}
