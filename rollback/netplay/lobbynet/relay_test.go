//go:build !js

package lobbynet_test

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

	"github.com/metronome-go/metronome/lobby/server"
	"github.com/metronome-go/metronome/rollback/netplay/lobbynet"
	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
)

// startCoturn runs Debian's turnserver on loopback with use-auth-secret
// (as lobby/server's tests do) and returns its address once it has
// started. Without turnserver the test is skipped, or fails when CI=true.
func startCoturn(t *testing.T, secret string) string {
	t.Helper()
	bin, err := exec.LookPath("turnserver")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("turnserver is not installed (scripts/setup.sh installs coturn)")
		}
		t.Skip("turnserver is not installed (scripts/setup.sh installs coturn)")
	}
	c, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := c.LocalAddr().(*net.UDPAddr).Port
	c.Close()
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

// A match relayed through a real coturn, with TURN credentials the lobby
// signed, ends on the same confirmed hash as a direct one in the same
// run; the test logs the round trip and the bytes each path carried.
func TestRelayedThroughCoturnAsDirect(t *testing.T) {
	const secret = "lobbynet-test-secret"
	turn := startCoturn(t, secret)
	url := startLobby(t, server.Options{TURNSecret: []byte(secret), TURNURLs: []string{"turn:" + turn}})
	const ticks = 300
	var hash [2]uint64
	var path [2]webrtc.PeerPath
	for i, relay := range []bool{false, true} {
		ms, ls := meetByCode(t, url, func(int) lobbynet.Options {
			return lobbynet.Options{Config: webrtc.Config{Relay: relay}}
		})
		start := time.Now()
		hash[i] = play(t, ms, ticks)
		secs := time.Since(start).Seconds()
		pp, err := ms[1].Path(ms[1].Peers[0])
		if err != nil {
			t.Fatal(err)
		}
		path[i] = pp
		if pp.Relayed != relay || ms[1].Relayed[0] != relay {
			t.Errorf("relay forced %v, path relayed %v: %s", relay, pp.Relayed, ls[1])
		}
		if relay && !strings.Contains(ls[1].String(), "(relayed, round trip") {
			t.Errorf("the guest's lines %q do not say the path is relayed", ls[1])
		}
		t.Logf("relayed %v: round trip %v, guest sent %d B and received %d B of DTLS/SCTP on the pair (%.0f B/s up) over %.1f s",
			relay, pp.RTT, pp.Sent, pp.Received, float64(pp.Sent)/secs, secs)
		for _, m := range ms {
			m.Close()
		}
	}
	if hash[0] != hash[1] {
		t.Errorf("direct confirmed hash %x, relayed %x", hash[0], hash[1])
	}
	t.Logf("the relay added %v of round trip", path[1].RTT-path[0].RTT)
}
