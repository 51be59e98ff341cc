//go:build !js

package lobbynet_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/lobby/server"
	"github.com/metronome-go/metronome/rollback/netplay/lobbynet"
	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
)

func reasonOf(err error) lobbynet.Reason {
	var e *lobbynet.Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// A third player entering a room of two whose seats are taken is told
// the room is full.
func TestMeetRoomFull(t *testing.T) {
	url := startLobby(t, server.Options{})
	ms, _ := meetByCode(t, url, func(int) lobbynet.Options { return lobbynet.Options{} })
	ctx, cancel := context.WithTimeout(t.Context(), within)
	defer cancel()
	_, err := lobbynet.Meet(ctx, lobbynet.Options{Lobby: url, Game: game, Room: ms[0].Code})
	if reasonOf(err) != lobbynet.ReasonRoomFull || !strings.Contains(err.Error(), "room full") {
		t.Fatalf("a third player in a room of two: %v, want %q", err, lobbynet.ReasonRoomFull)
	}
}

// Two ends that met but whose every path fails (relaying forced through
// a TURN server that does not answer) are told no path opened, not even
// through the relay, once their handshake's bound passes.
func TestMeetNoPath(t *testing.T) {
	url := startLobby(t, server.Options{})
	cfg := webrtc.Config{Relay: true, Timeout: 2 * time.Second,
		TURN: []webrtc.TURN{{URL: "turn:127.0.0.1:9", Username: "nobody", Credential: "nothing"}}}
	ctx, cancel := context.WithTimeout(t.Context(), within)
	defer cancel()
	l := newLines()
	errc := make(chan error, 1)
	go func() {
		_, err := lobbynet.Meet(ctx, lobbynet.Options{Lobby: url, Game: game, Create: true, Players: 2, Config: cfg, Status: l.add})
		errc <- err
	}()
	var code string
	select {
	case code = <-l.code:
	case err := <-errc:
		t.Fatalf("the creator failed before showing a code: %v", err)
	}
	_, err := lobbynet.Meet(ctx, lobbynet.Options{Lobby: url, Game: game, Room: code, Config: cfg})
	for i, err := range []error{err, <-errc} {
		if reasonOf(err) != lobbynet.ReasonNoPath || !strings.Contains(err.Error(), "no path to a peer, even through the relay") {
			t.Errorf("end %d with no path: %v, want %q", i, err, lobbynet.ReasonNoPath)
		}
	}
}
