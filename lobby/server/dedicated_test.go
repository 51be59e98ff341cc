package server_test

import (
	"slices"

	"testing"

	"github.com/metronome-go/metronome/lobby"
	"github.com/metronome-go/metronome/lobby/server"
)

// A dedicated host registered for a game's quick matches of two is
// handed the next such room to fill, as seat 0 with the room's secret,
// and the two quick players take seats 1 and 2 of three; a quick match
// of another game or size does not take it, and with no dedicated host
// the quick players are paired as before.
func TestDedicatedHostIsHandedAFullQuickMatch(t *testing.T) {
	ns := startNATS(t)
	in := startLobby(t, ns, server.Options{})
	ctx := ctxFor(t)
	host := dial(t, ctx, in.url)
	if err := host.Dedicated(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, host, lobby.TypeWaiting)

	// Another game's quick match of two and this game's of three pair
	// among themselves (or wait), without the dedicated host.
	other := pair(t, in.url, game+"-other")
	if r := next(t, ctx, other[1], lobby.TypeRoom); r.Players != 2 || r.Peers[0] != other[0].Welcome().Client {
		t.Fatalf("another game's quick match: %+v, want a room of 2 without the dedicated host", r)
	}

	players := pair(t, in.url, game)
	hr := next(t, ctx, host, lobby.TypeRoom)
	if hr.Seat != 0 || hr.Secret == "" || hr.Players != 3 || len(hr.Peers) != 3 || hr.Peers[0] != host.Welcome().Client {
		t.Fatalf("the dedicated host's room: %+v, want seat 0 of 3 with the secret", hr)
	}
	for i, c := range players {
		r := next(t, ctx, c, lobby.TypeRoom)
		if r.Code != hr.Code || r.Seat != i+1 || r.Players != 3 || r.Secret != "" {
			t.Errorf("player %d's room: %+v, want seat %d of room %s's 3, no secret", i, r, i+1, hr.Code)
		}
	}
	// Seats 1 and 2 reach the host through the room.
	if err := players[0].Signal(ctx, host.Welcome().Client, "hello"); err != nil {
		t.Fatal(err)
	}
	if m := next(t, ctx, host, lobby.TypeSignal); m.Data != "hello" || m.Peer != players[0].Welcome().Client {
		t.Errorf("the host got %+v, want seat 1's signal", m)
	}

	// The host was taken: two more quick players pair by themselves.
	more := pair(t, in.url, game)
	if r := next(t, ctx, more[1], lobby.TypeRoom); r.Players != 2 || r.Seat != 1 {
		t.Errorf("with no dedicated host left: %+v, want seat 1 of a room of 2", r)
	}
}

// pair has two clients enter g's quick match of two, the second once
// the first waits, and returns them; the room events are the caller's
// to read.
func pair(t *testing.T, url, g string) []*lobby.Client {
	t.Helper()
	ctx := ctxFor(t)
	cs := []*lobby.Client{dial(t, ctx, url), dial(t, ctx, url)}
	if err := cs[0].Quick(ctx, g, 2); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, cs[0], lobby.TypeWaiting)
	if err := cs[1].Quick(ctx, g, 2); err != nil {
		t.Fatal(err)
	}
	return cs
}

// Two instances' rounds form two groups of one game's quick match at
// once while one dedicated host waits: the host is taken by one round
// only (its queue and record are in that round's commit), so exactly one
// room has it as seat 0 and the other pairs its two players alone.
func TestADedicatedHostIsHandedOneRoomAcrossInstances(t *testing.T) {
	ns := startNATS(t)
	a := startLobby(t, ns, server.Options{})
	b := startLobby(t, ns, server.Options{})
	ctx := ctxFor(t)
	host := dial(t, ctx, a.url)
	if err := host.Dedicated(ctx, game, 2); err != nil {
		t.Fatal(err)
	}
	next(t, ctx, host, lobby.TypeWaiting)
	players := []*lobby.Client{dial(t, ctx, a.url), dial(t, ctx, a.url), dial(t, ctx, b.url), dial(t, ctx, b.url)}
	for _, c := range players {
		if err := c.Quick(ctx, game, 2); err != nil {
			t.Fatal(err)
		}
	}
	rooms := map[string]lobby.Message{}
	for i, c := range players {
		for {
			m, err := c.Next(ctx)
			if err != nil {
				t.Fatalf("player %d: %v", i, err)
			}
			if m.Type == lobby.TypeRoom {
				rooms[m.Code] = m
				break
			}
			if m.Type != lobby.TypeWaiting {
				t.Fatalf("player %d got %+v, want waiting or room", i, m)
			}
		}
	}
	withHost := 0
	for code, m := range rooms {
		switch {
		case m.Players == 3 && m.Peers[0] == host.Welcome().Client:
			withHost++
		case m.Players == 2 && !slices.Contains(m.Peers, host.Welcome().Client):
		default:
			t.Errorf("room %s: %+v, want 3 seats with the host at 0 or 2 without it", code, m)
		}
	}
	if len(rooms) != 2 || withHost != 1 {
		t.Errorf("%d rooms, %d with the dedicated host; want 2 rooms, 1 with it", len(rooms), withHost)
	}
	hr := next(t, ctx, host, lobby.TypeRoom)
	if rooms[hr.Code].Players != 3 || hr.Seat != 0 {
		t.Errorf("the host's room %+v, want the players' room of 3, seat 0", hr)
	}
}
