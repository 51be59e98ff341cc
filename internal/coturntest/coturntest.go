// Package coturntest starts Debian's coturn for tests: a TURN relay on the
// loopback that signs no one in but holders of credentials made from a
// shared secret (coturn's use-auth-secret, the REST scheme the lobby and
// package webrtc sign).
package coturntest

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
)

// Start runs turnserver on the loopback with use-auth-secret, every file
// in a temporary directory and no daemon configuration read (-n), and
// returns its address once its log says its servers are open; it stops
// when the test ends. Without turnserver the test is skipped, or fails
// when CI=true (scripts/setup.sh installs coturn).
func Start(t testing.TB, secret string) string {
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

// freeUDPPort is a loopback UDP port free a moment ago.
func freeUDPPort(t testing.TB) int {
	c, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).Port
}
