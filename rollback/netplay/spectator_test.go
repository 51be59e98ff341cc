package netplay_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
)

// spectate joins the match hosted by h at addr as a spectator.
func spectate(t *testing.T, addr string, h *netplay.Lobby, opts netplay.Options) (*netplay.Match, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	opts.Spectate = true
	m, err := netplay.Join(ctx, addr, h.Token(), opts, game)
	if err == nil {
		t.Cleanup(func() { m.Close() })
	}
	return m, err
}

// A spectator joins a running match, talks to the host only, and one
// past Options.Spectators is refused with a reason on both sides.
func TestSpectatorsJoinAMatchUnderWay(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			// Joins and messages need no time: the clock never moves.
			opts := netplay.Options{Transport: tr, Networks: networks, Spectators: 1, Clock: newVirtual().clock}
			h, _, host, joiner := hostThroughProxy(t, opts)
			s, err := spectate(t, h.Addr().String(), h, opts)
			if err != nil {
				t.Fatal(err)
			}
			if s.Self() != 2 || !s.Spectator(s.Self()) || s.Players() != 2 {
				t.Fatalf("spectator is peer %d of %d players (spectator %v), want peer 2 of 2", s.Self(), s.Players(), s.Spectator(s.Self()))
			}
			eventually(t, "spectator's joined event", func() bool {
				e, ok := host.Event()
				return ok && e == rollback.PeerEvent{Peer: 2, Kind: rollback.PeerJoined, Spectator: true}
			})
			if st := host.Stats(); st.Spectators != 1 || st.Peers[2] != (netplay.PeerStats{}) {
				t.Errorf("host counts %d spectators and lists peer 2 as %+v; want 1, and no player at peer 2 of 2 players", st.Spectators, st.Peers[2])
			}
			if err := s.Send(1, []byte("to a player")); err == nil {
				t.Error("a spectator sent to a player; want an error naming the host as the only peer")
			}
			if err := host.Send(2, []byte("MK")); err != nil {
				t.Fatal(err)
			}
			if err := s.Send(0, []byte("MA")); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 1200)
			eventually(t, "host's message at the spectator", func() bool {
				n, from, ok := s.Receive(buf)
				return ok && from == 0 && string(buf[:n]) == "MK"
			})
			eventually(t, "spectator's message at the host", func() bool {
				n, from, ok := host.Receive(buf)
				return ok && from == 2 && string(buf[:n]) == "MA"
			})
			if err := joiner.Send(2, []byte("x")); err == nil {
				t.Error("a player sent to a spectator; want an error (a spectator hears the host only)")
			}
			if n, _, ok := joiner.Receive(buf); ok {
				t.Errorf("the player received %q: want nothing from the spectator", buf[:n])
			}

			_, err = spectate(t, h.Addr().String(), h, opts)
			if !errors.Is(err, netplay.ErrRefused) || !strings.Contains(err.Error(), "spectators") {
				t.Fatalf("a second spectator of one allowed: %v, want a refusal naming the spectators", err)
			}
			if got := h.Stats().Refused.Spectators; got != 1 {
				t.Errorf("host counted %d spectator refusals, want 1", got)
			}
		})
	}
}

// A spectator that goes silent is dropped after the timeout: the players
// hear nothing of it, and its peer number is free for the next.
func TestASilentSpectatorIsDropped(t *testing.T) {
	v := newVirtual()
	opts := netplay.Options{Networks: udpOnly, Timeout: 200 * time.Millisecond, Spectators: 1, Clock: v.clock}
	h, _, host, joiner := hostThroughProxy(t, opts)
	p := newProxy(t, h.Addr())
	s, err := spectate(t, p.c.LocalAddr().String(), h, opts)
	if err != nil {
		t.Fatal(err)
	}
	v.ms = []*netplay.Match{host, joiner, s}
	v.udp = p
	v.settle(t)
	v.cut(t, p, true)
	v.until(t, 5*time.Millisecond, 10*time.Second, "the silent spectator's disconnect", func() bool {
		for e, ok := host.Event(); ok; e, ok = host.Event() {
			if !e.Spectator {
				t.Fatalf("host event %+v: want only the spectator's", e)
			}
			if e == (rollback.PeerEvent{Peer: 2, Kind: rollback.PeerDisconnected, Spectator: true}) {
				return true
			}
		}
		return false
	})
	if got := host.Stats().Spectators; got != 0 {
		t.Errorf("host counts %d spectators after the drop, want 0", got)
	}
	s2, err := spectate(t, h.Addr().String(), h, opts)
	if err != nil {
		t.Fatalf("a new spectator after the drop: %v", err)
	}
	if s2.Self() != 2 {
		t.Errorf("new spectator is peer %d, want the freed 2", s2.Self())
	}
	if e, ok := joiner.Event(); ok {
		t.Errorf("the player saw %+v: want nothing of a spectator", e)
	}
	if !host.Stats().Peers[1].Connected {
		t.Error("the player was disturbed: the host no longer hears it")
	}
}
