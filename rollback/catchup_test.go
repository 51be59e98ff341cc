package rollback_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

// hashed is a toy that keeps the hash of every tick it saved: the last
// save of a tick is that of its confirmed timeline.
type hashed struct {
	*toy
	at map[int64]uint64
}

func (h *hashed) Save(tick int64) error {
	h.at[tick] = h.Hash()
	return h.toy.Save(tick)
}

// spectate plays two peers over net for ticks updates, peer 0 keeping
// the log, and a spectator that asks peer 0 for the confirmed inputs
// from tick 0 once the match is at joinAt, catches up and follows with
// the given delay. It returns the host's hashes by tick and the spectator.
// With state, the host's and the spectator's simulations are
// StateSimulations (travels), so a spectator far behind starts from a
// snapshot.
func spectate(t *testing.T, net netsim.Options, ticks, joinAt int64, delay int, state bool) (map[int64]uint64, *rollback.Follower, *toy, *rollback.Session) {
	t.Helper()
	nw, err := netsim.NewNetwork(3, net)
	if err != nil {
		t.Fatal(err)
	}
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	var ss [2]*rollback.Session
	host := &hashed{newToy(8), map[int64]uint64{}}
	for i := range ss {
		var sim rollback.Simulation = newToy(8)
		o := rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 10, Clock: timing.NewManualClock(0)}
		if i == 0 {
			sim, o.LogBytes = host, 1<<16
			if state {
				sim = travels{host, host.toy}
			}
		}
		if ss[i], err = rollback.NewSession(sim, o); err != nil {
			t.Fatal(err)
		}
	}
	feed := ss[0].NewFeed(delay)
	spec := newToy(0)
	var specSim rollback.Simulation = spec
	if state {
		specSim = travels{spec, spec}
	}
	fol, err := rollback.NewFollower(specSim, 2, 2, 10, 0, timing.NewManualClock(0))
	if err != nil {
		t.Fatal(err)
	}
	const step = time.Second / 60
	msg, buf := make([]byte, 0, 4096), make([]byte, 64<<10)
	next := time.Duration(0)
	for now := time.Duration(0); now < time.Duration(ticks+600)*step; now += time.Millisecond {
		at := timing.Instant(now)
		for i, s := range ss {
			l := nw.Link(1-i, i)
			for n, ok := l.Receive(at, buf); ok; n, ok = l.Receive(at, buf) {
				if err := s.Receive(buf[:n]); err != nil {
					t.Fatal(err)
				}
			}
		}
		for n, ok := nw.Link(2, 0).Receive(at, buf); ok; n, ok = nw.Link(2, 0).Receive(at, buf) {
			if err := feed.Receive(buf[:n]); err != nil {
				t.Fatal(err)
			}
		}
		for n, ok := nw.Link(0, 2).Receive(at, buf); ok; n, ok = nw.Link(0, 2).Receive(at, buf) {
			if err := fol.Receive(buf[:n]); err != nil {
				t.Fatal(err)
			}
		}
		if now < next {
			continue
		}
		next += step
		for i, s := range ss {
			if s.Tick() < ticks {
				script(1, i, s.Tick()+2, s.Local(i))
				if _, err := s.Advance(); err != nil {
					t.Fatal(err)
				}
			}
			msg = s.AppendMessage(msg[:0])
			nw.Link(i, 1-i).Send(at, msg)
		}
		if ss[0].Tick() < joinAt {
			continue
		}
		for range 4 {
			m, ok, err := feed.Append(msg[:0])
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			if len(m) > rollback.MaxMessage {
				t.Fatalf("catch-up message of %d bytes, over MaxMessage", len(m))
			}
			nw.Link(0, 2).Send(at, m)
		}
		feed.Update()
		if _, err := fol.Advance(time.Second, 1000); err != nil {
			t.Fatal(err)
		}
		nw.Link(2, 0).Send(at, fol.AppendAck(msg[:0]))
	}
	return host.at, fol, spec, ss[0]
}

// A spectator joining mid-match over a lossy network catches up from
// tick 0 and follows to the host's confirmed ticks, less its delay,
// ending on the host's state: it never predicts, so every tick it ran
// took the confirmed inputs.
func TestSpectatorCatchesUpAndFollows(t *testing.T) {
	net := netsim.Options{Latency: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Duplicate: 0.02, Reorder: 0.05, Seed: 4}
	for _, delay := range []int{0, 6} {
		hashes, fol, spec, host := spectate(t, net, 1200, 600, delay, false)
		st := fol.Stats()
		conf := host.Stats().Confirmed
		if st.Tick != conf-int64(delay) {
			t.Errorf("delay %d: spectator at tick %d, host confirmed %d", delay, st.Tick, conf)
		}
		if want, ok := hashes[st.Tick]; ok && spec.Hash() != want || !ok && st.Tick <= host.Tick() {
			got := spec.Hash()
			t.Errorf("delay %d: spectator's state at tick %d hashes %016x, host's %016x", delay, st.Tick, got, want)
		}
		k, h, ok := fol.LastHash()
		if !ok || k < st.Tick-10 || h != hashes[k] {
			t.Errorf("delay %d: spectator's last hash at tick %d %016x, host's %016x", delay, k, h, hashes[k])
		}
		if st.Malformed != 0 {
			t.Errorf("delay %d: %d malformed catch-up messages", delay, st.Malformed)
		}
		_, end, bytes, full := host.Logged()
		t.Logf("delay %d: %+v; host log %d ticks in %d bytes (%.2f B/tick), full %v", delay, st, end, bytes, float64(bytes)/float64(end), full)
	}
}

// A spectator joining 10 s into a match, whose simulation's state travels,
// is sent the state of a recent confirmed tick instead of every input
// since tick 0, in chunks over the same lossy network, and follows from
// it to the host's state.
func TestSpectatorCatchesUpFromASnapshot(t *testing.T) {
	net := netsim.Options{Latency: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Duplicate: 0.02, Reorder: 0.05, Seed: 5}
	for _, delay := range []int{0, 6} {
		hashes, fol, spec, host := spectate(t, net, 1200, 600, delay, true)
		st := fol.Stats()
		if st.StateBytes != toyStateBytes || st.StateTick < 600 {
			t.Errorf("delay %d: started from a snapshot of %d bytes at tick %d; want %d bytes at tick 600 or later", delay, st.StateBytes, st.StateTick, toyStateBytes)
		}
		if conf := host.Stats().Confirmed; st.Tick != conf-int64(delay) {
			t.Errorf("delay %d: spectator at tick %d, host confirmed %d", delay, st.Tick, conf)
		}
		if want, ok := hashes[st.Tick]; ok && spec.Hash() != want || !ok && st.Tick <= host.Tick() {
			t.Errorf("delay %d: spectator's state at tick %d hashes %016x, host's %016x", delay, st.Tick, spec.Hash(), want)
		}
		if k, h, ok := fol.LastHash(); !ok || k <= st.StateTick || h != hashes[k] {
			t.Errorf("delay %d: spectator's last hash at tick %d %016x, host's %016x (snapshot at %d)", delay, k, h, hashes[k], st.StateTick)
		}
		if st.Malformed != 0 {
			t.Errorf("delay %d: %d malformed catch-up messages", delay, st.Malformed)
		}
		t.Logf("delay %d: %+v", delay, st)
	}
}

// travels makes a toy's state travel (a rollback.StateSimulation): the
// state saved for a tick encodes as its tick, positions and step count,
// then statePadding bytes that depend on the tick, so that a snapshot
// takes several messages.
type travels struct {
	rollback.Simulation // the toy, or a wrapper of it
	toy                 *toy
}

const (
	statePadding  = 3 * rollback.MaxMessage
	toyStateBytes = 8*6 + statePadding
)

func (s travels) AppendState(b []byte, tick int64) ([]byte, error) {
	st := s.toy.saves[tick%int64(len(s.toy.saves))]
	if st.tick != tick {
		return b, fmt.Errorf("toy: no save of tick %d", tick)
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(tick))
	for _, p := range st.pos {
		b = binary.LittleEndian.AppendUint64(b, uint64(p))
	}
	b = binary.LittleEndian.AppendUint64(b, st.steps)
	for i := range statePadding {
		b = append(b, byte(tick)+byte(i))
	}
	return b, nil
}

func (s travels) LoadState(tick int64, b []byte) error {
	if len(b) != toyStateBytes || int64(binary.LittleEndian.Uint64(b)) != tick {
		return fmt.Errorf("toy: a state of %d bytes for tick %d", len(b), tick)
	}
	for i := range s.toy.pos {
		s.toy.pos[i] = int64(binary.LittleEndian.Uint64(b[8+8*i:]))
	}
	s.toy.steps = binary.LittleEndian.Uint64(b[40:])
	for i, c := range b[48:] {
		if c != byte(tick)+byte(i) {
			return fmt.Errorf("toy: byte %d of the state's padding is %d, want %d", 48+i, c, byte(tick)+byte(i))
		}
	}
	return s.toy.Save(tick)
}

// A log that reaches its bound stops logging, and a feed asked past its
// end fails naming the bound, while the session plays on.
func TestAFullLogRefusesPastItsEnd(t *testing.T) {
	players := []rollback.Player{{Peer: 0, Delay: 2}}
	s, err := rollback.NewSession(newToy(8), rollback.Options{Players: players, Actions: 2, Window: 8, LogBytes: 64, Clock: timing.NewManualClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		script(1, 0, s.Tick()+2, s.Local(0))
		if _, err := s.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	_, end, bytes, full := s.Logged()
	if !full || bytes > 64 || end >= 200 {
		t.Fatalf("log of %d ticks in %d bytes, full %v; want full within 64 bytes", end, bytes, full)
	}
	if s.Tick() != 200 {
		t.Errorf("session at tick %d, want 200: a full log must not stop the match", s.Tick())
	}
	feed := s.NewFeed(0)
	fol, _ := rollback.NewFollower(newToy(0), 1, 2, 0, 0, nil)
	var buf []byte
	for range 100 {
		if err := feed.Receive(fol.AppendAck(nil)); err != nil {
			t.Fatal(err)
		}
		m, ok, err := feed.Append(buf[:0])
		if err != nil {
			if !errors.Is(err, rollback.ErrLogFull) || !strings.Contains(err.Error(), "Options.LogBytes 64") {
				t.Fatalf("error %v, want ErrLogFull naming the bound, Options.LogBytes 64", err)
			}
			if fol.Stats().Received != end {
				t.Errorf("refused at tick %d, log ends at %d", fol.Stats().Received, end)
			}
			return
		}
		if ok {
			if err := fol.Receive(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("the feed never refused past the full log's end")
}

// Catch-up messages that are cut, corrupted or of another shape are
// refused with an error and counted, never taken.
func TestMalformedCatchUpIsRefused(t *testing.T) {
	good := catchUpMessage(t)
	fol, _ := rollback.NewFollower(newToy(0), 2, 2, 0, 0, nil)
	for _, m := range [][]byte{nil, []byte("MK"), good[:len(good)-1], append([]byte("MX"), good[2:]...), flip(good, len(good)/2)} {
		if err := fol.Receive(m); !errors.Is(err, rollback.ErrMalformed) {
			t.Errorf("%x: error %v, want ErrMalformed", m, err)
		}
	}
	if st := fol.Stats(); st.Malformed != 5 || st.Received != 0 {
		t.Errorf("%+v: want 5 malformed and nothing received", st)
	}
	if err := fol.Receive(good); err != nil || fol.Stats().Received == 0 {
		t.Errorf("the genuine message: %v, received %d", err, fol.Stats().Received)
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 0x10
	return c
}

// catchUpMessage returns a feed's first message of a short match.
func catchUpMessage(t testing.TB) []byte { return firstFeedMessage(t, false) }

// firstFeedMessage is the first message a feed sends a new follower: with
// state, over simulations whose state travels, 400 ticks into the match,
// the first chunk of a snapshot.
func firstFeedMessage(t testing.TB, state bool) []byte {
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 0, Delay: 2}}
	host, ticks := newToy(8), 100
	var sim rollback.Simulation = host
	if state {
		sim, ticks = travels{host, host}, 400
	}
	s, err := rollback.NewSession(sim, rollback.Options{Players: players, Actions: 2, Window: 8, LogBytes: 1 << 12, Clock: timing.NewManualClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	for range ticks {
		script(1, 0, s.Tick()+2, s.Local(0))
		script(2, 1, s.Tick()+2, s.Local(1))
		if _, err := s.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	feed := s.NewFeed(0)
	spec := newToy(0)
	var specSim rollback.Simulation = spec
	if state {
		specSim = travels{spec, spec}
	}
	fol, _ := rollback.NewFollower(specSim, 2, 2, 0, 0, nil)
	if err := feed.Receive(fol.AppendAck(nil)); err != nil {
		t.Fatal(err)
	}
	m, ok, err := feed.Append(nil)
	if err != nil || !ok {
		t.Fatalf("no first message: %v", err)
	}
	return m
}

// A receiver that asks again from further back than its last ack gets
// the feed's whole allowance of messages ahead, not what the messages
// sent before the rewind (which it will never acknowledge) left of it.
func TestFeedRewindSendsAFullAllowance(t *testing.T) {
	s, err := rollback.NewSession(newToy(8), rollback.Options{Players: []rollback.Player{{Peer: 0}}, Actions: 2, Window: 8, LogBytes: 1 << 20, Clock: timing.NewManualClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	for s.Tick() < 20000 {
		script(5, 0, s.Tick(), s.Local(0))
		if _, err := s.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	feed := s.NewFeed(0)
	ack := func(next int64) {
		t.Helper()
		if err := feed.Receive(append(binary.AppendUvarint([]byte{'M', 'A', 2}, uint64(next)), 0, 0)); err != nil {
			t.Fatal(err)
		}
	}
	// burst appends every message the feed sends now and returns the
	// tick each ends before.
	burst := func() []int64 {
		t.Helper()
		var ends []int64
		for {
			m, ok, err := feed.Append(nil)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				return ends
			}
			first, n := binary.Uvarint(m[3:])
			_, e := binary.Uvarint(m[3+n:]) // the confirmed end
			count, _ := binary.Uvarint(m[3+n+e:])
			ends = append(ends, int64(first+count))
		}
	}
	ack(0)
	first := burst()
	if len(first) < 2 {
		t.Fatalf("first burst: %d messages, want a few", len(first))
	}
	ack(first[len(first)-1])
	if second := burst(); len(second) != len(first) {
		t.Fatalf("after an ack of the whole first burst: %d messages, want %d", len(second), len(first))
	}
	ack(first[0]) // the receiver lost what came after the first message
	if got := burst(); len(got) != len(first) {
		t.Errorf("after asking again from tick %d: %d messages, want %d", first[0], len(got), len(first))
	}
}
