package server_test

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/metronome-go/metronome/internal/coturntest"
	"github.com/metronome-go/metronome/lobby"
	"github.com/metronome-go/metronome/lobby/server"
	"github.com/pion/turn/v5"
)

// allocate asks the TURN server at addr for a relay with the given
// credentials.
func allocate(t *testing.T, addr, user, pass string) (*turn.Client, net.PacketConn, error) {
	t.Helper()
	conn, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := turn.NewClient(&turn.ClientConfig{
		STUNServerAddr: addr, TURNServerAddr: addr,
		Username: user, Password: pass, Realm: "metronome.test",
		Conn: conn, RTO: 100 * time.Millisecond,
	})
	if err != nil {
		conn.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); conn.Close() })
	if err := c.Listen(); err != nil {
		t.Fatal(err)
	}
	// The first binding request is answered once the UDP listener is up.
	var bound error
	for range 50 {
		if _, bound = c.SendBindingRequest(); bound == nil {
			break
		}
	}
	if bound != nil {
		t.Fatalf("turnserver does not answer a binding request: %v", bound)
	}
	relay, err := c.Allocate()
	if err == nil {
		t.Cleanup(func() { relay.Close() })
	}
	return c, relay, err
}

// TestCoturnAcceptsTheLobbysCredentials: the credentials a lobby hands its
// clients allocate relays on a real coturn that shares its secret, and
// data crosses between two relays; forged and expired ones are refused.
func TestCoturnAcceptsTheLobbysCredentials(t *testing.T) {
	const secret = "shared-with-coturn"
	addr := coturntest.Start(t, secret)
	ns := startNATS(t)
	in := startLobby(t, ns, server.Options{TURNSecret: []byte(secret), TURNURLs: []string{"turn:" + addr}})
	ctx := ctxFor(t)

	a, b := dial(t, ctx, in.url), dial(t, ctx, in.url)
	ta, tb := a.Welcome().TURN, b.Welcome().TURN
	_, ra, err := allocate(t, addr, ta.Username, ta.Password)
	if err != nil {
		t.Fatalf("allocating with the lobby's credentials: %v", err)
	}
	_, rb, err := allocate(t, addr, tb.Username, tb.Password)
	if err != nil {
		t.Fatalf("allocating with the lobby's credentials: %v", err)
	}
	// Each relay lets the other's address in (a permission), then a
	// datagram crosses from relay to relay through coturn.
	if _, err := rb.WriteTo([]byte("hello"), ra.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	if _, err := ra.WriteTo([]byte("relayed"), rb.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	rb.SetReadDeadline(time.Now().Add(10 * time.Second)) // a bound, not a wait
	buf := make([]byte, 64)
	n, from, err := rb.ReadFrom(buf)
	if err != nil || string(buf[:n]) != "relayed" || from.String() != ra.LocalAddr().String() {
		t.Fatalf("read %q from %v (%v), want \"relayed\" from %v", buf[:n], from, err, ra.LocalAddr())
	}

	for _, c := range []struct {
		name       string
		user, pass string
	}{
		{"forged password", ta.Username, lobby.Credentials([]byte("not-the-secret"), "x", time.Unix(ta.Expires, 0), nil).Password},
		{"changed expiry", fmt.Sprintf("%d:%s", ta.Expires+3600, a.Welcome().Client), ta.Password},
		{"expired", expired(secret).Username, expired(secret).Password},
	} {
		if _, _, err := allocate(t, addr, c.user, c.pass); err == nil {
			t.Errorf("%s: coturn allocated a relay", c.name)
		}
	}
}

func expired(secret string) lobby.TURN {
	return lobby.Credentials([]byte(secret), "late", time.Now().Add(-time.Minute), nil)
}
