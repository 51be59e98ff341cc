//go:build !js

package webrtc_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"testing"
	"time"

	"github.com/metronome-go/metronome/internal/toysim"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
)

var game = netplay.Identity{Game: "toy", Version: "1.0", Config: 42}

// within bounds every wait: far longer than a loopback or a virtual
// 150ms link takes, so it fails only when something hangs.
const within = 60 * time.Second

// open hosts a two-player match over WebRTC and joins it, returning the
// host's match first.
func open(t *testing.T, addr string, host, join webrtc.Config) []*netplay.Match {
	t.Helper()
	h, err := netplay.Host(addr, netplay.Options{Transport: webrtc.Name, Networks: []netplay.Network{webrtc.Network(host)}}, game)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	signal := h.Addr().String()
	if host.Net != nil {
		// On a virtual network signalling listens on loopback TCP.
		signal = fmt.Sprintf("127.0.0.1:%d", h.Addr().(*net.UDPAddr).Port)
	}
	ms := make([]*netplay.Match, 2)
	errs := make([]error, 2)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ms[1], errs[1] = netplay.Join(ctx, signal, h.Token(), netplay.Options{Transport: webrtc.Name, Networks: []netplay.Network{webrtc.Network(join)}}, game)
	}()
	ms[0], errs[0] = h.Wait(ctx)
	<-done
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ms[1].Close() })
	return ms
}

const window = 8

// play runs both peers' sessions on the test's goroutine, each ticking
// every pace less its advantage debt (the way the framework paces a
// match), until both have confirmed ticks and compared hashes. It
// returns their sessions and the largest advantage either had from 2 s
// into the match on.
func play(t *testing.T, ms []*netplay.Match, ticks int64, pace time.Duration) ([]*rollback.Session, float64) {
	t.Helper()
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	ss := make([]*rollback.Session, 2)
	for i := range ss {
		s, err := rollback.NewSession(&toysim.Toy{}, rollback.Options{Self: i, Players: players, Actions: 2, Window: window, HashEvery: 5})
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = s
	}
	var msg []byte
	buf := make([]byte, rollback.MaxMessage)
	tick := time.NewTicker(pace / 4)
	defer tick.Stop()
	start := time.Now()
	deadline := start.Add(within)
	due := []time.Time{start, start}
	var worst float64
	for done := false; !done; {
		now := time.Now()
		if now.After(deadline) {
			t.Fatalf("no end within %v: %+v / %+v", within, ss[0].Stats(), ss[1].Stats())
		}
		<-tick.C
		done = true
		for i, s := range ss {
			m := ms[i]
			for k, from, ok := m.Receive(buf); ok; k, from, ok = m.Receive(buf) {
				if err := s.ReceiveFrom(from, buf[:k]); err != nil {
					t.Fatalf("peer %d: message from %d: %v", i, from, err)
				}
			}
			if s.Tick() < ticks && !now.Before(due[i]) {
				toysim.Bot(i, s.Tick()+2, s.Local(i))
				if _, err := s.Advance(); err != nil {
					t.Fatal(err)
				}
				// Repay a tenth of the debt a step: an end ahead slows.
				due[i] = due[i].Add(pace - s.AdvantageDebt(pace)/10)
				if adv := math.Abs(s.Stats().Advantage); now.Sub(start) > 2*time.Second && ss[1-i].Tick() < ticks && adv > worst {
					worst = adv
				}
			}
			msg = s.AppendMessage(msg[:0])
			if err := m.Send(1-i, msg); err != nil {
				t.Fatal(err)
			}
			if st := s.Stats(); st.Confirmed < ticks-window || st.Hashes < uint64(ticks/10) {
				done = false
			}
		}
	}
	for i, s := range ss {
		if st := s.Stats(); st.Desyncs != 0 {
			d, _ := s.Desync()
			t.Errorf("peer %d: %v", i, d)
		}
	}
	return ss, worst
}

// Two peers over WebRTC on loopback play 300 ticks (5 s at 60 Hz) of
// seeded input to the same confirmed hashes. It logs the time from Join
// to the match and the bytes on the wire per second each way.
func TestAMatchOverWebRTC(t *testing.T) {
	begin := time.Now()
	ms := open(t, "127.0.0.1:0", webrtc.Config{}, webrtc.Config{})
	joined := time.Since(begin)
	sent0, recv0 := ms[1].Stats().Sent.Bytes, ms[1].Stats().Received.Bytes
	start := time.Now()
	ss, _ := play(t, ms, 300, time.Second/60)
	secs := time.Since(start).Seconds()
	js := ms[1].Stats()
	t.Logf("host and join to a full match: %v; joiner on the wire (IP, UDP, ICE, DTLS, SCTP included): %.0f B/s up, %.0f B/s down over %.1f s",
		joined.Round(time.Millisecond), float64(js.Sent.Bytes-sent0)/secs, float64(js.Received.Bytes-recv0)/secs, secs)
	for i, m := range ms {
		st := m.Stats()
		if st.Sent.Packets == 0 || st.Received.Packets == 0 {
			t.Errorf("peer %d: sent %d packets, received %d", i, st.Sent.Packets, st.Received.Packets)
		}
		if ss[i].Stats().Hashes == 0 {
			t.Errorf("peer %d compared no hash", i)
		}
	}
}

// Over a virtual link of 150ms ±20ms round trip losing 5% of packets
// each way, a match at 60 ticks a second does not desync and rolls back
// no further than its window.
func TestAMatchOverAnImpairedLink(t *testing.T) {
	n := impaired(t, 5)
	ms := open(t, "1.2.3.4:0", webrtc.Config{Net: n.Host}, webrtc.Config{Net: n.Joiner})
	ss, worst := play(t, ms, 240, time.Second/60)
	for i, s := range ss {
		st := s.Stats()
		t.Logf("peer %d: %d rollbacks, deepest %d ticks, %d hashes compared; advantage at most %.2f from 2 s on", i, st.Rollbacks, st.MaxDepth, st.Hashes, worst)
		if st.MaxDepth > window {
			t.Errorf("peer %d rolled back %d ticks; the window is %d", i, st.MaxDepth, window)
		}
		if st.Rollbacks == 0 {
			t.Errorf("peer %d never rolled back over a 150ms link: was the link impaired?", i)
		}
	}
	// The advantage is logged, not checked: vnet makes jitter by
	// sleeping its router between batches of packets, which queues every
	// packet behind the sleeps, so the link is slower and burstier than
	// its figures and the peers' views of each other lag by more.
}
