// Package lobbytest runs a lobby for tests: lobby/server on an embedded
// NATS server, served over HTTP on loopback in the test's process, all of
// it stopped by the test's cleanup. The tests of lobbynet, the duel and
// the browser pages meet through it.
package lobbytest

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/lobby/server"
)

// Start runs a lobby with the options o (its NATS connection is the
// embedded server's) and returns its ws:// URL.
func Start(t testing.TB, o server.Options) string {
	t.Helper()
	ns, err := server.StartNATS(server.NATSOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	nc, err := server.ConnectEmbedded(ns, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	o.NATS = nc
	s, err := server.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() { s.Close(); ts.Close() })
	return "ws" + strings.TrimPrefix(ts.URL, "http")
}
