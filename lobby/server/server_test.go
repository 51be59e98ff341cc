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

func startLobby(t testing.TB, ns *natsserver.Server, o server.Options) *instance {
	t.Helper()
	nc, err := server.ConnectEmbedded(ns, "test")
	if err != nil {
		t.Fatal(err)
	}
	o.NATS = nc
	s, err := server.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
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

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

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
