package server_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/metronome-go/metronome/lobby"
	"github.com/metronome-go/metronome/lobby/server"
)

// clock is a wall clock the test moves by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Unix(1_800_000_000, 0)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func startNATS(t testing.TB) *natsserver.Server {
	t.Helper()
	ns, err := server.StartNATS(server.NATSOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	return ns
}

// instance is one lobby on an httptest server.
type instance struct {
	s   *server.Server
	ts  *httptest.Server
	nc  *nats.Conn
	url string
}

// startLobby starts an instance; setup runs before it serves anyone.
func startLobby(t testing.TB, ns *natsserver.Server, o server.Options, setup ...func(*server.Server)) *instance {
	t.Helper()
	nc, err := server.ConnectEmbedded(ns, "test")
	if err != nil {
		t.Fatal(err)
	}
	o.NATS = nc
	// As cmd/lobby does: the context bounds New, and ends once it returned.
	nctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	s, err := server.New(nctx, o)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range setup {
		f(s)
	}
	ts := httptest.NewServer(s)
	in := &instance{s: s, ts: ts, nc: nc, url: "ws" + strings.TrimPrefix(ts.URL, "http")}
	t.Cleanup(func() { in.stop() })
	return in
}

func (in *instance) stop() {
	in.s.Close()
	in.ts.Close()
	in.nc.Close()
}

// ctxFor bounds a test's lobby calls by the test itself (its binary's
// -timeout), not by a budget a loaded machine could overrun.
func ctxFor(t testing.TB) context.Context { return t.Context() }

func dial(t testing.TB, ctx context.Context, url string) *lobby.Client {
	t.Helper()
	c, err := lobby.Dial(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// next reads the next event and checks its type.
func next(t testing.TB, ctx context.Context, c *lobby.Client, want string) lobby.Message {
	t.Helper()
	m, err := c.Next(ctx)
	if err != nil {
		t.Fatalf("waiting for %s: %v", want, err)
	}
	if m.Type != want {
		t.Fatalf("got a %s event (%+v), want %s", m.Type, m, want)
	}
	return m
}

func reason(err error) lobby.Reason {
	var r *lobby.RefusedError
	if errors.As(err, &r) {
		return r.Reason
	}
	return ""
}

const game = "metronome-test/duel@v1"

func TestCreateJoinSignal(t *testing.T) {
	ns := startNATS(t)
	secret := []byte("coturn-shared-secret")
	clk := newClock()
	in := startLobby(t, ns, server.Options{TURNSecret: secret, TURNURLs: []string{"turn:127.0.0.1:3478"}, Now: clk.Now})
	ctx := ctxFor(t)

	host := dial(t, ctx, in.url)
	w := host.Welcome()
	if w.TURN == nil {
		t.Fatal("no TURN credentials in the welcome")
	}
	want := lobby.Credentials(secret, w.Client, clk.Now().Add(2*time.Hour), nil)
	if w.TURN.Username != want.Username || w.TURN.Password != want.Password || len(w.TURN.URLs) != 1 {
		t.Errorf("TURN credentials %+v, want %+v with one URL", *w.TURN, want)
	}
	if strings.Contains(string(w.Encode()), string(secret)) {
		t.Error("the welcome carries the TURN secret")
	}
	room, err := host.Create(ctx, game, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lobby.ParseCode(room.Code); err != nil || room.Secret == "" || room.Seat != 0 {
		t.Fatalf("room event %+v: want a code, a secret and seat 0", room)
	}

	guest := dial(t, ctx, in.url)
	// A player types the code in lower case without its dash.
	typed := strings.ToLower(strings.ReplaceAll(room.Code, "-", ""))
	joined, err := guest.Join(ctx, typed, game)
	if err != nil {
		t.Fatal(err)
	}
	if joined.Seat != 1 || joined.Code != room.Code || joined.Secret != "" {
		t.Errorf("join event %+v: want seat 1 of %s and no secret", joined, room.Code)
	}
	p := next(t, ctx, host, lobby.TypePeer)
	if p.Peer != guest.Welcome().Client || p.Seat != 1 {
		t.Errorf("the host heard of %+v, want the guest in seat 1", p)
	}
	if err := host.Signal(ctx, p.Peer, "offer: v=0 ..."); err != nil {
		t.Fatal(err)
	}
	s := next(t, ctx, guest, lobby.TypeSignal)
	if s.Peer != w.Client || s.Data != "offer: v=0 ..." {
		t.Errorf("signal %+v, want the host's offer", s)
	}
	if err := guest.Signal(ctx, w.Client, "answer"); err != nil {
		t.Fatal(err)
	}
	if s := next(t, ctx, host, lobby.TypeSignal); s.Data != "answer" {
		t.Errorf("signal %+v, want the answer", s)
	}

	// A third player finds the room full; a stranger cannot signal into it.
	third := dial(t, ctx, in.url)
	if _, err := third.Join(ctx, room.Code, game); reason(err) != lobby.ReasonRoomFull {
		t.Errorf("joining a full room: %v, want room-full", err)
	}
	if err := third.Signal(ctx, w.Client, "hi"); err != nil {
		t.Fatal(err)
	}
	if _, err := third.Next(ctx); reason(err) != lobby.ReasonNotInRoom {
		t.Errorf("a signal from outside the room: %v, want not-in-room", err)
	}
}

func TestQuickMatchAcrossInstancesAndResume(t *testing.T) {
	ns := startNATS(t)
	a := startLobby(t, ns, server.Options{})
	b := startLobby(t, ns, server.Options{})
	ctx := ctxFor(t)

	first := dial(t, ctx, a.url)
	if err := first.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, first, lobby.TypeWaiting)
	// Another game with the same player count never meets it.
	other := dial(t, ctx, b.url)
	if err := other.Quick(ctx, game+"-other-config", 2); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, other, lobby.TypeWaiting)

	// The first client's connection drops; it resumes on instance b.
	w := first.Welcome()
	first.Close()
	again := dial(t, ctx, b.url)
	if err := again.Resume(ctx, w.Client, w.Secret); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, again, lobby.TypeWaiting)

	second := dial(t, ctx, a.url)
	if err := second.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	got := next(t, ctx, second, lobby.TypeRoom)
	host := next(t, ctx, again, lobby.TypeRoom)
	if got.Code != host.Code || host.Seat != 0 || got.Seat != 1 || host.Secret == "" {
		t.Fatalf("paired %+v and %+v: want one room, the first waiting in seat 0 with its secret", host, got)
	}
	if host.Peers[0] != w.Client || host.Peers[1] != second.Welcome().Client {
		t.Errorf("peers %v, want the resumed client then the second", host.Peers)
	}
	// Signals cross instances.
	if err := second.Signal(ctx, w.Client, "offer"); err != nil {
		t.Fatal(err)
	}
	if s := next(t, ctx, again, lobby.TypeSignal); s.Data != "offer" {
		t.Errorf("signal %+v", s)
	}
	// A wrong resume secret is refused.
	thief := dial(t, ctx, a.url)
	if err := thief.Resume(ctx, w.Client, lobby.NewID()); reason(err) != lobby.ReasonForbidden {
		t.Errorf("resuming with a wrong secret: %v, want forbidden", err)
	}
}

func TestReclaimAndExpiry(t *testing.T) {
	ns := startNATS(t)
	clk := newClock()
	in := startLobby(t, ns, server.Options{Now: clk.Now, RoomTTL: time.Hour})
	ctx := ctxFor(t)

	host := dial(t, ctx, in.url)
	room, err := host.Create(ctx, game, 3)
	if err != nil {
		t.Fatal(err)
	}
	guest := dial(t, ctx, in.url)
	if _, err := guest.Join(ctx, room.Code, game+"x"); reason(err) != lobby.ReasonOtherGame {
		t.Errorf("joining with another game: %v, want other-game", err)
	}
	if _, err := guest.Join(ctx, room.Code, game); err != nil {
		t.Fatal(err)
	}
	host.Close() // the host's process restarts

	clk.Add(50 * time.Minute)
	restarted := dial(t, ctx, in.url)
	if _, err := restarted.Reclaim(ctx, room.Code, lobby.NewID(), game); reason(err) != lobby.ReasonForbidden {
		t.Errorf("reclaiming with a wrong secret: %v, want forbidden", err)
	}
	back, err := restarted.Reclaim(ctx, room.Code, room.Secret, game)
	if err != nil {
		t.Fatal(err)
	}
	if back.Seat != 0 || back.Peers[0] != restarted.Welcome().Client || back.Peers[1] != guest.Welcome().Client {
		t.Errorf("reclaimed %+v: want seat 0 and the guest kept", back)
	}
	if p := next(t, ctx, guest, lobby.TypePeer); p.Peer != restarted.Welcome().Client || p.Seat != 0 {
		t.Errorf("the guest heard %+v, want the new host in seat 0", p)
	}
	// Reclaiming renewed the hour: 50 more minutes is still inside it.
	clk.Add(50 * time.Minute)
	late := dial(t, ctx, in.url)
	if _, err := late.Join(ctx, room.Code, game); err != nil {
		t.Errorf("joining within the renewed hour: %v", err)
	}
	clk.Add(11 * time.Minute)
	later := dial(t, ctx, in.url)
	if _, err := later.Join(ctx, room.Code, game); reason(err) != lobby.ReasonRoomUnknown {
		t.Errorf("joining an expired room: %v, want room-unknown", err)
	}
}

func TestGuessesAndCreationsAreRateLimited(t *testing.T) {
	ns := startNATS(t)
	clk := newClock()
	in := startLobby(t, ns, server.Options{Now: clk.Now,
		Guesses:   server.Limit{Burst: 3, Every: 10 * time.Second},
		Creations: server.Limit{Burst: 2, Every: time.Minute}})
	ctx := ctxFor(t)

	owner := dial(t, ctx, in.url)
	room, err := owner.Create(ctx, game, 2)
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, ctx, in.url)
	for i := range 3 {
		if _, err := c.Join(ctx, lobby.NewCode(), game); reason(err) != lobby.ReasonRoomUnknown {
			t.Fatalf("guess %d: %v, want room-unknown", i, err)
		}
	}
	// The fourth guess is refused before the lookup, even for a real code.
	if _, err := c.Join(ctx, room.Code, game); reason(err) != lobby.ReasonRateLimited {
		t.Errorf("a fourth guess: %v, want rate-limited", err)
	}
	clk.Add(10 * time.Second)
	if _, err := c.Join(ctx, room.Code, game); err != nil {
		t.Errorf("after the allowance came back: %v", err)
	}

	// A flood of creations: the first two pass (one was the owner's room).
	flood := dial(t, ctx, in.url)
	if _, err := flood.Create(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := flood.Create(ctx, game, 2); reason(err) != lobby.ReasonRateLimited {
			t.Fatalf("creating past the allowance: %v, want rate-limited", err)
		}
	}
	// The owner's room is untouched by it.
	if err := owner.Signal(ctx, c.Welcome().Client, "still here"); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, owner, lobby.TypePeer)
	if s := next(t, ctx, c, lobby.TypeSignal); s.Data != "still here" {
		t.Errorf("signal %+v", s)
	}
}

// TestUnrecordedResumesAreNotGuesses: the clients an instance died
// before recording resume with ids the lobby never stored, many from one
// address; that spends none of the address's allowance for guesses, which
// a wrong secret does.
func TestUnrecordedResumesAreNotGuesses(t *testing.T) {
	ns := startNATS(t)
	clk := newClock()
	in := startLobby(t, ns, server.Options{Now: clk.Now, Guesses: server.Limit{Burst: 2, Every: time.Hour}})
	ctx := ctxFor(t)

	host := dial(t, ctx, in.url)
	if _, err := host.Create(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	w := host.Welcome()
	c := dial(t, ctx, in.url)
	for i := range 5 {
		if err := c.Resume(ctx, lobby.NewID(), lobby.NewID()); reason(err) != lobby.ReasonForbidden {
			t.Fatalf("resume %d of an unknown id: %v, want forbidden", i, err)
		}
	}
	again := dial(t, ctx, in.url)
	if err := again.Resume(ctx, w.Client, w.Secret); err != nil {
		t.Fatalf("a recorded client's resume after five unknown ids: %v", err)
	}
	for i := range 2 {
		if err := c.Resume(ctx, w.Client, lobby.NewID()); reason(err) != lobby.ReasonForbidden {
			t.Fatalf("wrong secret %d: %v, want forbidden", i, err)
		}
	}
	if err := c.Resume(ctx, w.Client, lobby.NewID()); reason(err) != lobby.ReasonRateLimited {
		t.Errorf("a third wrong secret: %v, want rate-limited", err)
	}
}
