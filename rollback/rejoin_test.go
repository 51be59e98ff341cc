package rollback_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

// Peer 1's process dies about 5 s into a match over a lossy network and
// starts again a second later: it catches up on the host's confirmed
// inputs from tick 0 with a new simulation, plays on from where it caught
// up, and both peers end on the same states at the ticks both confirmed.
// It dies at several instants, so that the inputs before the tick it
// rejoins on (against which its first messages are coded) differ. With
// simulations whose state travels it starts from a snapshot of the
// host's instead (dying past 5 s, more than the ticks a snapshot is
// worth).
func TestARestartedPeerRejoins(t *testing.T) {
	for _, state := range []bool{false, true} {
		for _, die := range []time.Duration{6000, 6017, 6034, 6051, 6068, 6085, 6102, 6119} {
			t.Run(fmt.Sprintf("state=%v/%v", state, die*time.Millisecond), func(t *testing.T) { rejoinAfter(t, die*time.Millisecond, state) })
		}
	}
}

// A peer that stalls (its process neither runs nor reads for 3 s) holds
// the host at its window for 2 s, the cutoff; the host then plays on
// without it (Session.Fill). When the peer runs again it hears that the
// host confirmed its player's inputs past its own (ErrResync), catches
// up from the host's snapshot (Follower.NeedState), and plays on; both
// end on the same states at the ticks both confirmed.
func TestAStalledPeerResynchronises(t *testing.T) {
	for _, stall := range []time.Duration{3000, 3017, 3034, 3051} {
		t.Run(fmt.Sprint(stall*time.Millisecond), func(t *testing.T) { catchUp(t, 5*time.Second, stall*time.Millisecond, true, true) })
	}
}

func rejoinAfter(t *testing.T, die time.Duration, state bool) {
	catchUp(t, die, time.Second, state, false)
}

// catchUp plays a match of two peers over a lossy network in which peer
// 1 stops at die for gap: its process dies and starts again, or with
// stall, it stalls and runs on. It then catches up on the host's
// confirmed timeline, plays on, and the test compares the peers' states.
func catchUp(t *testing.T, die, gap time.Duration, state, stall bool) {
	nw, err := netsim.NewNetwork(2, netsim.Options{Latency: 30 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.05, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	opts := func(self, logBytes int) rollback.Options {
		return rollback.Options{Self: self, Players: players, Actions: 2, Window: 8, HashEvery: 10, LogBytes: logBytes, Clock: timing.NewManualClock(0)}
	}
	// sim is the simulation of a session over h.
	sim := func(h *hashed) rollback.Simulation {
		if state {
			return travels{h, h.toy}
		}
		return h
	}
	hostSim := &hashed{newToy(8), map[int64]uint64{}}
	host, err := rollback.NewSession(sim(hostSim), opts(0, 1<<16))
	if err != nil {
		t.Fatal(err)
	}
	joinSim := &hashed{newToy(8), map[int64]uint64{}}
	joiner, err := rollback.NewSession(sim(joinSim), opts(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	var feed *rollback.Feed
	var fol *rollback.Follower
	restart, end := die+gap, 15*time.Second
	held := 0 // the host's updates held in a row
	const step = time.Second / 60
	msg, buf := make([]byte, 0, 4096), make([]byte, 64<<10)
	var next [2]time.Duration
	startTick := int64(-1)
	var fol0 rollback.FollowerStats // the follower's, once caught up
	// filling is the host's latest message while it filled peer 1's
	// player; resyncs counts peer 1's resynchronisations.
	var filling []byte
	resyncs := 0
	for now := time.Duration(0); now < end; now += time.Millisecond {
		at := timing.Instant(now)
		for n, ok := nw.Link(1, 0).Receive(at, buf); ok; n, ok = nw.Link(1, 0).Receive(at, buf) {
			m := buf[:n]
			if rollback.IsAck(m) {
				if feed == nil {
					// It asks to catch up: stop playing for it, and
					// feed it from where its inputs are wanted.
					host.Unfill(1)
					host.Rejoined(1)
					feed = host.NewFeed(0)
				}
				if err := feed.Receive(m); err != nil {
					t.Fatal(err)
				}
			} else if err := host.Receive(m); err != nil {
				t.Fatal(err)
			}
		}
		// A stalled process reads nothing: its messages wait.
		recv := func() (int, bool) {
			if stall && now >= die && now < restart {
				return 0, false
			}
			return nw.Link(0, 1).Receive(at, buf)
		}
		for n, ok := recv(); ok; n, ok = recv() {
			m := buf[:n]
			switch {
			case now >= die && now < restart:
				// nobody listens
			case rollback.IsCatchUp(m):
				if fol != nil {
					if err := fol.Receive(m); err != nil {
						t.Fatal(err)
					}
				}
			case joiner != nil:
				if err := joiner.Receive(m); err != nil {
					t.Fatal(err)
				}
			}
		}
		if now >= next[0] {
			next[0] += step
			script(1, 0, host.Tick()+2, host.Local(0))
			st, err := host.Advance()
			if err != nil {
				t.Fatal(err)
			}
			if held++; !st.Held {
				held = 0
			}
			if stall && held > 120 && feed == nil && !host.Filling(1) {
				if err := host.Fill(1); err != nil {
					t.Fatal(err)
				}
			}
			m := host.AppendMessage(msg[:0])
			if host.Filling(1) {
				filling = append(filling[:0], m...)
			}
			nw.Link(0, 1).Send(at, m)
			if feed != nil {
				for range 4 {
					m, ok, err := feed.Append(msg[:0])
					if err != nil {
						t.Fatal(err)
					}
					if !ok {
						break
					}
					nw.Link(0, 1).Send(at, m)
				}
				feed.Update()
			}
		}
		if now == die && !stall {
			joiner = nil
		}
		if now == restart && !stall {
			// The new process: a new simulation from tick 0, asking the
			// host for the confirmed inputs; the host sees it back.
			host.Rejoined(1)
			joinSim = &hashed{newToy(8), map[int64]uint64{}}
			if fol, err = rollback.NewFollower(sim(joinSim), 2, 2, 10, 0, timing.NewManualClock(0)); err != nil {
				t.Fatal(err)
			}
			next[1] = now
		}
		if now < next[1] || now >= die && now < restart {
			continue
		}
		next[1] += step
		if fol != nil {
			if _, err := fol.Advance(time.Second, 1<<20); err != nil {
				t.Fatal(err)
			}
			nw.Link(1, 0).Send(at, fol.AppendAck(msg[:0]))
			// Caught up: the feed's confirmed end is where the host
			// waits for this peer's inputs, which it checks.
			if fol.CaughtUp() {
				if _, logged, _, _ := host.Logged(); fol.Tick() != logged {
					t.Fatalf("caught up at tick %d; the host's log ends at %d", fol.Tick(), logged)
				}
				startTick, fol0 = fol.Tick(), fol.Stats()
				if joiner, err = rollback.NewSessionAfter(fol, opts(1, 0)); err != nil {
					t.Fatal(err)
				}
				fol = nil
				if filling != nil {
					// A message the host sent while it filled, late
					// by the whole catch-up: of a fill this peer
					// resynchronised from already.
					if err := joiner.Receive(filling); err != nil {
						t.Fatal(err)
					}
				}
			} else {
				continue
			}
			// It plays on in the same update, so its first message goes
			// before it hears the host's acknowledgement.
		}
		script(1, 1, joiner.Tick()+2, joiner.Local(1))
		if _, err := joiner.Advance(); errors.Is(err, rollback.ErrResync) {
			resyncs++
			// The host played on without it: catch up on its timeline,
			// from its snapshot, with the same simulation.
			if fol, err = rollback.NewFollower(sim(joinSim), 2, 2, 10, 0, timing.NewManualClock(0)); err != nil {
				t.Fatal(err)
			}
			fol.NeedState()
			joiner = nil
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		nw.Link(1, 0).Send(at, joiner.AppendMessage(msg[:0]))
	}
	if startTick < 0 {
		t.Fatal("the restarted peer never caught up")
	}
	if joiner == nil {
		t.Fatalf("peer 1 was still catching up at the end, after %d resyncs", resyncs)
	}
	// A confirmation taken in the last update is resimulated at the
	// start of the next: run it, so every confirmed tick was saved with
	// its confirmed inputs.
	for _, s := range []*rollback.Session{host, joiner} {
		if _, err := s.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	if stall {
		if host.Filling(1) || startTick < 0 || resyncs != 1 || filling == nil {
			t.Errorf("still filling: %v, resynchronised %d times, last at tick %d, a message while filling: %v; want one resync", host.Filling(1), resyncs, startTick, filling != nil)
		}
	}
	if state && fol0.StateBytes != toyStateBytes {
		t.Errorf("caught up from a snapshot of %d bytes, want %d: %+v", fol0.StateBytes, toyStateBytes, fol0)
	}
	hs, js := host.Stats(), joiner.Stats()
	t.Logf("rejoined at tick %d; host %+v; joiner %+v", startTick, hs, js)
	if hs.Confirmed < startTick+300 || js.Confirmed < startTick+300 {
		t.Errorf("confirmed %d and %d after rejoining at %d: the match did not go on", hs.Confirmed, js.Confirmed, startTick)
	}
	if hs.Desyncs != 0 || js.Desyncs != 0 || js.Hashes == 0 {
		t.Errorf("%d and %d desyncs, %d hashes compared by the joiner", hs.Desyncs, js.Desyncs, js.Hashes)
	}
	common := 0
	for k := startTick; k <= min(hs.Confirmed, js.Confirmed); k++ {
		if h, ok := joinSim.at[k]; ok {
			common++
			if h != hostSim.at[k] {
				t.Fatalf("tick %d: joiner's state %016x, host's %016x", k, h, hostSim.at[k])
			}
		}
	}
	if common < 300 {
		t.Errorf("%d ticks compared, want 300 or more", common)
	}
}

// In a match of three, the host fills the stalled peer 2's player only
// once peer 1 has reported no more of its inputs than the host has; a
// peer 1 that confirmed an input of player 2's that the host fills
// otherwise (a message of peer 2 that reached it and not the host) leaves
// the host's timeline and resynchronises.
func TestAFillOverAnotherPeersInputResynchronisesIt(t *testing.T) {
	players := []rollback.Player{{Peer: 0, Delay: 1}, {Peer: 1, Delay: 1}, {Peer: 2, Delay: 1}}
	var ss [3]*rollback.Session
	for i := range ss {
		s, err := rollback.NewSession(&hashed{newToy(8), map[int64]uint64{}}, rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 10, Clock: timing.NewManualClock(0)})
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = s
	}
	msg := make([]byte, 0, rollback.MaxMessage)
	send := func(from int, to ...int) {
		m := ss[from].AppendMessage(msg[:0])
		for _, i := range to {
			if err := ss[i].ReceiveFrom(from, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	advance := func(i int) {
		if _, err := ss[i].Advance(); err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
	}
	for range 5 {
		for i := range ss {
			advance(i)
		}
		send(0, 1, 2)
		send(1, 0, 2)
		send(2, 0, 1)
	}
	// Peer 2 presses and tells peer 1 only, which tells the host it has
	// more of player 2 than the host.
	ss[2].Local(2)[0] = input.Stats{Down: true, Presses: 1}
	advance(2)
	send(2, 1)
	advance(1)
	send(1, 0)
	if err := ss[0].Fill(2); err == nil || !strings.Contains(err.Error(), "not yet") {
		t.Fatalf("Fill while peer 1 has more of player 2: %v, want a refusal saying not yet", err)
	}
	// Had peer 1 not said so, the host fills: peer 1 then hears the host
	// fill the tick it confirmed pressed, and resynchronises.
	ss[0].Rejoined(1) // forget what peer 1 reported
	if err := ss[0].Fill(2); err != nil {
		t.Fatal(err)
	}
	advance(0)
	advance(0) // it fills up to the tick it simulates: peer 2's press is for the next
	send(0, 1)
	if _, err := ss[1].Advance(); !errors.Is(err, rollback.ErrResync) || !strings.Contains(err.Error(), "player 2") {
		t.Errorf("peer 1 after the host filled over its input: %v, want ErrResync naming player 2", err)
	}
}

// A peer the host plays on without may still be running, its messages on
// their way: its hash of a tick the host filled, taken with its own
// inputs, is of a timeline that is no longer the match's. The host does
// not take it for a desync (the match would end, where the peer only has
// to resynchronise); the peer resynchronises once it hears how far the
// host filled.
func TestAFilledPeersHashIsNoDesync(t *testing.T) {
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	var ss [2]*rollback.Session
	for i := range ss {
		s, err := rollback.NewSession(&hashed{newToy(8), map[int64]uint64{}}, rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 10, Clock: timing.NewManualClock(0)})
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = s
	}
	msg := make([]byte, 0, rollback.MaxMessage)
	send := func(from, to int) {
		if err := ss[to].ReceiveFrom(from, ss[from].AppendMessage(msg[:0])); err != nil {
			t.Fatal(err)
		}
	}
	for range 20 {
		for i := range ss {
			if _, err := ss[i].Advance(); err != nil {
				t.Fatalf("peer %d: %v", i, err)
			}
		}
		send(0, 1)
		send(1, 0)
	}
	// Peer 1's messages are late from here (the host holds at its
	// window); it presses, with the host's inputs taken up to tick 30.
	ss[1].Local(1)[0] = input.Stats{Down: true, Presses: 1}
	var late [][]byte
	for range 10 {
		for i := range ss {
			if _, err := ss[i].Advance(); err != nil {
				t.Fatalf("peer %d: %v", i, err)
			}
		}
		send(0, 1)
		late = append(late, ss[1].AppendMessage(nil))
	}
	if st := ss[1].Stats(); st.Confirmed <= 30 {
		t.Fatalf("peer 1 confirmed up to tick %d: the test needs its hash of tick 30", st.Confirmed)
	}
	// The host plays on without it, filling its player's inputs from
	// tick 22 with neutral ones, and then its late messages come.
	if err := ss[0].Fill(1); err != nil {
		t.Fatal(err)
	}
	for range 12 {
		if _, err := ss[0].Advance(); err != nil {
			t.Fatalf("host: %v", err)
		}
	}
	for _, m := range late {
		if err := ss[0].ReceiveFrom(1, m); err != nil {
			t.Fatal(err)
		}
	}
	for range 12 {
		if _, err := ss[0].Advance(); err != nil {
			t.Fatalf("host: %v", err)
		}
	}
	if d, ok := ss[0].Desync(); ok {
		t.Errorf("the host took the filled peer's hash for a desync: %v", d)
	}
	send(0, 1)
	if _, err := ss[1].Advance(); !errors.Is(err, rollback.ErrResync) {
		t.Errorf("peer 1 after the host filled past its inputs: %v, want ErrResync", err)
	}
}
