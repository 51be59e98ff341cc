package server_test

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/metronome-go/metronome/lobby"
	"github.com/metronome-go/metronome/lobby/server"
)

// pause returns a hook that stops its first caller until release is
// closed, and closes reached when it does; later callers pass.
func pause() (hook func(), reached, release chan struct{}) {
	reached, release = make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	return func() {
		if first.CompareAndSwap(false, true) {
			close(reached)
			<-release
		}
	}, reached, release
}

// TestAPairingInFlightIsNotUndone: the waiting client's queue check runs
// while another client is pairing with it (its entry taken, its room not
// yet told). The check must not queue it again: a third client would be
// paired with a client that is already in a room, and never hear from it.
func TestAPairingInFlightIsNotUndone(t *testing.T) {
	ns := startNATS(t)
	hook, reached, release := pause()
	in := startLobby(t, ns, server.Options{}, func(s *server.Server) { server.OnPaired(s, hook) })
	ctx := ctxFor(t)

	waiter := dial(t, ctx, in.url)
	if err := waiter.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, waiter, lobby.TypeWaiting)
	pairer := dial(t, ctx, in.url)
	if err := pairer.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	<-reached
	server.RefreshQueues(in.s)
	third := dial(t, ctx, in.url)
	if err := third.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	if m, err := third.Next(ctx); err != nil || m.Type != lobby.TypeWaiting {
		t.Errorf("a third client got %+v (%v), want waiting: the waiter was queued again while being paired", m, err)
	}
	close(release)
	room := next(t, ctx, pairer, lobby.TypeRoom)
	if m, err := waiter.Next(ctx); err != nil || m.Type != lobby.TypeRoom || m.Code != room.Code {
		t.Errorf("the waiter got %+v (%v), want room %s", m, err, room.Code)
	}
}

// TestAResumedPlaceOutlivesTheOldConnection: a waiting client's connection
// drops and it resumes on another instance before the old instance has
// cleaned the old connection up (a loaded machine). The late cleanup must
// leave the resumed client's place in the queue alone.
func TestAResumedPlaceOutlivesTheOldConnection(t *testing.T) {
	ns := startNATS(t)
	reached, release, cleaned := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var once sync.Once
	a := startLobby(t, ns, server.Options{}, func(s *server.Server) {
		server.OnCleanup(s, func(after bool) {
			once.Do(func() { close(reached); <-release })
			if after {
				close(cleaned)
			}
		})
	})
	b := startLobby(t, ns, server.Options{})
	ctx := ctxFor(t)

	first := dial(t, ctx, a.url)
	if err := first.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, first, lobby.TypeWaiting)
	w := first.Welcome()
	first.Close()
	<-reached
	again := dial(t, ctx, b.url)
	if err := again.Resume(ctx, w.Client, w.Secret); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, again, lobby.TypeWaiting)
	close(release)
	<-cleaned

	second := dial(t, ctx, b.url)
	if err := second.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	if m, err := second.Next(ctx); err != nil || m.Type != lobby.TypeRoom {
		t.Fatalf("the second client got %+v (%v), want a room with the resumed one", m, err)
	}
	if m := next(t, ctx, again, lobby.TypeRoom); m.Peers[0] != w.Client {
		t.Errorf("room %+v: want the resumed client in seat 0", m)
	}
}

// TestRequestsThatArriveTogetherPairInOneCommit: quick-match requests that
// reach an instance while its last round is storing are paired among
// themselves and with the queue in the next round's one commit, not one
// compare-and-set each on the queue's record (where the instances of a
// cluster took turns failing).
func TestRequestsThatArriveTogetherPairInOneCommit(t *testing.T) {
	ns := startNATS(t)
	hold, reached, release := pause()
	queued := make(chan struct{}, 16)
	in := startLobby(t, ns, server.Options{}, func(s *server.Server) {
		server.OnRound(s, hold)
		server.OnQueued(s, func() { queued <- struct{}{} })
	})
	ctx := ctxFor(t)

	cs := make([]*lobby.Client, 9)
	for i := range cs {
		cs[i] = dial(t, ctx, in.url)
	}
	if err := cs[0].Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	<-reached
	<-queued
	for _, c := range cs[1:] {
		if err := c.Quick(ctx, game, 2); err != nil {
			t.Fatal(err)
		}
		<-queued
	}
	before := server.Commits(in.s)
	close(release)
	next(t, ctx, cs[0], lobby.TypeWaiting)
	rooms := map[string]int{}
	for _, c := range cs[1:8] {
		rooms[next(t, ctx, c, lobby.TypeRoom).Code]++
	}
	next(t, ctx, cs[8], lobby.TypeWaiting)
	rooms[next(t, ctx, cs[0], lobby.TypeRoom).Code]++
	if len(rooms) != 4 {
		t.Errorf("rooms %v: want four rooms of two", rooms)
	}
	for code, n := range rooms {
		if n != 2 {
			t.Errorf("room %s has %d clients, want 2", code, n)
		}
	}
	if got := server.Commits(in.s) - before; got != 2 {
		t.Errorf("%d commits for the two rounds, want 2 (the first client's, then the eight's)", got)
	}
}

// TestAGivenUpIDIsNotPaired: a client's connection drops while its first
// quick match is being stored; it reconnects, finds no record to resume
// and starts afresh under a new id. The late commit must not queue the old
// id, which nobody answers to any more: a client paired with it would wait
// for ever.
func TestAGivenUpIDIsNotPaired(t *testing.T) {
	ns := startNATS(t)
	hold, reached, release := pause()
	in := startLobby(t, ns, server.Options{}, func(s *server.Server) { server.OnRound(s, hold) })
	ctx := ctxFor(t)

	old := dial(t, ctx, in.url)
	if err := old.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	<-reached
	w := old.Welcome()
	again := dial(t, ctx, in.url)
	if err := again.Resume(ctx, w.Client, w.Secret); reason(err) != lobby.ReasonForbidden {
		t.Fatalf("resuming a client with no record: %v, want forbidden", err)
	}
	close(release)
	if m, err := old.Next(ctx); reason(err) != lobby.ReasonForbidden {
		t.Errorf("the old connection's quick match: %+v (%v), want forbidden", m, err)
	}
	other := dial(t, ctx, in.url)
	if err := other.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	if m, err := other.Next(ctx); err != nil || m.Type != lobby.TypeWaiting {
		t.Errorf("another client got %+v (%v), want waiting: it was paired with the given-up id", m, err)
	}
}

// TestAResumeIsWelcomedOnlyIntoItsRoom: a paired client reconnects and
// the store fails to read its room. Welcomed all the same, the client
// would take itself for back in its room while its connection knows of
// none, and its signals would be refused. It must get the failure instead,
// try again, and be back in its room.
func TestAResumeIsWelcomedOnlyIntoItsRoom(t *testing.T) {
	ns := startNATS(t)
	var failNext atomic.Bool
	in := startLobby(t, ns, server.Options{}, func(s *server.Server) {
		server.FailRoomRead(s, func() error {
			if failNext.CompareAndSwap(true, false) {
				return errors.New("the store did not answer")
			}
			return nil
		})
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
	if err := again.Resume(ctx, w.Client, w.Secret); err != nil {
		t.Fatal(err)
	}
	if m := next(t, ctx, again, lobby.TypeRoom); m.Code != room.Code {
		t.Errorf("resumed into %s, want %s", m.Code, room.Code)
	}
	if err := again.Signal(ctx, guest.Welcome().Client, "offer"); err != nil {
		t.Fatal(err)
	}
	if s := next(t, ctx, guest, lobby.TypeSignal); s.Data != "offer" {
		t.Errorf("signal %+v, want the offer", s)
	}
}

// TestAResumeHearsWhatCameBeforeItsWelcome: a waiting client's instance
// dies (its entry stays in the queue) and the client resumes on another.
// Between the resume's subscription and its welcome, a second client
// pairs with the entry and signals the resumed client. The room event and
// the signal must follow the welcome: the client reads everything before
// the welcome as its old connection's and drops it, and would never hear
// its peer.
func TestAResumeHearsWhatCameBeforeItsWelcome(t *testing.T) {
	ns := startNATS(t)
	dead, deadRelease := make(chan struct{}), make(chan struct{})
	var once sync.Once
	a := startLobby(t, ns, server.Options{}, func(s *server.Server) {
		// The old connection's cleanup never leaves the queue while the
		// test runs: as if its instance had died.
		server.OnCleanup(s, func(after bool) {
			if !after {
				once.Do(func() { close(dead); <-deadRelease })
			}
		})
	})
	defer close(deadRelease)
	hold, reached, release := pause()
	b := startLobby(t, ns, server.Options{}, func(s *server.Server) {
		server.OnResume(s, hold)
		// A signal nobody takes goes to the mailbox at once, not after
		// the default two seconds.
		server.OnSignalPath(s, 50*time.Millisecond, nil, nil, nil)
	})
	ctx := ctxFor(t)

	first := dial(t, ctx, a.url)
	if err := first.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, first, lobby.TypeWaiting)
	w := first.Welcome()
	first.Close()
	<-dead

	again := dial(t, ctx, b.url)
	resumed := make(chan error, 1)
	go func() { resumed <- again.Resume(ctx, w.Client, w.Secret) }()
	<-reached
	second := dial(t, ctx, b.url)
	if err := second.Quick(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	if m := next(t, ctx, second, lobby.TypeRoom); m.Peers[0] != w.Client {
		t.Fatalf("room %+v: want the resuming client in seat 0", m)
	}
	if err := second.Signal(ctx, w.Client, "offer"); err != nil {
		t.Fatal(err)
	}
	// A request after the signal is answered once the signal is relayed
	// (a connection's requests are handled in order): to the resuming
	// connection, or into the mailbox.
	if err := second.Signal(ctx, second.Welcome().Client, "to itself"); err != nil {
		t.Fatal(err)
	}
	if _, err := second.Next(ctx); reason(err) != lobby.ReasonNotInRoom {
		t.Fatalf("a signal to itself: %v, want not-in-room", err)
	}
	close(release)
	if err := <-resumed; err != nil {
		t.Fatal(err)
	}
	if err := second.Signal(ctx, w.Client, "after"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		m, err := again.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m.Type+" "+m.Data)
		if m.Data == "after" {
			break
		}
	}
	if !slices.Contains(got, "room ") || !slices.Contains(got, "signal offer") || slices.Index(got, "room ") > slices.Index(got, "signal offer") {
		t.Errorf("after the welcome the resumed client read %q: want its room, then the offer, then the later signal", got)
	}
}
