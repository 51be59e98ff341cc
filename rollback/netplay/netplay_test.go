package netplay_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/metronome-go/metronome/internal/toysim"
	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/rollback/netplay/quicnet"
	"github.com/metronome-go/metronome/timing"
)

var transports = []string{netplay.UDP, netplay.QUIC}

// networks links both transports the tests run over.
var networks = []netplay.Network{netplay.UDPNetwork(), quicnet.Network()}

// udpOnly is what a program that plays over plain UDP lists.
var udpOnly = []netplay.Network{netplay.UDPNetwork()}

var game = rollback.Identity{Game: "toy", Version: "1.0", Config: 42, Settings: []rollback.Setting{{Key: "game.ship_speed", Value: "260"}, {Key: "net.delay", Value: "2"}}}

// within is how long any test waits for anything: far longer than any
// loopback exchange takes, so it fails only when something hangs.
const within = 20 * time.Second

// open hosts a match of n players and joins it n-1 times, all on
// loopback; it returns the host's match first.
func open(t testing.TB, transport string, n int, opts netplay.Options) []*netplay.Match {
	t.Helper()
	opts.Transport, opts.Players, opts.Networks = transport, n, networks
	h, err := netplay.Host("127.0.0.1:0", opts, game)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	ms := make([]*netplay.Match, n)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := 1; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ms[i], errs[i] = netplay.Join(ctx, h.Addr().String(), h.Token(), opts, game)
		}()
	}
	ms[0], errs[0] = h.Wait(ctx)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[1:] {
		t.Cleanup(func() { m.Close() })
	}
	// Joiners take the slots in any order: index by peer number.
	byPeer := make([]*netplay.Match, n)
	for _, m := range ms {
		if m.Players() != n {
			t.Fatalf("a match of %d players, want %d", m.Players(), n)
		}
		if byPeer[m.Self()] != nil {
			t.Fatalf("two ends are peer %d", m.Self())
		}
		byPeer[m.Self()] = m
	}
	return byPeer
}

// play runs a rollback session on every match, all on the test's
// goroutine, for ticks ticks, exchanging their messages over the
// matches, and checks that their confirmed hashes agree.
func play(t *testing.T, ms []*netplay.Match, ticks int64) {
	t.Helper()
	n := len(ms)
	players := make([]rollback.Player, n)
	for i := range players {
		players[i] = rollback.Player{Peer: i, Delay: 2}
	}
	ss := make([]*rollback.Session, n)
	for i := range ss {
		s, err := rollback.NewSession(&toysim.Toy{}, rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 5})
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = s
	}
	var msg []byte
	buf := make([]byte, rollback.MaxMessage)
	pace := time.NewTicker(time.Millisecond)
	defer pace.Stop()
	deadline := time.Now().Add(within)
	for done := false; !done; {
		if time.Now().After(deadline) {
			t.Fatalf("no end within %v: ticks %v", within, ticksOf(ss))
		}
		<-pace.C
		done = true
		for i, s := range ss {
			m := ms[i]
			for {
				k, from, ok := m.Receive(buf)
				if !ok {
					break
				}
				if err := s.ReceiveFrom(from, buf[:k]); err != nil {
					t.Fatalf("peer %d: message from %d: %v", i, from, err)
				}
			}
			if s.Tick() < ticks {
				toysim.Bot(i, s.Tick()+2, s.Local(i))
				if _, err := s.Advance(); err != nil {
					t.Fatal(err)
				}
			}
			msg = s.AppendMessage(msg[:0])
			for j := range n {
				if j != i {
					if err := m.Send(j, msg); err != nil {
						t.Fatal(err)
					}
				}
			}
			if st := s.Stats(); st.Confirmed < ticks-10 || st.Hashes < uint64(ticks/10) {
				done = false
			}
		}
	}
	for i, s := range ss {
		st := s.Stats()
		if st.Desyncs != 0 {
			d, _ := s.Desync()
			t.Errorf("peer %d: %v", i, d)
		}
		if st.Hashes == 0 {
			t.Errorf("peer %d compared no hash", i)
		}
	}
}

func ticksOf(ss []*rollback.Session) []string {
	var out []string
	for _, s := range ss {
		st := s.Stats()
		out = append(out, fmt.Sprintf("tick %d confirmed %d hashes %d", st.Tick, st.Confirmed, st.Hashes))
	}
	return out
}

func TestPeersPlayToTheSameHashes(t *testing.T) {
	for _, tr := range transports {
		for _, n := range []int{2, 3} {
			t.Run(fmt.Sprintf("%s/%d", tr, n), func(t *testing.T) {
				// The sessions move on the test's loop; the matches need no
				// time: their clock never moves.
				ms := open(t, tr, n, netplay.Options{Networks: udpOnly, Clock: newVirtual().clock})
				play(t, ms, 300)
				for _, m := range ms {
					st := m.Stats()
					if st.Sent.Packets == 0 || st.Received.Packets == 0 {
						t.Errorf("peer %d: sent %d packets, received %d", m.Self(), st.Sent.Packets, st.Received.Packets)
					}
					if d := st.Dropped; d != (netplay.Drops{}) {
						t.Errorf("peer %d dropped packets on a clean loopback: %+v", m.Self(), d)
					}
				}
			})
		}
	}
}

// virtual is virtual time for a test's matches (their Options.Clock): a
// manual clock that moves only when the test steps it. The test's pin,
// the clock's first waiter, runs except while step waits on it, so
// nothing else moves the clock and the matches' waits end only at a
// step (or a wake: a packet, Close).
type virtual struct {
	clock *timing.ManualClock
	pin   timing.Waiter
	ms    []*netplay.Match // the matches whose packets settle counts
	// lost counts the packets sent while a link was cut (cut), and
	// cutAt the packets sent before the cut in force, if any.
	lost, cutAt uint64
	cutting     bool
	// udp, when set, is the one proxy a UDP test cuts: each datagram it
	// drops is one of the matches' packets, so settle counts exactly
	// what is lost, however much else the matches send meanwhile.
	udp *proxy
}

// lostNow is how many of the matches' packets were lost at a cut link.
func (v *virtual) lostNow() uint64 {
	if v.udp != nil {
		v.udp.mu.Lock()
		defer v.udp.mu.Unlock()
		return v.udp.dropped
	}
	lost := v.lost
	if v.cutting {
		sent, _ := v.sent()
		lost += sent - v.cutAt
	}
	return lost
}

func newVirtual() *virtual {
	c := timing.NewManualClock(0)
	return &virtual{clock: c, pin: c.NewWaiter()}
}

// step moves the clock d on: every wait of the matches due before the
// new reading ends in order, at its instant. (One due at the new reading
// itself waits for the next step: the pin, first in rank, goes first at
// an instant.)
func (v *virtual) step(d time.Duration) { v.pin.WaitUntil(v.clock.Now().AddSaturating(d)) }

func (v *virtual) sent() (sent, received uint64) {
	for _, m := range v.ms {
		st := m.Stats()
		sent += st.Sent.Packets
		received += st.Received.Packets
	}
	return sent, received
}

// settle waits (in real time, on progress) until every packet the
// matches sent one another has been received or lost at a cut link, so
// that no packet is in flight when a step begins: a packet takes at most
// the step it was sent in.
func (v *virtual) settle(t *testing.T) {
	t.Helper()
	eventually(t, "every packet received", func() bool {
		sent, received := v.sent()
		lost := v.lostNow()
		// At least: over QUIC a datagram queued while the link was cut
		// may still arrive after it.
		return received+lost >= sent
	})
}

// cut cuts the link p carries, or restores it, keeping count of what
// is lost on the way: every packet sent while it is cut, unless v.udp
// counts them exactly.
func (v *virtual) cut(t *testing.T, p *proxy, on bool) {
	t.Helper()
	if on == v.cutting {
		return
	}
	if on {
		v.settle(t)
		v.cutAt, _ = v.sent()
	} else {
		sent, _ := v.sent()
		v.lost += sent - v.cutAt
	}
	v.cutting = on
	p.setCut(on)
}

// until steps v by step, settling before each step, until cond holds;
// it fails the test after limit of virtual time.
func (v *virtual) until(t *testing.T, step, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	for end := v.clock.Now().AddSaturating(limit); ; v.step(step) {
		v.settle(t)
		if cond() {
			return
		}
		if v.clock.Now() >= end {
			t.Fatalf("no %s within %v of virtual time", what, limit)
		}
	}
}

// eventually waits, at most within, until cond holds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(within)
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("no %s within %v", what, within)
		}
	}
}

func TestRTTIsMeasured(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			v := newVirtual()
			ms := open(t, tr, 2, netplay.Options{Networks: udpOnly, Timeout: 200 * time.Millisecond, Clock: v.clock})
			v.ms = ms
			// Through the interface the match layer asks for.
			var host, joiner rollback.PeerWatcher = ms[0], ms[1]
			// Pings go out every 20ms. The clock moves on, inside a step,
			// once the matches wait again, which may be before a pong
			// arrives: a round trip is up to one step of virtual time.
			const step = 5 * time.Millisecond
			v.until(t, step, time.Second, "round-trip time", func() bool {
				return host.RTT(1) > 0 && joiner.RTT(0) > 0
			})
			if h, j := host.RTT(1), joiner.RTT(0); h > step || j > step {
				t.Errorf("round trips %v and %v on virtual time stepped by %v, want each at most a step", h, j, step)
			}
			for _, p := range []int{-1, 0, 2, 99} {
				if rtt := host.RTT(p); rtt != 0 {
					t.Errorf("host RTT(%d) = %v, want 0 (itself, or no such peer)", p, rtt)
				}
			}
		})
	}
}

func TestJoinsAreRefusedWithAReason(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			opts := netplay.Options{Transport: tr, Networks: networks, Timeout: 2 * time.Second}
			h, err := netplay.Host("127.0.0.1:0", opts, game)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			ctx, cancel := context.WithTimeout(context.Background(), within)
			defer cancel()
			// Fill h's match first.
			first, err := netplay.Join(ctx, h.Addr().String(), h.Token(), opts, game)
			if err != nil {
				t.Fatal(err)
			}
			defer first.Close()
			other, err := netplay.Host("127.0.0.1:0", opts, game)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			wrongToken := other.Token()
			if tr == netplay.QUIC {
				wrongToken = swapSecret(t, h.Token(), other.Token())
			}
			cases := []struct {
				name, token string
				id          rollback.Identity
				want        string
				count       func(netplay.Refusals) uint64
			}{
				{"token", wrongToken, game, "wrong join token", func(r netplay.Refusals) uint64 { return r.Token }},
				{"full", h.Token(), game, "the match is full", func(r netplay.Refusals) uint64 { return r.Full }},
				{"game", h.Token(), rollback.Identity{Game: "other", Version: "1.0", Config: 42}, `different game: the host plays "toy", the joiner "other"`, func(r netplay.Refusals) uint64 { return r.Game }},
				{"version", h.Token(), rollback.Identity{Game: "toy", Version: "2.0", Config: 42}, `the host runs "1.0", the joiner "2.0"`, func(r netplay.Refusals) uint64 { return r.Version }},
				{"config", h.Token(), rollback.Identity{Game: "toy", Version: "1.0", Config: 43}, "different configuration", func(r netplay.Refusals) uint64 { return r.Config }},
			}
			for _, c := range cases {
				before := c.count(h.Stats().Refused)
				_, err := netplay.Join(ctx, h.Addr().String(), c.token, opts, c.id)
				if !errors.Is(err, netplay.ErrRefused) || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
				}
				if got := c.count(h.Stats().Refused); got != before+1 {
					t.Errorf("%s: host counted %d refusals of the kind, want %d", c.name, got, before+1)
				}
			}
		})
	}
}

// swapSecret is QUIC token a with b's join secret: the right certificate,
// the wrong secret.
func swapSecret(t *testing.T, a, b string) string {
	t.Helper()
	ra, rb := decode(t, a), decode(t, b)
	copy(ra[1:17], rb[1:17])
	return "quic:" + encode(ra)
}

func TestJoinNeedsTheTokensTransport(t *testing.T) {
	h, err := netplay.Host("127.0.0.1:0", netplay.Options{Networks: udpOnly}, game)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	_, err = netplay.Join(context.Background(), h.Addr().String(), h.Token(), netplay.Options{Transport: netplay.QUIC, Networks: networks}, game)
	if err == nil || !strings.Contains(err.Error(), `set it to "udp"`) {
		t.Errorf("error %v, want one naming the token's transport", err)
	}
}

func TestJoinWithoutAnAnswerEnds(t *testing.T) {
	// A socket that never answers.
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	h, err := netplay.Host("127.0.0.1:0", netplay.Options{Networks: udpOnly}, game)
	if err != nil {
		t.Fatal(err)
	}
	tok := h.Token()
	h.Close()
	v := newVirtual()
	done := make(chan error, 1)
	go func() {
		_, err := netplay.Join(context.Background(), c.LocalAddr().String(), tok, netplay.Options{Networks: udpOnly, Timeout: 200 * time.Millisecond, Clock: v.clock}, game)
		done <- err
	}()
	// Its first join, sent at once, says its clock has started.
	if _, _, err := c.ReadFrom(make([]byte, 2048)); err != nil {
		t.Fatal(err)
	}
	v.step(199 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("Join ended %v before its timeout: %v", v.clock.Now(), err)
	default:
	}
	v.step(2 * time.Millisecond)
	err = <-done
	if err == nil || !strings.Contains(err.Error(), "no answer from the host within 200ms") {
		t.Errorf("error %v, want no answer within the timeout", err)
	}
}

func TestOptionsNameEveryBadField(t *testing.T) {
	err := netplay.Options{Networks: udpOnly, Players: 5, Transport: "tcp", Timeout: time.Millisecond, Slot: 9, Spectators: 65, Spectate: true}.Validate()
	var fields []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var oe *option.Error
		if errors.As(e, &oe) {
			fields = append(fields, oe.Field)
		}
	}
	if got, want := strings.Join(fields, " "), "Options.Players Options.Transport Options.Timeout Options.Slot Options.Spectators Options.Slot"; got != want {
		t.Errorf("fields %q, want %q", got, want)
	}
	if err := (netplay.Options{Networks: udpOnly}).Validate(); err != nil {
		t.Errorf("zero options: %v", err)
	}
	// A program links only the networks it lists, so none is no default
	// to fall back on: it is refused, naming the network to list.
	for _, o := range []netplay.Options{{}, {Transport: netplay.UDP}} {
		err := o.Validate()
		if err == nil || !strings.Contains(err.Error(), "Options.Networks") || !strings.Contains(err.Error(), "netplay.UDPNetwork()") {
			t.Errorf("Validate of %+v without Networks = %v, want Options.Networks refused naming netplay.UDPNetwork()", o, err)
		}
		if _, err := netplay.Host("127.0.0.1:0", o, game); err == nil || !strings.Contains(err.Error(), "Options.Networks") {
			t.Errorf("Host without Networks = %v, want Options.Networks refused", err)
		}
	}
	if _, err := netplay.Host("127.0.0.1:0", netplay.Options{Networks: udpOnly}, rollback.Identity{Game: strings.Repeat("x", 65)}); err == nil || !strings.Contains(err.Error(), "Identity.Game") {
		t.Errorf("a 65-byte game name: %v, want an error naming Identity.Game", err)
	}
}

func TestCloseReleasesThePort(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			ms := open(t, tr, 2, netplay.Options{Networks: udpOnly})
			addr := ms[0].Addr().String()
			for _, m := range ms {
				if err := m.Close(); err != nil {
					t.Fatal(err)
				}
				if err := m.Close(); err != nil {
					t.Fatalf("second close: %v", err)
				}
				if err := m.Send(1-m.Self(), []byte("x")); !errors.Is(err, rollback.ErrClosed) {
					t.Errorf("send after close: %v, want rollback.ErrClosed", err)
				}
			}
			c, err := net.ListenPacket("udp", addr)
			if err != nil {
				t.Fatalf("the host's port is still bound after Close: %v", err)
			}
			c.Close()
		})
	}
}

// A packet is its message and 27 bytes: a 10-byte header, the peer byte
// and a 16-byte MAC.
func TestPacketOverhead(t *testing.T) {
	ms := open(t, netplay.UDP, 2, netplay.Options{Networks: udpOnly, Timeout: 10 * time.Minute}) // pings once a second
	before := ms[1].Stats().Peers[0].Sent
	if err := ms[1].Send(0, make([]byte, 60)); err != nil {
		t.Fatal(err)
	}
	after := ms[1].Stats().Peers[0].Sent
	if p, b := after.Packets-before.Packets, after.Bytes-before.Bytes; p != 1 || b != 87 {
		t.Errorf("%d packets of %d bytes in all for a 60-byte message, want 1 of 87", p, b)
	}
}

func TestIPv6Loopback(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			opts := netplay.Options{Transport: tr, Networks: networks}
			h, err := netplay.Host("[::1]:0", opts, game)
			if err != nil {
				t.Skipf("no IPv6 loopback: %v", err)
			}
			defer h.Close()
			ctx, cancel := context.WithTimeout(context.Background(), within)
			defer cancel()
			j, err := netplay.Join(ctx, h.Addr().String(), h.Token(), opts, game)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			m, err := h.Wait(ctx)
			if err != nil {
				t.Fatal(err)
			}
			play(t, []*netplay.Match{m, j}, 100)
		})
	}
}

// A QUIC joiner accepts only the certificate its token names.
func TestQUICPinsTheCertificate(t *testing.T) {
	opts := netplay.Options{Transport: netplay.QUIC, Networks: networks, Timeout: 2 * time.Second}
	h, err := netplay.Host("127.0.0.1:0", opts, game)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	other, err := netplay.Host("127.0.0.1:0", opts, game)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	_, err = netplay.Join(ctx, h.Addr().String(), other.Token(), opts, game)
	if err == nil || !strings.Contains(err.Error(), "certificate is not the token's") {
		t.Errorf("joining with another host's token: %v, want the certificate refused", err)
	}
}

// A host with Options.Start below Players starts the match once that many
// peers are in; a player who joins later takes a slot no one played and
// joins as a player rejoining does (it catches up first), the host
// reporting it Joined and the other joiner hearing it come.
// A match of three peers seats three players one to a peer, or two
// players behind a dedicated host (peer 0, no seat), which each player
// sees as seatless and the host does not.
func TestSeating(t *testing.T) {
	ms := open(t, "udp", 3, netplay.Options{Networks: udpOnly})
	for _, m := range ms {
		all, two := m.Seating(3), m.Seating(2)
		if !slices.Equal(all.Peers, []int{0, 1, 2}) || all.Seatless != nil || all.Late != nil {
			t.Errorf("peer %d seats three players as %+v; want peers 0, 1, 2, none seatless or late", m.Self(), all)
		}
		var seatless []int
		if m.Self() != 0 {
			seatless = []int{0}
		}
		if !slices.Equal(two.Peers, []int{1, 2}) || !slices.Equal(two.Seatless, seatless) || two.Late != nil {
			t.Errorf("peer %d seats two players behind a dedicated host as %+v; want peers 1, 2, seatless %v", m.Self(), two, seatless)
		}
	}
}

func TestAMatchStartsWithFewerPlayers(t *testing.T) {
	opts := netplay.Options{Networks: udpOnly, Players: 3, Start: 2, Timeout: 2 * time.Second}
	h, err := netplay.Host("127.0.0.1:0", opts, game)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	first, err := netplay.Join(ctx, h.Addr().String(), h.Token(), opts, game)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { first.Close() })
	host, err := h.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if first.Rejoining() || !host.Joined(first.Self()) || host.Joined(3-first.Self()) {
		t.Fatalf("started: first joiner peer %d rejoining %v; host sees slots 1 and 2 joined %v %v; want a fresh start with one slot free",
			first.Self(), first.Rejoining(), host.Joined(1), host.Joined(2))
	}
	if got := host.Seating(3); !slices.Equal(got.Late, []int{3 - first.Self()}) || !slices.Equal(got.Peers, []int{0, 1, 2}) {
		t.Errorf("the host's seating %+v; want every player at its own peer and peer %d late", got, 3-first.Self())
	}
	late, err := netplay.Join(ctx, h.Addr().String(), h.Token(), opts, game)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { late.Close() })
	if late.Self() != 3-first.Self() || !late.Rejoining() || !host.Joined(late.Self()) {
		t.Errorf("the late joiner is peer %d, rejoining %v; want peer %d joining as a rejoin", late.Self(), late.Rejoining(), 3-first.Self())
	}
	// It catches up as a rejoin does, but is told it joins late: it never
	// played in this match.
	if !late.Late() || first.Late() {
		t.Errorf("Late: %v for the late joiner, %v for the first; want true, false", late.Late(), first.Late())
	}
	heard := func(m *netplay.Match, kind rollback.PeerEventKind) func() bool {
		return func() bool {
			for ev, ok := m.Event(); ok; ev, ok = m.Event() {
				if ev.Peer == late.Self() && ev.Kind == kind {
					return true
				}
			}
			return false
		}
	}
	eventually(t, "the host reports the late player joined", heard(host, rollback.PeerJoined))
	eventually(t, "the first joiner hears the late player come", heard(first, rollback.PeerReconnected))
}

// A host that stops waiting before its players join says how many joined
// of how many the match starts with, and why it stopped.
func TestAHostWaitingInVainCountsWhoJoined(t *testing.T) {
	h, err := netplay.Host("127.0.0.1:0", netplay.Options{Networks: udpOnly, Players: 3, Start: 2}, game)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = h.Wait(ctx)
	var short *netplay.ShortError
	if !errors.As(err, &short) || short.Joined != 0 || short.Want != 1 || !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with no one joined: %v; want a *ShortError of 0 of 1 that unwraps to context.Canceled", err)
	}
	if want := "not enough players joined: 0 of the 1 the match starts with; it did not start"; err.Error() != want {
		t.Errorf("Wait says %q, want %q", err, want)
	}
}
