package rollback_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/rollback/rollbacktest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// watched is a simulated transport that also watches its peers, as
// netplay's does: the test hands it connection events.
type watched struct {
	*rollbacktest.Transport
	events []rollback.PeerEvent
	mute   bool // what the peer sends is lost, as on a link down one way
}

func (w *watched) Send(peer int, msg []byte) error {
	if w.mute {
		return nil
	}
	return w.Transport.Send(peer, msg)
}

func (w *watched) Event() (rollback.PeerEvent, bool) {
	if len(w.events) == 0 {
		return rollback.PeerEvent{}, false
	}
	ev := w.events[0]
	w.events = w.events[1:]
	return ev, true
}

func (w *watched) RTT(int) time.Duration { return 0 }

const peerStep = time.Second / 60

// peerMatch is a match of the paddle game between peers, each a
// rollback.Peer over a simulated network on one manual clock, and
// spectators after them, fed by the host.
type peerMatch struct {
	t     testing.TB
	clock *timing.ManualClock
	trs   []*watched
	peers []*rollback.Peer
	specs []*rollback.Spectator
	errs  []error // each peer's and spectator's error, the first one
	n     int
	ctx   runtime.TickContext // the runtime's tick lives as long as the match
	// timings[i] is what peer i's scheduler says on each update (the
	// test plays the scheduler), and stalled[i] stops peer i's updates.
	timings []timing.Stats
	stalled []bool
	// paced makes timings a scheduler's after each update (see owe).
	paced bool
	// batch, when above 1, runs peer 1 in batches of that many updates:
	// only the last of each is Final, the others Quiet, as a page's four
	// ticks an animation frame.
	batch int
}

// owe plays the scheduler of peer i with a 2 s cutoff past which it drops
// the debt (timing.SharedSlowdown) after its update: a held tick owes a
// step, settled debt is taken off, pacing repays a quarter of a step an
// update (max_speed_up 1.25), and the cutoff acts on the next update
// when the debt passes it.
func (m *peerMatch) owe(i int, o runtime.Owed) {
	const cutoff = 2 * time.Second
	tm := &m.timings[i]
	d := tm.DebtTime + o.Held
	if o.Held <= 0 {
		d -= peerStep / 4
	}
	d, tm.Acting = max(d, 0), 0
	if d > cutoff {
		d, tm.Acting = cutoff, timing.MechCutoff
	}
	tm.DebtTime, tm.Ledger.PendingDebt = d, d
}

// newPeerMatch plays the paddle game between players peers (one player
// each) and spectators spectators, with ticks the match's end (0: none).
// perturb, if a peer, gives that peer a game whose paddles drift: its
// world differs from the first tick.
func newPeerMatch(t testing.TB, net netsim.Options, players, spectators int, ticks int64, perturb int) *peerMatch {
	t.Helper()
	nw, err := netsim.NewNetwork(players+spectators, net)
	if err != nil {
		t.Fatal(err)
	}
	m := &peerMatch{t: t, clock: timing.NewManualClock(0), errs: make([]error, players+spectators),
		timings: make([]timing.Stats, players), stalled: make([]bool, players)}
	for _, tr := range rollbacktest.NewTransports(nw, m.clock) {
		m.trs = append(m.trs, &watched{Transport: tr})
	}
	var ps []rollback.Player
	for i := range players {
		ps = append(ps, rollback.Player{Peer: i, Delay: 2})
	}
	for i := range players + spectators {
		game := paddleGame(t, players)
		if i == perturb {
			var f *ecs.Filter1[paddle]
			game.AddSystem(ecs.Update, ecs.System{Name: "drift", Run: func(ctx *ecs.Sys) {
				if f == nil {
					f = ecs.NewFilter1[paddle](ctx.World)
				}
				for q := f.Query(); q.Next(); {
					q.Get().X++
				}
			}})
		}
		app, err := rollback.NewApp(game, 8)
		if err != nil {
			t.Fatal(err)
		}
		if i >= players {
			s, err := rollback.NewSpectator(app, rollback.SpectatorOptions{Transport: m.trs[i], Players: players, Actions: 2, HashEvery: 10,
				Step: peerStep, Delay: 3, Ticks: ticks, Clock: m.clock})
			if err != nil {
				t.Fatal(err)
			}
			m.specs = append(m.specs, s)
			m.trs[0].events = append(m.trs[0].events, rollback.PeerEvent{Peer: i, Kind: rollback.PeerJoined, Spectator: true})
			continue
		}
		p, err := rollback.NewPeer(app, rollback.PeerOptions{
			Options:   rollback.Options{Self: i, Players: ps, Actions: 2, Window: 8, HashEvery: 10, Clock: m.clock},
			Transport: m.trs[i], Step: peerStep, Patience: time.Minute, Cutoff: 2 * time.Second, SpectatorDelay: 3, Ticks: ticks})
		if err != nil {
			t.Fatal(err)
		}
		m.peers = append(m.peers, p)
	}
	return m
}

// update runs one update of every peer and spectator still playing.
func (m *peerMatch) update() {
	m.n++
	m.clock.Advance(peerStep)
	m.ctx = runtime.TickContext{Update: timing.Update{Number: uint64(m.n), Kind: timing.FixedUpdate, Steps: 1, Delta: peerStep, Final: true}}
	ctx := &m.ctx
	for i, p := range m.peers {
		if _, ended := p.Outcome(); ended || m.stalled[i] {
			continue
		}
		ctx.Timing = m.timings[i]
		ctx.Final = i != 1 || m.batch < 2 || m.n%m.batch == 0
		ctx.Quiet = !ctx.Final
		script(5, i, p.Tick()+2, p.Input(0))
		if err := p.Update(ctx); err != nil && m.errs[i] == nil {
			m.errs[i] = err
		}
		if m.paced {
			m.owe(i, ctx.Owed)
		}
	}
	ctx.Final, ctx.Quiet = true, false
	for i, s := range m.specs {
		if err := s.Update(ctx); err != nil && m.errs[len(m.peers)+i] == nil {
			m.errs[len(m.peers)+i] = err
		}
	}
}

// run updates until every peer and spectator ended, or updates ran out.
func (m *peerMatch) run(updates int) {
	for range updates {
		m.update()
		done := true
		for _, p := range m.peers {
			_, ended := p.Outcome()
			done = done && ended
		}
		for _, s := range m.specs {
			_, ended := s.Outcome()
			done = done && ended
		}
		if done {
			return
		}
	}
}

// A peer that runs its updates in batches (a page running four ticks an
// animation frame) sends one message a batch, the last update's, which
// carries the inputs of the whole batch: the match still ends on one
// tick and hash.
func TestABatchSendsOneMessage(t *testing.T) {
	m := newPeerMatch(t, netsim.Options{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.05, Seed: 4}, 2, 0, 300, -1)
	m.batch = 4
	m.run(2000)
	for i, err := range m.errs {
		if err != nil {
			t.Errorf("peer %d: %v", i, err)
		}
	}
	host, _ := m.peers[0].Outcome()
	got, _ := m.peers[1].Outcome()
	if host.Kind != rollback.Finished || !host.HasHash || got != host {
		t.Fatalf("joiner %+v, host %+v: want both finished on one tick and hash", got, host)
	}
	// One message a batch until the end, then one an update while it lingers.
	if sent, updates := m.peers[1].Stats().Sent, uint64(m.n); sent > updates/4+20 {
		t.Errorf("the batched peer sent %d messages in %d updates, want one a batch of 4 (and 15 lingering)", sent, updates)
	}
}

// A match with an end finishes on every peer, and on its spectator, on
// the same confirmed tick and world hash, the last hashed below the end;
// no update fails.
func TestAMatchFinishesOnTheSameTick(t *testing.T) {
	m := newPeerMatch(t, netsim.Options{Latency: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: 9}, 2, 1, 300, -1)
	m.run(2000)
	want, ok := m.peers[0].Outcome()
	if !ok || want.Kind != rollback.Finished || !want.HasHash || want.Tick != 290 {
		t.Fatalf("host's outcome %+v (ended %v): want finished on tick 290 with a hash", want, ok)
	}
	for i, err := range m.errs {
		if err != nil {
			t.Errorf("peer %d: %v", i, err)
		}
	}
	got, _ := m.peers[1].Outcome()
	spec, _ := m.specs[0].Outcome()
	if got != want || spec.Kind != rollback.Finished || spec.Tick != want.Tick || spec.Hash != want.Hash {
		t.Errorf("joiner %+v, spectator %+v: want both as the host's %+v", got, spec, want)
	}
	if st := m.specs[0].Stats(); st.BytesSent == 0 || st.BytesReceived == 0 {
		t.Errorf("the spectator's stats %+v count no traffic", st)
	}
	if !strings.Contains(want.String(), "confirmed tick 290 hash") {
		t.Errorf("finished outcome reads %q", want)
	}
}

// Peers whose worlds differ end desynced, naming the tick and both
// hashes; the update that finds it returns the outcome, which unwraps to
// the rollback.Desync.
func TestADesyncEndsTheMatch(t *testing.T) {
	m := newPeerMatch(t, netsim.Options{Latency: 20 * time.Millisecond, Seed: 2}, 2, 0, 0, 1)
	m.run(600)
	for i, p := range m.peers {
		o, ok := p.Outcome()
		var oe *rollback.OutcomeError
		var d rollback.Desync
		if !ok || o.Kind != rollback.Desynced || o.Local == o.Remote || o.Peer != 1-i {
			t.Errorf("peer %d: outcome %+v (ended %v), want desynced with peer %d, the hashes differing", i, o, ok, 1-i)
		}
		if !errors.As(m.errs[i], &oe) || oe.Outcome != o || !errors.As(m.errs[i], &d) || d.Tick != o.Tick {
			t.Errorf("peer %d: error %v, want the outcome as an *OutcomeError unwrapping to its Desync", i, m.errs[i])
		}
		if s := o.String(); !strings.Contains(s, "desynced at tick") || strings.Contains(s, "confirmed tick") {
			t.Errorf("peer %d: desync reads %q: want it said in words, not as a confirmed line", i, s)
		}
	}
}

// A host that goes silent is gone for its joiner and spectator at once:
// a host started again hosts another match, so there is nothing to wait
// for (net.join_timeout is not waited).
func TestAHostThatGoesSilentIsGone(t *testing.T) {
	m := newPeerMatch(t, netsim.Options{Latency: 20 * time.Millisecond, Seed: 3}, 2, 1, 0, -1)
	m.run(120)
	m.trs[1].events = append(m.trs[1].events, rollback.PeerEvent{Peer: 0, Kind: rollback.PeerDisconnected})
	m.trs[2].events = append(m.trs[2].events, rollback.PeerEvent{Peer: 0, Kind: rollback.PeerLeft})
	m.update()
	for i, err := range []error{m.errs[1], m.errs[2]} {
		var oe *rollback.OutcomeError
		if !errors.As(err, &oe) || oe.Outcome.Kind != rollback.HostGone {
			t.Errorf("peer %d: %v, want the host gone at the first update after it went", i+1, err)
		}
	}
}

// A disconnected player is waited for up to the patience, from when it
// was reported disconnected: one that comes back within it resets the
// wait; one that does not abandons the match, naming the peer and how
// long it was waited for. One that leaves abandons it at once.
func TestADisconnectedPlayerIsWaitedForUpToThePatience(t *testing.T) {
	m := newPeerMatch(t, netsim.Options{Seed: 4}, 3, 0, 0, -1)
	m.run(10)
	host := m.peers[0]
	m.trs[0].events = append(m.trs[0].events, rollback.PeerEvent{Peer: 1, Kind: rollback.PeerDisconnected})
	m.update()
	if evs := host.Events(); len(evs) != 1 || !strings.Contains(evs[0].String(), "peer 1 disconnected: the match waits up to 1m0s (net.join_timeout)") {
		t.Errorf("events %v: want the disconnect, saying how long the match waits", evs)
	}
	m.clock.Advance(59 * time.Second)
	m.update()
	m.trs[0].events = append(m.trs[0].events, rollback.PeerEvent{Peer: 1, Kind: rollback.PeerReconnected})
	m.update()
	m.clock.Advance(2 * time.Minute)
	m.update()
	if o, ended := host.Outcome(); ended {
		t.Fatalf("a player that came back within the patience: the match ended %v", o)
	}
	m.trs[0].events = append(m.trs[0].events, rollback.PeerEvent{Peer: 2, Kind: rollback.PeerDisconnected})
	m.update()
	m.clock.Advance(time.Minute + time.Millisecond)
	m.update()
	o, ended := host.Outcome()
	if !ended || o.Kind != rollback.Abandoned || o.Peer != 2 || o.Waited != time.Minute {
		t.Fatalf("a minute and a millisecond after peer 2's disconnect: %+v (ended %v), want abandoned by peer 2 after 1m", o, ended)
	}
	if s := o.String(); !strings.Contains(s, "peer 2") || !strings.Contains(s, "net.join_timeout") {
		t.Errorf("abandoned outcome reads %q", s)
	}
	// A player that leaves mid-match abandons it at once.
	m2 := newPeerMatch(t, netsim.Options{Seed: 5}, 2, 0, 0, -1)
	m2.run(10)
	m2.trs[0].events = append(m2.trs[0].events, rollback.PeerEvent{Peer: 1, Kind: rollback.PeerLeft})
	m2.update()
	if o, _ := m2.peers[0].Outcome(); o.Kind != rollback.Abandoned || o.Peer != 1 || o.Waited != 0 {
		t.Errorf("a player that left: %+v, want abandoned by peer 1, not waited for", o)
	}
}

// A peer that leaves once the match reached its end finished it: the
// other side's outcome is finished too, not an error.
func TestAPeerLeavingAtTheEndFinishes(t *testing.T) {
	m := newPeerMatch(t, netsim.Options{Latency: 20 * time.Millisecond, Seed: 6}, 2, 0, 120, -1)
	for range 400 {
		if _, ok := m.peers[0].Outcome(); ok {
			break
		}
		m.update()
	}
	if o, _ := m.peers[0].Outcome(); o.Kind != rollback.Finished {
		t.Fatalf("host: %+v, want finished", o)
	}
	if _, ended := m.peers[1].Outcome(); !ended {
		m.trs[1].events = append(m.trs[1].events, rollback.PeerEvent{Peer: 0, Kind: rollback.PeerLeft})
		m.update()
	}
	if o, _ := m.peers[1].Outcome(); o.Kind != rollback.Finished || m.errs[1] != nil {
		t.Errorf("joiner after the host left at the end: %+v, %v; want finished", o, m.errs[1])
	}
}

// NewPeer refuses what it cannot play, naming each problem.
func TestNewPeerRefuses(t *testing.T) {
	app, err := rollback.NewApp(paddleGame(t, 2), 8)
	if err != nil {
		t.Fatal(err)
	}
	_, err = rollback.NewPeer(app, rollback.PeerOptions{Options: rollback.Options{Self: 1, Players: []rollback.Player{{Peer: 0}, {Peer: 1}}, Actions: 2, Window: 65}})
	for _, want := range []string{"Transport is nil", "Step 0s", "Options.Window"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("NewPeer: %v, want it to say %q", err, want)
		}
	}
}

// The host plays on without a peer that holds it when its scheduler's
// debt passes the cutoff (timing's MechCutoff acting), and only then:
// however long it holds, it waits while its scheduler does not say so.
// Playing on settles the debt the hold left, and the stalled peer, when
// it runs again, resynchronises from the host's snapshot; the host,
// holding for it while it catches up, plays on without it once only.
func TestTheHostPlaysOnWhenTheSchedulersCutoffActs(t *testing.T) {
	m := newPeerMatch(t, netsim.Options{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Seed: 11}, 2, 0, 0, -1)
	host := m.peers[0]
	m.run(60)
	m.stalled[1] = true
	m.run(300) // 5 s held, with a scheduler that owes nothing
	if st := host.Stats(); st.PlayedOn != 0 || st.Held < 250 {
		t.Fatalf("the host held %d updates and played on %d times with its scheduler under the cutoff: want it held, and no play-on", st.Held, st.PlayedOn)
	}
	m.timings[0].Acting, m.timings[0].DebtTime, m.timings[0].Ledger.PendingDebt = timing.MechCutoff, 2*time.Second, 2*time.Second
	m.paced = true
	m.update()
	if st := host.Stats(); st.PlayedOn != 1 {
		t.Fatalf("the scheduler past its cutoff: the host played on %d times, want 1", st.PlayedOn)
	}
	if evs := host.Events(); len(evs) != 1 || evs[0].Kind != rollback.EventPlayedOn || evs[0].Peer != 1 {
		t.Errorf("events %v: want the host playing on without peer 1", evs)
	}
	if got := m.ctx.Owed.Held; got != -2*time.Second {
		t.Errorf("the update that played on owes %v held: want -2s, the hold's debt settled", got)
	}
	m.stalled[1] = false
	m.run(900)
	for i, err := range m.errs {
		if err != nil {
			t.Errorf("peer %d: %v", i, err)
		}
	}
	if h, j := host.Stats(), m.peers[1].Stats(); h.PlayedOn != 1 || j.Resyncs != 1 {
		t.Errorf("the host played on %d times, the stalled peer resynchronised %d: want once each", h.PlayedOn, j.Resyncs)
	}
	ht, hh, ok := host.ConfirmedHash()
	if jh, jok := m.peers[1].HashAt(ht); !ok || !jok || jh != hh || ht < 600 {
		t.Errorf("at the host's last confirmed tick %d: host %#x (%v), peer 1 %#x (%v): want the same world, past tick 600", ht, hh, ok, jh, jok)
	}
}

// A peer that resynchronised after the host played on without it hears
// the host's last catch-up messages, sent before the host heard that it
// caught up, once it plays again: they are late, not malformed (they
// were taken for session messages, "a message naming sender peer 452").
// The stalls and seeds are ones where such a message comes late over a
// 150ms, 5% lossy link.
func TestALateCatchUpMessageIsNotMalformed(t *testing.T) {
	for _, seed := range []uint64{11, 24, 27} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			m := newPeerMatch(t, netsim.Options{Latency: 75 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: seed}, 2, 0, 900, -1)
			m.paced = true
			m.run(120)
			m.stalled[1] = true
			m.run(260) // past the 2 s cutoff: the host plays on
			m.stalled[1] = false
			m.run(3000)
			for i, err := range m.errs {
				if err != nil {
					t.Errorf("peer %d: %v", i, err)
				}
			}
			h, j := m.peers[0].Stats(), m.peers[1].Stats()
			if h.PlayedOn != 1 || j.Resyncs != 1 {
				t.Fatalf("the host played on %d times, the stalled peer resynchronised %d: want once each", h.PlayedOn, j.Resyncs)
			}
			if h.Malformed != 0 || j.Malformed != 0 || h.Desyncs != 0 || j.Desyncs != 0 {
				t.Errorf("malformed messages %d and %d, desyncs %d and %d: want none", h.Malformed, j.Malformed, h.Desyncs, j.Desyncs)
			}
		})
	}
}

// starting is a simulated transport that starts its peers together: its
// Ready counts the calls and answers err.
type starting struct {
	*watched
	calls int
	err   error
}

func (s *starting) Ready(context.Context) error { s.calls++; return s.err }

// Ready waits on a transport that starts its peers together, and returns
// its error; a rejoining peer, whose match is under way, and a transport
// without a start of its own do not wait.
func TestPeerReadyWaitsOnItsTransport(t *testing.T) {
	m := newPeerMatch(t, netsim.Options{Seed: 12}, 2, 0, 0, -1)
	stop := errors.New("the other peer never came")
	for _, c := range []struct {
		name      string
		rejoining bool
		starts    bool
		calls     int
		err       error
	}{
		{"starter", false, true, 1, stop},
		{"rejoining", true, true, 0, nil},
		{"no starter", false, false, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &starting{watched: m.trs[1], err: stop}
			var tr rollback.Transport = m.trs[1]
			if c.starts {
				tr = st
			}
			app, err := rollback.NewApp(paddleGame(t, 2), 8)
			if err != nil {
				t.Fatal(err)
			}
			p, err := rollback.NewPeer(app, rollback.PeerOptions{
				Options:   rollback.Options{Self: 1, Players: []rollback.Player{{Peer: 0}, {Peer: 1}}, Actions: 2, Window: 8, Clock: m.clock},
				Transport: tr, Step: peerStep, Rejoining: c.rejoining})
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Ready(context.Background()); !errors.Is(err, c.err) || st.calls != c.calls {
				t.Errorf("Ready = %v after %d calls of the transport's, want %v after %d", err, st.calls, c.err, c.calls)
			}
		})
	}
}

// A host that played on without a peer which never asks to catch up
// (still connected: its messages are lost) waits for it at the end up
// to the patience, and no longer: it finishes on the match's last hash.
func TestAHostWaitsForAPeerBehindUpToThePatience(t *testing.T) {
	m := newPeerMatch(t, netsim.Options{Latency: 75 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: 5}, 2, 0, 400, -1)
	m.paced = true
	m.run(120)
	m.trs[1].mute = true
	m.run(600)
	if _, ended := m.peers[0].Outcome(); ended {
		t.Fatalf("the host ended at update %d, with a peer it played on without still connected and behind", m.n)
	}
	m.run(3600) // a minute, the patience
	host, ok := m.peers[0].Outcome()
	if !ok || host.Kind != rollback.Finished || host.Tick != 390 || !host.HasHash {
		t.Errorf("after %d updates the host's outcome is %+v (ended %v): want finished on tick 390", m.n, host, ok)
	}
}

// A peer whose messages stop reaching the host for 4 s while it runs
// (the link down one way: its process plays on, up to its window past
// the host's inputs) is one the host plays on without: its own player's
// inputs, filled by the host from where the host last had them, are not
// the ones it played, though the host's frontier for that player stays
// behind its own. It resynchronises, rather than find the host's hashes
// of the filled ticks differ from its own and end the match desynced.
func TestAPeerTheHostFillsWhileAheadResynchronises(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			m := newPeerMatch(t, netsim.Options{Latency: 75 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: seed}, 2, 0, 900, -1)
			m.paced = true
			m.run(120)
			m.trs[1].mute = true
			m.run(240) // past the 2 s cutoff: the host plays on
			m.trs[1].mute = false
			m.run(3000)
			for i, err := range m.errs {
				if err != nil {
					t.Errorf("peer %d: %v", i, err)
				}
			}
			h, j := m.peers[0].Stats(), m.peers[1].Stats()
			if h.PlayedOn != 1 || j.Resyncs != 1 || h.Desyncs != 0 || j.Desyncs != 0 {
				t.Errorf("the host played on %d times, the muted peer resynchronised %d times; desyncs %d and %d: want one play-on, one resync, no desync", h.PlayedOn, j.Resyncs, h.Desyncs, j.Desyncs)
			}
			ht, hh, ok := m.peers[0].ConfirmedHash()
			if jh, jok := m.peers[1].HashAt(ht); !ok || !jok || jh != hh || ht < 800 {
				t.Errorf("at the host's last confirmed tick %d: host %#x (%v), peer 1 %#x (%v): want the same world, past tick 800", ht, hh, ok, jh, jok)
			}
		})
	}
}

// A peer the host plays on without, whose host reaches the match's end
// while it is still resynchronising (its snapshot or the ticks after it
// on their way, or its request to catch up not yet sent), still ends:
// the host feeds it to the end before it finishes, and both finish on
// one tick and hash, within the updates of a short match.
func TestAPeerResyncingWhenTheHostFinishesEnds(t *testing.T) {
	for _, unmute := range []int{330, 380, 420, 600} {
		t.Run(fmt.Sprint(unmute), func(t *testing.T) {
			m := newPeerMatch(t, netsim.Options{Latency: 75 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: 5}, 2, 0, 400, -1)
			m.paced = true
			m.run(120)
			m.trs[1].mute = true
			m.run(unmute - 120) // the host plays on past the cutoff, and reaches or nears the end
			m.trs[1].mute = false
			m.run(2000)
			host, hok := m.peers[0].Outcome()
			got, jok := m.peers[1].Outcome()
			if !hok || !jok {
				t.Fatalf("after %d updates: host ended %v (%+v), joiner ended %v (%+v, %+v): want both ended", m.n, hok, host, jok, got, m.peers[1].Stats())
			}
			for i, err := range m.errs {
				if err != nil {
					t.Errorf("peer %d: %v", i, err)
				}
			}
			if host.Kind != rollback.Finished || !host.HasHash || got != host {
				t.Errorf("joiner %+v, host %+v: want both finished on one tick and hash", got, host)
			}
			if j := m.peers[1].Stats(); j.Resyncs != 1 {
				t.Errorf("the muted peer resynchronised %d times, want once", j.Resyncs)
			}
		})
	}
}

// A peer that runs at half the match's rate (a busy machine; or, alike
// for the host, a lockstep match over a link longer than its input
// delay) holds the host past the cutoff while its messages keep coming:
// it is slow, not stalled, and the host slows down with it instead of
// playing on without it, which would only make it resynchronise and
// hold the match again while it caught up.
func TestTheHostDoesNotPlayOnWithoutAPeerItHears(t *testing.T) {
	m := newPeerMatch(t, netsim.Options{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.05, Seed: 13}, 2, 0, 0, -1)
	m.paced = true
	m.run(120)
	past := false
	for range 900 {
		m.stalled[1] = m.n%2 == 0
		m.update()
		past = past || m.timings[0].Acting&timing.MechCutoff != 0
	}
	m.stalled[1] = false
	m.run(600)
	for i, err := range m.errs {
		if err != nil {
			t.Errorf("peer %d: %v", i, err)
		}
	}
	h, j := m.peers[0].Stats(), m.peers[1].Stats()
	if !past {
		t.Fatalf("the host's debt never passed the cutoff (held %d updates): the test shows nothing", h.Held)
	}
	if h.PlayedOn != 0 || j.Resyncs != 0 {
		t.Errorf("the host played on %d times, the slow peer resynchronised %d times: want neither", h.PlayedOn, j.Resyncs)
	}
	ht, hh, ok := m.peers[0].ConfirmedHash()
	if jh, jok := m.peers[1].HashAt(ht); !ok || !jok || jh != hh {
		t.Errorf("at the host's last confirmed tick %d: host %#x (%v), peer 1 %#x (%v): want the same world", ht, hh, ok, jh, jok)
	}
}
