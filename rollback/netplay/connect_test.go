package netplay_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/timing"
)

// connected is what a Connect in a goroutine came back with.
type connected struct {
	m        *netplay.Match
	err      error
	from, at timing.Instant
}

// connect runs netplay.Connect with o in a goroutine, passing on its
// notices; the result arrives on the channel.
func connect(o netplay.ConnectOptions, notices chan<- netplay.Notice) <-chan connected {
	done := make(chan connected, 1)
	o.Notify = func(n netplay.Notice) { notices <- n }
	go func() {
		var from, at timing.Instant
		if o.Options.Clock != nil {
			from = o.Options.Clock.Now()
		}
		m, err := netplay.Connect(context.Background(), o)
		if o.Options.Clock != nil {
			at = o.Options.Clock.Now()
		}
		done <- connected{m, err, from, at}
	}()
	return done
}

// A dedicated host listens and says what a joiner passes; a joiner that
// passes it joins, and both start, the host as peer 0 with no seat: the
// match holds one peer more than its one player.
func TestConnectHostsAndJoins(t *testing.T) {
	notices := make(chan netplay.Notice, 4)
	host := connect(netplay.ConnectOptions{Role: rollback.Dedicated, Addr: "127.0.0.1:0", Identity: game,
		Options: netplay.Options{Networks: udpOnly, Players: 1}}, notices)
	listening := receive(t, notices)
	if listening.Kind != netplay.Listening || listening.Role != rollback.Dedicated || listening.Token == "" ||
		listening.JoinAddr != listening.Addr.String() || listening.Transport != netplay.UDP {
		t.Fatalf("first notice %+v: want the dedicated host listening over udp, with a token and the address to join", listening)
	}
	joinerNotices := make(chan netplay.Notice, 4)
	joiner := connect(netplay.ConnectOptions{Role: rollback.Joining, Addr: listening.JoinAddr, Token: listening.Token, Identity: game, Options: netplay.Options{Networks: udpOnly}}, joinerNotices)
	h, j := receive(t, host), receive(t, joiner)
	if h.err != nil || j.err != nil {
		t.Fatalf("host: %v; joiner: %v", h.err, j.err)
	}
	defer h.m.Close()
	defer j.m.Close()
	for _, c := range []struct {
		notices chan netplay.Notice
		role    rollback.Role
		self    int
	}{{notices, rollback.Dedicated, 0}, {joinerNotices, rollback.Joining, 1}} {
		if n := receive(t, c.notices); n.Kind != netplay.Started || n.Role != c.role || n.Self != c.self {
			t.Errorf("%v's start notice %+v: want started as peer %d", c.role, n, c.self)
		}
	}
	if got := j.m.Seating(1); len(got.Peers) != 1 || got.Peers[0] != 1 || len(got.Seatless) != 1 || got.Seatless[0] != 0 {
		t.Errorf("the joiner's seating %+v: want its player at peer 1 and the host seat-less", got)
	}
}

// A refused join comes back as the match's outcome, refused, with the
// host's reason.
func TestConnectReturnsARefusalAsTheOutcome(t *testing.T) {
	notices := make(chan netplay.Notice, 4)
	host := connect(netplay.ConnectOptions{Role: rollback.Hosting, Addr: "127.0.0.1:0", Identity: game, Options: netplay.Options{Networks: udpOnly}}, notices)
	listening := receive(t, notices)
	other := game
	other.Version = "2.0"
	_, err := netplay.Connect(context.Background(), netplay.ConnectOptions{Role: rollback.Joining, Addr: listening.JoinAddr, Token: listening.Token, Identity: other, Options: netplay.Options{Networks: udpOnly}})
	var oe *rollback.OutcomeError
	if !errors.As(err, &oe) || oe.Outcome.Kind != rollback.Refused || !strings.Contains(oe.Outcome.Reason, "version") {
		t.Errorf("error %v: want the outcome refused, with a reason naming the version", err)
	}
	if _, err := netplay.Connect(context.Background(), netplay.ConnectOptions{Role: 9}); err == nil || !strings.Contains(err.Error(), "Role 9 is out of range") {
		t.Errorf("role 9: %v, want it refused by name", err)
	}
	// The host still waits for a player it can play with.
	select {
	case c := <-host:
		t.Fatalf("the host stopped waiting: %v", c.err)
	default:
	}
}

// A host waits its patience on the match's clock, then says how many
// joined; so does a joiner for a match that does not start; neither
// gives up earlier.
func TestConnectWaitsItsPatienceOnTheClock(t *testing.T) {
	v := newVirtual()
	opts := netplay.Options{Networks: udpOnly, Players: 3, Clock: v.clock}
	notices := make(chan netplay.Notice, 4)
	host := connect(netplay.ConnectOptions{Role: rollback.Hosting, Addr: "127.0.0.1:0", Identity: game, Options: opts, Patience: 10 * time.Second}, notices)
	listening := receive(t, notices)
	joiner := connect(netplay.ConnectOptions{Role: rollback.Joining, Addr: listening.JoinAddr, Token: listening.Token, Identity: game,
		// Its Timeout is past its patience, so however fast the clock
		// runs before the host's answer arrives, the patience ends it.
		Options: netplay.Options{Networks: udpOnly, Clock: v.clock, Timeout: 10 * time.Minute}, Patience: 3 * time.Second}, make(chan netplay.Notice, 4))
	// The clock moves only when the test steps it, and no faster than
	// the matches' waits allow; the real-time bound catches a hang.
	var h, j *connected
	for hang := time.After(within); h == nil || j == nil; {
		v.step(100 * time.Millisecond)
		select {
		case c := <-host:
			h = &c
		case c := <-joiner:
			j = &c
		case <-hang:
			t.Fatalf("after %v of virtual time: host %v, joiner %v; want both to have given up", time.Duration(v.clock.Now()), h, j)
		default:
		}
	}
	var short *netplay.ShortError
	if !errors.As(h.err, &short) || !errors.Is(h.err, context.DeadlineExceeded) || short.Want != 2 || h.at-h.from < timing.Instant(10*time.Second) {
		t.Errorf("host: %v at %v: want not enough players joined, after its 10 s patience", h.err, time.Duration(h.at-h.from))
	}
	if !errors.Is(j.err, context.DeadlineExceeded) || !strings.Contains(j.err.Error(), "did not start within 3s") || j.at-j.from < timing.Instant(3*time.Second) {
		t.Errorf("joiner: %v at %v: want the match not started after its 3 s patience", j.err, time.Duration(j.at-j.from))
	}
}
