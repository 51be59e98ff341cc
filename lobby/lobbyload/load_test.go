package lobbyload_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/lobby/lobbyload"
)

// check runs o, bounded by the test binary's -timeout (a run waits on its
// clients' progress, not on a budget of its own), and wants every client
// paired with its peer in one room and every signal heard.
func check(t *testing.T, name string, o lobbyload.Options) lobbyload.Result {
	t.Helper()
	o.Dir = t.TempDir()
	o.Timeout = 10 * time.Minute
	if d, ok := t.Deadline(); ok {
		o.Timeout = time.Until(d) - 10*time.Second
	}
	r, err := lobbyload.Run(t.Context(), o)
	t.Logf("%s: %v", name, r)
	if err != nil {
		t.Fatal(err)
	}
	if r.Paired != o.Clients || r.Lost != 0 || r.Split != 0 || r.Stray != 0 {
		t.Errorf("%s: %d of %d paired, %d lost, %d split, %d stray: want all paired, none lost, split or stray", name, r.Paired, o.Clients, r.Lost, r.Split, r.Stray)
	}
	return r
}

func TestPairsOnOneInstance(t *testing.T) {
	check(t, "one instance, embedded NATS", lobbyload.Options{Clients: 100, Instances: 1, NATSNodes: 1})
}

// TestAnInstanceDiesMidRun: the clients of the killed instance resume on
// the others and every client is still paired and hears its peer.
func TestAnInstanceDiesMidRun(t *testing.T) {
	r := check(t, "three instances, instance 0 killed", lobbyload.Options{Clients: 300, Instances: 3, NATSNodes: 3, KillAt: 150})
	if r.Resumed == 0 {
		t.Error("no client resumed: the kill came too late to matter")
	}
}

// TestANATSServerStopsMidRun: one of three NATS servers stops; the
// instances connected to it fail over to the others, the bucket (kept
// three times) loses nothing, and every client is paired and hears its
// peer.
func TestANATSServerStopsMidRun(t *testing.T) {
	check(t, "three instances, NATS server 2 stopped", lobbyload.Options{Clients: 300, Instances: 3, NATSNodes: 3, StopNATSAt: 150})
}
