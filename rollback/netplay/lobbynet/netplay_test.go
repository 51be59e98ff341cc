//go:build !js

package lobbynet_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/metronome-go/metronome/lobby/server"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/rollback/netplay/lobbynet"
	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
)

var testID = rollback.Identity{Game: "lobbynet test", Version: "v1", Config: 7}

// meetNetplay has end 0 meet with create (or quick) and end 1 with the
// room code end 0 printed (or quick), through lp.
func meetNetplay(t *testing.T, url string, quick int, ids [2]rollback.Identity) ([]*netplay.Match, []error, []*lines) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), within)
	defer cancel()
	lp := lobbynet.NewNetplay(webrtc.Config{})
	ls := []*lines{newLines(), newLines()}
	ms := make([]*netplay.Match, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	wg.Go(func() { ms[0], errs[0] = meet(ctx, lp, url, "", quick, ids[0], ls[0].add) })
	room := ""
	if quick == 0 {
		select {
		case room = <-ls[0].code:
		case <-ctx.Done():
		}
	}
	wg.Go(func() {
		if ms[1], errs[1] = meet(ctx, lp, url, room, quick, ids[1], ls[1].add); errs[1] != nil {
			cancel() // end 0 waits for a player who will not come
		}
	})
	if room == "" && quick == 0 {
		cancel() // end 0 never showed a code: end it
	}
	wg.Wait()
	for _, m := range ms {
		if m != nil {
			t.Cleanup(func() { m.Close() })
		}
	}
	return ms, errs, ls
}

// meet meets through lp as a player: in room, in quick match of quick
// players, or with neither in a new room of two seats.
func meet(ctx context.Context, lp *lobbynet.Netplay, url, room string, quick int, id rollback.Identity, status func(string)) (*netplay.Match, error) {
	players := 2
	if quick != 0 {
		players = quick
	}
	c, err := lp.Meet(ctx, rollback.Meeting{Role: rollback.Joining, Identity: id,
		Net: rollback.MatchOptions{Lobby: url, Room: room, Quick: quick != 0, Create: room == "" && quick == 0, Players: players}}, status)
	if err != nil {
		return nil, err
	}
	return c.Transport.(*netplay.Match), nil
}

// exchange has each match send the other a message and waits (bounded)
// until each has received it.
func exchange(t *testing.T, ms []*netplay.Match) {
	t.Helper()
	selfs := []int{ms[0].Self(), ms[1].Self()}
	if selfs[0] == selfs[1] {
		t.Fatalf("both ends are peer %d", selfs[0])
	}
	got := []bool{false, false}
	buf := make([]byte, 64)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.Now().Add(within)
	for !got[0] || !got[1] {
		if time.Now().After(deadline) {
			t.Fatalf("messages received %v within %v", got, within)
		}
		for i, m := range ms {
			if err := m.Send(selfs[1-i], []byte(fmt.Sprintf("from %d", selfs[i]))); err != nil {
				t.Fatal(err)
			}
			for {
				n, from, ok := m.Receive(buf)
				if !ok {
					break
				}
				if from != selfs[1-i] {
					continue // a third peer's, from an earlier exchange
				}
				if want := fmt.Sprintf("from %d", selfs[1-i]); string(buf[:n]) != want {
					t.Fatalf("end %d received %q from %d, want %q from %d", i, buf[:n], from, want, selfs[1-i])
				}
				got[i] = true
			}
		}
		<-tick.C
	}
}

// A game's netplay match meets by room code through the lobby: seat 0
// hosts it over the room's channels and the other seat joins with the
// token seat 0 handed it through the lobby; messages flow both ways.
func TestNetplayMeetsByRoomCode(t *testing.T) {
	url := startLobby(t, server.Options{})
	ms, errs, ls := meetNetplay(t, url, 0, [2]rollback.Identity{testID, testID})
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("%v\nhost: %s\nguest: %s", err, ls[0], ls[1])
	}
	if ms[0].Self() != 0 || ms[1].Self() != 1 || ms[0].Players() != 2 {
		t.Fatalf("peers %d and %d of %d players: want 0 and 1 of 2", ms[0].Self(), ms[1].Self(), ms[0].Players())
	}
	for i, l := range ls {
		if !strings.Contains(l.String(), "match started") {
			t.Errorf("end %d's lines %q do not say the match started", i, l)
		}
	}
	exchange(t, ms)
}

// Two ends in quick match for the same game get one netplay match.
func TestNetplayQuickMatch(t *testing.T) {
	url := startLobby(t, server.Options{})
	ms, errs, ls := meetNetplay(t, url, 2, [2]rollback.Identity{testID, testID})
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("%v\n%s\n%s", err, ls[0], ls[1])
	}
	exchange(t, ms)
}

// An end of another configuration is refused by the room, before any
// connection, with the reason a player reads.
func TestNetplayOtherConfigurationRefused(t *testing.T) {
	url := startLobby(t, server.Options{})
	other := testID
	other.Config++
	_, errs, _ := meetNetplay(t, url, 0, [2]rollback.Identity{testID, other})
	var e *lobbynet.Error
	if !errors.As(errs[1], &e) || e.Reason != lobbynet.ReasonOtherGame {
		t.Fatalf("joining another configuration's room: %v, want %q", errs[1], lobbynet.ReasonOtherGame)
	}
}

// Options the match cannot have are refused before the lobby is dialled.
func TestNetplayBadOptions(t *testing.T) {
	lp := lobbynet.NewNetplay(webrtc.Config{})
	for _, c := range []struct {
		url, room string
		role      rollback.Role
		players   int
		want      string
	}{
		{"http://x", "", rollback.Joining, 2, "not a ws:// or wss:// URL"},
		{"ws://127.0.0.1:1", "nope", rollback.Joining, 2, "nope"},
		{"ws://127.0.0.1:1", "", rollback.Joining, 6, "net.players 6: a netplay match holds 2 to 4"},
		{"ws://127.0.0.1:1", "", rollback.Dedicated, 4, "net.players 4: a dedicated host serves up to 3 players"},
	} {
		_, err := lp.Meet(t.Context(), rollback.Meeting{Role: c.role, Identity: testID,
			Net: rollback.MatchOptions{Lobby: c.url, Room: c.room, Create: c.room == "", Quick: c.role == rollback.Dedicated, Players: c.players}}, nil)
		var e *lobbynet.Error
		if !errors.As(err, &e) || e.Reason != lobbynet.ReasonBadOptions || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q naming %q", c, err, lobbynet.ReasonBadOptions, c.want)
		}
	}
}

// A dedicated host (Serve) is handed the room two quick players fill: it
// hosts their netplay match as peer 0 of three with no seat, the players
// join as peers 1 and 2, and messages flow between each player and it.
func TestNetplayDedicatedHostServesAQuickMatch(t *testing.T) {
	url := startLobby(t, server.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), within)
	defer cancel()
	lp := lobbynet.NewNetplay(webrtc.Config{})
	hl := newLines()
	var host *netplay.Match
	var hostErr error
	var wg sync.WaitGroup
	waiting := make(chan struct{})
	wg.Go(func() {
		var c rollback.Connected
		c, hostErr = lp.Meet(ctx, rollback.Meeting{Role: rollback.Dedicated, Identity: testID, Net: rollback.MatchOptions{Lobby: url, Quick: true, Players: 2}}, func(line string) {
			hl.add(line)
			if strings.HasPrefix(line, "dedicated host: waiting") {
				close(waiting)
			}
		})
		if hostErr != nil {
			cancel()
			return
		}
		host = c.Transport.(*netplay.Match)
	})
	select {
	case <-waiting:
	case <-ctx.Done():
		wg.Wait()
		t.Fatalf("the dedicated host never waited: %v\n%s", hostErr, hl)
	}
	ps := make([]*netplay.Match, 2)
	errs := make([]error, 2)
	for i := range ps {
		wg.Go(func() {
			if ps[i], errs[i] = meet(ctx, lp, url, "", 2, testID, nil); errs[i] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	if err := errors.Join(append(errs, hostErr)...); err != nil {
		t.Fatalf("%v\nhost: %s", err, hl)
	}
	for _, m := range append(ps, host) {
		t.Cleanup(func() { m.Close() })
	}
	if host.Self() != 0 || host.Players() != 3 {
		t.Fatalf("the dedicated host is peer %d of %d: want 0 of 3", host.Self(), host.Players())
	}
	for _, p := range ps {
		exchange(t, []*netplay.Match{host, p})
	}
}
