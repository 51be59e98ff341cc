package server_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/metronome-go/metronome/lobby"
	"github.com/metronome-go/metronome/lobby/server"
)

// TestASignalToADeadInstanceWaitsForTheResume: the guest's instance dies
// (its NATS connection first, as in a crash) while the host signals it.
// Nobody holds the guest then; the signal is kept and handed over, after
// the room event, when the guest resumes on the host's instance, before a
// signal sent after the resume.
func TestASignalToADeadInstanceWaitsForTheResume(t *testing.T) {
	ns := startNATS(t)
	a := startLobby(t, ns, server.Options{})
	b := startLobby(t, ns, server.Options{})
	ctx := ctxFor(t)

	host := dial(t, ctx, a.url)
	room, err := host.Create(ctx, game, 2)
	if err != nil {
		t.Fatal(err)
	}
	guest := dial(t, ctx, b.url)
	if _, err := guest.Join(ctx, room.Code, game); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, host, lobby.TypePeer)
	w := guest.Welcome()

	b.nc.Close() // the guest's instance dies: nothing it held is cleaned up
	if err := host.Signal(ctx, w.Client, "offer"); err != nil {
		t.Fatal(err)
	}
	// The host's next request is read after the signal was handled: a
	// refusal of this stranger's signal says the offer was dealt with.
	if err := host.Signal(ctx, host.Welcome().Client, "to itself"); err != nil {
		t.Fatal(err)
	}
	if _, err := host.Next(ctx); reason(err) != lobby.ReasonNotInRoom {
		t.Fatalf("a signal to itself: %v, want not-in-room", err)
	}
	b.s.Close()
	b.ts.Close()

	again := dial(t, ctx, a.url)
	if err := again.Resume(ctx, w.Client, w.Secret); err != nil {
		t.Fatal(err)
	}
	if err := host.Signal(ctx, w.Client, "candidate"); err != nil {
		t.Fatal(err)
	}
	if m := next(t, ctx, again, lobby.TypeRoom); m.Code != room.Code {
		t.Errorf("resumed into %s, want %s", m.Code, room.Code)
	}
	for _, want := range []string{"offer", "candidate"} {
		if s := next(t, ctx, again, lobby.TypeSignal); s.Data != want || s.Peer != host.Welcome().Client {
			t.Fatalf("signal %+v, want %q from the host", s, want)
		}
	}
}

// TestALateSignalIsSentOnce: the guest's instance takes a signal after
// the relay gave up waiting and kept it in the mailbox; the guest gets it
// once, not again from the mailbox.
func TestALateSignalIsSentOnce(t *testing.T) {
	ns := startNATS(t)
	kept := make(chan struct{})
	var slowOnce, keptOnce sync.Once
	drained := make(chan struct{}, 8)
	in := startLobby(t, ns, server.Options{}, func(s *server.Server) {
		server.OnSignalPath(s, time.Millisecond,
			func() { slowOnce.Do(func() { <-kept }) }, // the first delivery waits until the signal is kept
			func() { keptOnce.Do(func() { close(kept) }) },
			func() { drained <- struct{}{} })
	})
	ctx := ctxFor(t)
	host := dial(t, ctx, in.url)
	room, err := host.Create(ctx, game, 2)
	if err != nil {
		t.Fatal(err)
	}
	guest := dial(t, ctx, in.url)
	if _, err := guest.Join(ctx, room.Code, game); err != nil {
		t.Fatal(err)
	}
	if err := host.Signal(ctx, guest.Welcome().Client, "offer"); err != nil {
		t.Fatal(err)
	}
	<-drained // the mailbox's copy was handled
	if err := host.Signal(ctx, guest.Welcome().Client, "candidate"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"offer", "candidate"} {
		if s := next(t, ctx, guest, lobby.TypeSignal); s.Data != want {
			t.Fatalf("signal %q, want %q: each once, in order", s.Data, want)
		}
	}
}

// TestASignalWaitsForItsRoomEvent: a resume fails when its room is read,
// so the new connection holds the client's id but knows no room yet; a
// signal that reaches it then is kept, not sent ahead of the room event
// (a client drops a signal from a room it has not heard of), and follows
// the room event of the next resume.
func TestASignalWaitsForItsRoomEvent(t *testing.T) {
	ns := startNATS(t)
	var failNext atomic.Bool
	in := startLobby(t, ns, server.Options{}, func(s *server.Server) {
		server.FailRoomRead(s, func() error {
			if failNext.CompareAndSwap(true, false) {
				return errors.New("the store did not answer")
			}
			return nil
		})
		server.OnSignalPath(s, 50*time.Millisecond, nil, nil, nil)
	})
	ctx := ctxFor(t)

	host := dial(t, ctx, in.url)
	if err := host.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, host, lobby.TypeWaiting)
	guest := dial(t, ctx, in.url)
	if err := guest.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	room := next(t, ctx, guest, lobby.TypeRoom)
	next(t, ctx, host, lobby.TypeRoom)
	w := host.Welcome()
	host.Close()

	failNext.Store(true)
	again := dial(t, ctx, in.url)
	if err := again.Resume(ctx, w.Client, w.Secret); reason(err) != lobby.ReasonUnavailable {
		t.Fatalf("resuming while the store fails: %v, want unavailable", err)
	}
	if err := guest.Signal(ctx, w.Client, "offer"); err != nil {
		t.Fatal(err)
	}
	// A refusal of the next request says the offer was dealt with.
	if err := guest.Signal(ctx, guest.Welcome().Client, "to itself"); err != nil {
		t.Fatal(err)
	}
	if _, err := guest.Next(ctx); reason(err) != lobby.ReasonNotInRoom {
		t.Fatalf("a signal to itself: %v, want not-in-room", err)
	}
	if err := again.Resume(ctx, w.Client, w.Secret); err != nil {
		t.Fatal(err)
	}
	if err := guest.Signal(ctx, w.Client, "candidate"); err != nil {
		t.Fatal(err)
	}
	if m := next(t, ctx, again, lobby.TypeRoom); m.Code != room.Code {
		t.Fatalf("resumed into %s, want %s", m.Code, room.Code)
	}
	for _, want := range []string{"offer", "candidate"} {
		if s := next(t, ctx, again, lobby.TypeSignal); s.Data != want {
			t.Fatalf("signal %q, want %q: after the room event, in order", s.Data, want)
		}
	}
}

// TestTheMailboxWatchOutlivesNewsContext: the context given to New bounds
// opening the instance (cmd/lobby gives it 30 s and cancels it once New
// returns), not the instance's life. The mailbox watch made with it ended
// with it, and a signal kept for a client held here was never handed over.
func TestTheMailboxWatchOutlivesNewsContext(t *testing.T) {
	ns := startNATS(t)
	nc, err := server.ConnectEmbedded(ns, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	s, err := server.New(nctx, server.Options{NATS: nc})
	if err != nil {
		t.Fatal(err)
	}
	ended, drained := make(chan struct{}), make(chan struct{}, 8)
	var endOnce sync.Once
	server.OnWatchEnded(s, func() { endOnce.Do(func() { close(ended) }) })
	var slowOnce sync.Once
	kept := make(chan struct{})
	var keptOnce sync.Once
	server.OnSignalPath(s, time.Millisecond,
		func() { slowOnce.Do(func() { <-kept }) }, // the first delivery waits until the signal is kept
		func() { keptOnce.Do(func() { close(kept) }) },
		func() { drained <- struct{}{} })
	cancel() // as cmd/lobby does once New returns
	ts := httptest.NewServer(s)
	t.Cleanup(func() { s.Close(); ts.Close() }) // after the clients' own
	url := "ws" + strings.TrimPrefix(ts.URL, "http")
	ctx := ctxFor(t)

	host := dial(t, ctx, url)
	room, err := host.Create(ctx, game, 2)
	if err != nil {
		t.Fatal(err)
	}
	guest := dial(t, ctx, url)
	if _, err := guest.Join(ctx, room.Code, game); err != nil {
		t.Fatal(err)
	}
	if err := host.Signal(ctx, guest.Welcome().Client, "offer"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-drained: // the watch handed the kept copy over
	case <-ended:
		t.Fatal("the mailbox watch ended with the context New was given")
	}
}
