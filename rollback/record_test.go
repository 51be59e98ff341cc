package rollback_test

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/rollback/rollbacktest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// recordedMatch is two players' sides of the paddle game over a simulated
// network on one manual clock, each recording its match into a buffer.
type recordedMatch struct {
	t     testing.TB
	clock *timing.ManualClock
	sides []*rollback.Side
	recs  []*rollback.Recorder
	ws    []*recording.Writer
	bufs  []*bytes.Buffer
	ctxs  [2]runtime.TickContext
	stops [2]*runtime.StopSignal
	n     int
	// stats, when not nil, gets each side's figures after each update.
	stats *[2][]rollback.PeerStats
}

// newRecordedMatch plays the paddle game between two bots over net,
// hashing every hashEvery ticks, to the match's end at ticks (0: none).
// out, if set, receives each side's recording instead of a buffer.
func newRecordedMatch(t testing.TB, net netsim.Options, hashEvery int, ticks int64, out io.Writer) *recordedMatch {
	t.Helper()
	nw, err := netsim.NewNetwork(2, net)
	if err != nil {
		t.Fatal(err)
	}
	m := &recordedMatch{t: t, clock: timing.NewManualClock(0), stops: [2]*runtime.StopSignal{runtime.NewStopSignal(), runtime.NewStopSignal()}}
	trs := rollbacktest.NewTransports(nw, m.clock)
	seats := [][]input.Action{{1, 2}}
	for i := range 2 {
		app, err := rollback.NewApp(paddleGame(t, 2), 8)
		if err != nil {
			t.Fatal(err)
		}
		side, err := rollback.NewPlayerSide(app, rollback.PeerOptions{
			Options:   rollback.Options{Self: i, Players: []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}, Actions: 2, Window: 8, HashEvery: hashEvery, Clock: m.clock},
			Transport: trs[i], Step: peerStep, Patience: time.Minute, Cutoff: 2 * time.Second, Ticks: ticks, Recorded: true, Bot: uint64(i + 1)}, seats)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		dst := io.Writer(&b)
		if out != nil {
			dst = out
		}
		w, err := recording.NewWriter(dst, "match.rec", side.RecordingHeader(recording.Header{Game: "paddle"}))
		if err != nil {
			t.Fatal(err)
		}
		w.SetClock(m.clock)
		m.sides, m.ws, m.bufs = append(m.sides, side), append(m.ws, w), append(m.bufs, &b)
		m.recs = append(m.recs, rollback.NewRecorder(side, w))
	}
	return m
}

// update advances the clock a step and runs one update of each side with
// its recording, until the match finished.
func (m *recordedMatch) update() {
	m.n++
	m.clock.Advance(peerStep)
	for i, s := range m.sides {
		if m.stops[i].Requested() {
			continue
		}
		ctx := &m.ctxs[i]
		*ctx = runtime.TickContext{Update: timing.Update{Number: uint64(m.n), Kind: timing.FixedUpdate, Steps: 1, Delta: peerStep, Final: true}, Stop: m.stops[i]}
		if err := s.Update(ctx); err != nil {
			m.t.Fatal(err)
		}
		if err := m.recs[i].Update(ctx); err != nil {
			m.t.Fatal(err)
		}
		if m.stats != nil {
			m.stats[i] = append(m.stats[i], s.Stats())
		}
	}
}

// A recorded match keeps its figures about once a second of each peer's
// updates: each item is what the peer's Stats said after that update,
// the last is within a second of the match's end, and they show the
// match's traffic and rollbacks over a lossy network.
func TestRecordedMatchKeepsItsFigures(t *testing.T) {
	const ticks, every = 600, 30
	m := newRecordedMatch(t, netsim.Options{Latency: 60 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.1, Seed: 12}, every, ticks, nil)
	m.stats = new([2][]rollback.PeerStats)
	for range 3000 {
		if m.stops[0].Requested() && m.stops[1].Requested() {
			break
		}
		m.update()
	}
	for i, w := range m.ws {
		if err := w.Finish(recording.Clean, ""); err != nil {
			t.Fatal(err)
		}
		r, err := recording.NewReader(bytes.NewReader(m.bufs[i].Bytes()), "match.rec")
		if err != nil {
			t.Fatal(err)
		}
		var figs []recording.NetFigures
		for {
			it, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			if f, ok := it.(*recording.NetFigures); ok {
				figs = append(figs, *f)
			}
		}
		seen := m.stats[i]
		if len(figs) < len(seen)/60 || len(figs) == 0 {
			t.Fatalf("peer %d: %d net figures over %d updates, want one every 60", i, len(figs), len(seen))
		}
		for _, f := range figs {
			if f.Update%60 != 0 || f.Update == 0 || f.Update > uint64(len(seen)) {
				t.Fatalf("peer %d: figures after update %d, want every 60th of %d updates", i, f.Update, len(seen))
			}
			ns := seen[f.Update-1]
			want := recording.NetFigures{Update: f.Update, Tick: ns.Tick, Confirmed: ns.Confirmed, RTT: ns.RTT,
				BytesSent: ns.BytesSent, BytesReceived: ns.BytesReceived, Sent: ns.Sent, Received: ns.Received,
				Rollbacks: ns.Rollbacks, Resimulated: ns.Resimulated, MaxDepth: ns.MaxDepth, Held: ns.Held,
				Resyncs: ns.Resyncs, PlayedOn: ns.PlayedOn, SlowedDown: ns.SlowedDown, Mispredicted: ns.Mispredicted, Malformed: ns.Malformed}
			if f != want {
				t.Errorf("peer %d: recorded figures %+v, the peer's after that update %+v", i, f, want)
			}
		}
		last, end := figs[len(figs)-1], seen[len(seen)-1]
		if uint64(len(seen))-last.Update >= 60 {
			t.Errorf("peer %d: the last figures are of update %d of %d, want within a second", i, last.Update, len(seen))
		}
		if last.Rollbacks == 0 || last.BytesSent == 0 || last.BytesReceived == 0 || last.Rollbacks > end.Rollbacks || last.BytesSent > end.BytesSent {
			t.Errorf("peer %d: last figures %+v, end %+v: want traffic and rollbacks, no more than at the end", i, last, end.Stats)
		}
	}
}

// A recorded match holds the same ticks, inputs and hashes on both
// peers, ending on the last hashed tick below the match's end; a
// Playback of it gives the players the recorded input and, once each
// checkpoint is checked, the hashes the match confirmed.
func TestRecordedMatchPlaysBack(t *testing.T) {
	const ticks, every = 300, 30
	m := newRecordedMatch(t, netsim.Options{Latency: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: 9}, every, ticks, nil)
	for range 2000 {
		if m.stops[0].Requested() && m.stops[1].Requested() {
			break
		}
		m.update()
	}
	if got, want := m.sides[0].Real(), time.Duration(m.n-1)*peerStep; got != want {
		t.Errorf("the match's real time is %v after %d updates a step apart, want %v", got, m.n, want)
	}
	o, ok := m.sides[0].Outcome()
	if !ok || o.Kind != rollback.Finished {
		t.Fatalf("the match has not finished: %v %v", o, ok)
	}
	for i, w := range m.ws {
		if err := w.Finish(recording.Clean, ""); err != nil {
			t.Fatal(err)
		}
		if got, want := w.Ticks(), uint64((ticks-1)/every*every); got != want {
			t.Errorf("peer %d recorded %d ticks, want %d (the last hashed tick below %d)", i, got, want, ticks)
		}
	}
	if !bytes.Equal(items(t, m.bufs[0].Bytes()), items(t, m.bufs[1].Bytes())) {
		t.Error("the two peers' recordings hold different ticks or checkpoints")
	}
	r, err := recording.NewReader(bytes.NewReader(m.bufs[0].Bytes()), "match.rec")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rollback.NewPlayback(r, 3, 2); err == nil {
		t.Error("NewPlayback took a 2-player recording for a 3-player game")
	}
	pb, err := rollback.NewPlayback(r, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	var players rollback.Players
	checks := 0
	for {
		it, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		switch it := it.(type) {
		case *recording.Tick:
			pb.Fill(&players)
			for p := range 2 {
				for a, st := range players.Input(p) {
					if st != it.Players[p*2+a] {
						t.Fatalf("tick %d: player %d action %d is %+v, recorded %+v", it.Update.Number, p, a, st, it.Players[p*2+a])
					}
				}
			}
		case *recording.Checkpoint:
			pb.Checked(it)
			checks++
			want, ok := m.sides[0].HashAt(int64(it.Tick) + 1)
			if got, gok := pb.HashAt(int64(it.Tick) + 1); ok && (!gok || got != want) {
				t.Errorf("checkpoint of tick %d: playback hash %016x (%v), the match's %016x", it.Tick, got, gok, want)
			}
		}
	}
	tick, hash, ok := pb.ConfirmedHash()
	if checks != (ticks-1)/every || !ok || tick != o.Tick || hash != o.Hash {
		t.Errorf("playback: %d checks, confirmed tick %d hash %016x (%v); want %d checks, the outcome's tick %d hash %016x",
			checks, tick, hash, ok, (ticks-1)/every, o.Tick, o.Hash)
	}
}

// items returns a recording's ticks and checkpoints written out again, to
// compare two recordings whatever their clocks put in pacing items.
func items(t *testing.T, b []byte) []byte {
	t.Helper()
	r, err := recording.NewReader(bytes.NewReader(b), "match.rec")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for {
		it, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out.Bytes()
		} else if err != nil {
			t.Fatal(err)
		}
		switch it := it.(type) {
		case *recording.Tick:
			out.WriteString(fmtTick(it))
		case *recording.Checkpoint:
			out.WriteString(fmtCheck(it))
		}
	}
}

func fmtTick(t *recording.Tick) string {
	b := []byte{'t'}
	b = append(b, byte(t.Update.Number), byte(t.Update.Number>>8))
	for _, p := range t.Players {
		b = append(b, boolByte(p.Down), byte(p.Presses), byte(p.Releases))
	}
	return string(b)
}

func fmtCheck(c *recording.Checkpoint) string {
	b := []byte{'c', byte(c.Tick), byte(c.Tick >> 8)}
	for i := range 8 {
		b = append(b, byte(c.Hash>>(8*i)))
	}
	return string(b)
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}
