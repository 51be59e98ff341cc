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

	"github.com/metronome-go/metronome/internal/lobbytest"
	"github.com/metronome-go/metronome/internal/toysim"
	"github.com/metronome-go/metronome/lobby/server"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay/lobbynet"
)

// within bounds every wait: far longer than loopback takes, so it fails
// only when something hangs.
const within = 60 * time.Second

const game = "metronome-test/lobbynet@v1"

// startLobby runs a lobby with the options o on loopback and returns its
// ws:// URL.
func startLobby(t testing.TB, o server.Options) string { return lobbytest.Start(t, o) }

// lines collects one end's status lines.
type lines struct {
	mu   sync.Mutex
	l    []string
	code chan string
}

func newLines() *lines { return &lines{code: make(chan string, 1)} }

func (l *lines) add(s string) {
	l.mu.Lock()
	l.l = append(l.l, s)
	l.mu.Unlock()
	if code, ok := strings.CutPrefix(s, "room "); ok && strings.Contains(s, "give this code") {
		l.code <- code[:7]
	}
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.l, " | ")
}

// meetByCode has one end create a room and the other join it by the
// code the first one printed.
func meetByCode(t *testing.T, url string, cfg func(seat int) lobbynet.Options) ([]*lobbynet.Match, []*lines) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	ls := []*lines{newLines(), newLines()}
	ms := make([]*lobbynet.Match, 2)
	errs := make([]error, 2)
	done := make(chan struct{})
	go func() {
		defer close(done)
		o := cfg(0)
		o.Lobby, o.Game, o.Create, o.Players, o.Status = url, game, true, 2, ls[0].add
		ms[0], errs[0] = lobbynet.Meet(ctx, o)
	}()
	select {
	case code := <-ls[0].code:
		o := cfg(1)
		o.Lobby, o.Game, o.Room, o.Status = url, game, code, ls[1].add
		ms[1], errs[1] = lobbynet.Meet(ctx, o)
	case <-done:
	}
	<-done
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("%v\nhost: %s\nguest: %s", err, ls[0], ls[1])
	}
	for _, m := range ms {
		t.Cleanup(func() { m.Close() })
	}
	return ms, ls
}

// Two ends meet by room code through a lobby on embedded NATS, connect
// over WebRTC with nothing listening, and play 240 ticks of seeded input
// to the same confirmed hashes.
func TestMeetByRoomCodeAndPlay(t *testing.T) {
	url := startLobby(t, server.Options{})
	ms, ls := meetByCode(t, url, func(int) lobbynet.Options { return lobbynet.Options{} })
	if ms[0].Seat != 0 || ms[1].Seat != 1 || ms[0].Code != ms[1].Code {
		t.Fatalf("seats %d and %d in rooms %s and %s: want 0 and 1 in one room", ms[0].Seat, ms[1].Seat, ms[0].Code, ms[1].Code)
	}
	for i, l := range ls {
		s := l.String()
		for _, want := range []string{"found 2 players, connecting", "connected to seat " + fmt.Sprint(1-i) + " (direct, round trip "} {
			if !strings.Contains(s, want) {
				t.Errorf("end %d's lines %q lack %q", i, s, want)
			}
		}
	}
	play(t, ms, 240)
}

// Two ends in quick match for the same game are paired and connect.
func TestQuickMatchPairs(t *testing.T) {
	url := startLobby(t, server.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	ms := make([]*lobbynet.Match, 2)
	errs := make([]error, 2)
	ls := []*lines{newLines(), newLines()}
	var wg sync.WaitGroup
	for i := range ms {
		wg.Go(func() {
			ms[i], errs[i] = lobbynet.Meet(ctx, lobbynet.Options{Lobby: url, Game: game, Quick: 2, Status: ls[i].add})
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		defer m.Close()
		if !strings.Contains(ls[i].String(), "quick match: waiting") {
			t.Errorf("end %d's lines %q do not say it waited", i, ls[i])
		}
	}
	if ms[0].Code != ms[1].Code || ms[0].Seat == ms[1].Seat {
		t.Fatalf("paired into %s seat %d and %s seat %d: want one room, two seats", ms[0].Code, ms[0].Seat, ms[1].Code, ms[1].Seat)
	}
	play(t, ms, 60)
}

// Each way of not meeting comes back with its reason.
func TestMeetFailsWithItsReason(t *testing.T) {
	url := startLobby(t, server.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	reason := func(err error) lobbynet.Reason {
		var e *lobbynet.Error
		if errors.As(err, &e) {
			return e.Reason
		}
		return ""
	}
	if _, err := lobbynet.Meet(ctx, lobbynet.Options{Lobby: url, Game: game, Room: "KXR-4TQ"}); reason(err) != lobbynet.ReasonRoomUnknown {
		t.Errorf("an unknown room: %v, want %q", err, lobbynet.ReasonRoomUnknown)
	}
	if _, err := lobbynet.Meet(ctx, lobbynet.Options{Lobby: "ws://127.0.0.1:1", Game: game, Quick: 2}); reason(err) != lobbynet.ReasonUnreachable {
		t.Errorf("no lobby: %v, want %q", err, lobbynet.ReasonUnreachable)
	}
	if _, err := lobbynet.Meet(ctx, lobbynet.Options{Lobby: url, Game: game, Create: true, Quick: 2}); reason(err) != lobbynet.ReasonBadOptions || !strings.Contains(err.Error(), "exactly one of") {
		t.Errorf("create and quick at once: %v, want %q naming the choice", err, lobbynet.ReasonBadOptions)
	}

	// A room for another game, and a full one.
	l := newLines()
	hostErr := make(chan error, 1)
	hctx, hcancel := context.WithCancel(ctx)
	defer hcancel()
	go func() {
		_, err := lobbynet.Meet(hctx, lobbynet.Options{Lobby: url, Game: game, Create: true, Players: 2, Status: l.add})
		hostErr <- err
	}()
	code := <-l.code
	if _, err := lobbynet.Meet(ctx, lobbynet.Options{Lobby: url, Game: game + "-other-config", Room: code}); reason(err) != lobbynet.ReasonOtherGame {
		t.Errorf("another game's room: %v, want %q", err, lobbynet.ReasonOtherGame)
	}
	hcancel()
	<-hostErr
}

const window = 8

// play runs both ends' sessions over their conduits, seat i as player i,
// every 4 ms of wall time (bounded by within), until both confirmed
// ticks and compared hashes with no desync.
func play(t *testing.T, ms []*lobbynet.Match, ticks int64) uint64 {
	t.Helper()
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	ss := make([]*rollback.Session, 2)
	toys := make([]*toysim.Toy, 2)
	rx := make([]chan []byte, 2)
	for i, m := range ms {
		toys[i] = &toysim.Toy{}
		s, err := rollback.NewSession(toys[i], rollback.Options{Self: m.Seat, Players: players, Actions: 2, Window: window, HashEvery: 5})
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = s
		rx[i] = make(chan []byte, 256)
		go func() {
			buf := make([]byte, rollback.MaxMessage)
			for {
				n, _, err := m.ReadFrom(buf)
				if err != nil {
					if errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "closed") {
						return
					}
					continue
				}
				select {
				case rx[i] <- append([]byte(nil), buf[:n]...):
				default:
				}
			}
		}()
	}
	var msg []byte
	tick := time.NewTicker(4 * time.Millisecond)
	defer tick.Stop()
	deadline := time.Now().Add(within)
	for done := false; !done; {
		if time.Now().After(deadline) {
			t.Fatalf("no end within %v: %+v / %+v", within, ss[0].Stats(), ss[1].Stats())
		}
		<-tick.C
		done = true
		for i, s := range ss {
			m := ms[i]
			other := 1 - m.Seat
			for more := true; more; {
				select {
				case b := <-rx[i]:
					if err := s.ReceiveFrom(other, b); err != nil {
						t.Fatalf("end %d: %v", i, err)
					}
				default:
					more = false
				}
			}
			if s.Tick() < ticks+window && s.Tick()-s.Stats().Confirmed < window-2 {
				toysim.Bot(m.Seat, s.Tick()+2, s.Local(m.Seat))
				if _, err := s.Advance(); err != nil {
					t.Fatal(err)
				}
			}
			msg = s.AppendMessage(msg[:0])
			if err := m.WriteTo(msg, m.Peers[other]); err != nil {
				t.Fatal(err)
			}
			if st := s.Stats(); s.Tick() < ticks+window || st.Hashes < uint64(ticks/10) {
				done = false
			}
		}
	}
	for i, s := range ss {
		if st := s.Stats(); st.Desyncs != 0 {
			d, _ := s.Desync()
			t.Errorf("end %d: %v", i, d)
		}
	}
	// Both ends advanced past ticks with tick ticks confirmed (an end
	// advances at most window-2 ticks past its confirmed one), so the
	// save of tick ticks holds the confirmed state, resimulated if need be.
	var hs [2]uint64
	for i, ty := range toys {
		h, ok := ty.HashAt(ticks)
		if !ok {
			t.Fatalf("end %d kept no save of tick %d (its tick is %d)", i, ticks, ss[i].Tick())
		}
		hs[i] = h
	}
	h := hs[0]
	if hs[1] != h {
		t.Errorf("confirmed hashes %x and %x differ", h, hs[1])
	}
	t.Logf("tick %d confirmed on both ends at hash %x, %d hashes compared, no desync", ticks, h, ss[0].Stats().Hashes)
	return h
}
