package server_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pion/turn/v5"

	"github.com/metronome-go/metronome/lobby"
	"github.com/metronome-go/metronome/lobby/server"
)

// startCoturn runs Debian's turnserver on the loopback with
// use-auth-secret, every file in a temporary directory and no daemon
// configuration read (-n), and returns its address once it has started.
// Without turnserver the test is skipped, or fails when CI=true.
func startCoturn(t *testing.T, secret string) string {
	t.Helper()
	bin, err := exec.LookPath("turnserver")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("turnserver is not installed (scripts/setup.sh installs coturn)")
		}
		t.Skip("turnserver is not installed (scripts/setup.sh installs coturn)")
	}
	port := freeUDPPort(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-n",
		"--listening-ip=127.0.0.1", fmt.Sprintf("--listening-port=%d", port),
		"--relay-ip=127.0.0.1", "--min-port=49152", "--max-port=65535",
		"--use-auth-secret", "--static-auth-secret="+secret, "--realm=metronome.test",
		"--no-tls", "--no-dtls", "--no-cli", "--allow-loopback-peers",
		"--userdb="+filepath.Join(dir, "turndb"), "--pidfile="+filepath.Join(dir, "pid"),
		"--log-file=stdout", "--simple-log")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	// Wait on its log for the line that follows opening its servers.
	lines := bufio.NewScanner(out)
	var log strings.Builder
	for lines.Scan() {
		log.WriteString(lines.Text() + "\n")
		if strings.Contains(lines.Text(), "Total General servers") {
			go func() {
				for lines.Scan() {
				}
			}()
			return fmt.Sprintf("127.0.0.1:%d", port)
		}
	}
	t.Fatalf("turnserver ended before it started:\n%s", log.String())
	return ""
}

func freeUDPPort(t *testing.T) int {
	c, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).Port
}

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
	addr := startCoturn(t, secret)
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
