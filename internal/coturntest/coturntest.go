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
	"sync"
	"testing"
)

// Start runs turnserver as [Run] does and returns its address.
func Start(t testing.TB, secret string) string {
	t.Helper()
	return Run(t, secret).Addr
}

// Server is a running turnserver.
type Server struct {
	// Addr is its loopback host:port.
	Addr string

	mu  sync.Mutex
	log strings.Builder
}

// Log returns what turnserver has logged so far: a test reads in it
// that the relay allocated and carried a session's traffic. It may be
// called from any goroutine.
func (s *Server) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// Run runs turnserver on the loopback with use-auth-secret, every file
// in a temporary directory and no daemon configuration read (-n), and
// returns it once its log says its servers are open; it stops when the
// test ends. Without turnserver the test is skipped, or fails when
// CI=true (scripts/setup.sh installs coturn).
func Run(t testing.TB, secret string) *Server {
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
		"--log-file=stdout", "--simple-log", "--verbose")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: fmt.Sprintf("127.0.0.1:%d", port)}
	// The reader ends when turnserver does: the cleanup kills it, then
	// waits for the reader and the process.
	started := make(chan bool, 1)
	read := make(chan struct{})
	go func() {
		defer close(read)
		up := false
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			s.mu.Lock()
			s.log.WriteString(lines.Text() + "\n")
			s.mu.Unlock()
			// The line that follows opening its servers.
			if !up && strings.Contains(lines.Text(), "Total General servers") {
				up = true
				started <- true
			}
		}
		if !up {
			started <- false
		}
	}()
	t.Cleanup(func() { cancel(); <-read; cmd.Wait() })
	if !<-started {
		t.Fatalf("turnserver ended before it started:\n%s", s.Log())
	}
	return s
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
